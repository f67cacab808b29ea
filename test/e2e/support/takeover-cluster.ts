// Takeover e2e files on the shared control plane. A takeover plans over the whole cluster, and it
// changes cluster-wide objects the other files share: the handback record in kruise-system, our
// webhook configurations, and every CRD's conversion webhook (pointing at the file's edge, which
// stops with the file).
import { join } from 'node:path';
import { removeConversionWebhooks } from '../../../src/install/apply.js';
import { installCrds } from '../../../src/kube/crds.js';
import { readCrdManifests } from '../../../src/kube/crd-manifests.js';
import { isNotFound } from '../../../src/kube/errors.js';
import type { KubeHttp, KubeObject } from '../../../src/kube/http.js';
import { HANDBACK_CONFIGMAP } from '../../../src/takeover/handback-record.js';
import { KRUISE_NAMESPACE } from '../../../src/takeover/preflight.js';
import { handback } from '../../../src/takeover/run.js';
import { REPO_ROOT } from '../../cluster/control-plane.js';
import { eventually } from './kube.js';

/**
 * A takeover plans every reconciler over the whole cluster and refuses on any pod write: an earlier
 * file's namespace still being deleted (its pods going) is not part of the cluster it takes over.
 */
export async function earlierFilesGone(kube: KubeHttp): Promise<void> {
  await eventually('no namespace terminating', async () => {
    const all = await kube.list<KubeObject & { status?: { phase?: string } }>('v1', 'Namespace');
    return all.items.some((n) => n.status?.phase === 'Terminating') ? undefined : true;
  }, 180_000, 500);
}

/** Puts the shared objects back as global setup left them. */
export async function undoTakeover(kube: KubeHttp): Promise<void> {
  const recorded = await kube.get('v1', 'ConfigMap', HANDBACK_CONFIGMAP, KRUISE_NAMESPACE).then(() => true, (e: unknown) => { if (isNotFound(e)) return false; throw e; });
  if (recorded) await handback(kube, { dryRun: false, out: () => undefined });
  // A handback patches conversions back under another field manager, so an apply alone would
  // keep the webhook it restored: take it off as the uninstaller does first.
  await removeConversionWebhooks(kube);
  await installCrds(kube, readCrdManifests(join(REPO_ROOT, 'infra', 'crds')));
}
