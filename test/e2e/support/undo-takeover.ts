// A takeover changes cluster-wide objects the other e2e files share: the handback record in
// kruise-system, our webhook configurations, and every CRD's conversion webhook (pointing at this
// file's edge, which stops with the file). This puts them back as global setup left them.
import { join } from 'node:path';
import { installCrds } from '../../../src/kube/crds.js';
import { readCrdManifests } from '../../../src/kube/crd-manifests.js';
import { isNotFound } from '../../../src/kube/errors.js';
import type { KubeHttp } from '../../../src/kube/http.js';
import { HANDBACK_CONFIGMAP } from '../../../src/takeover/handback-record.js';
import { KRUISE_NAMESPACE } from '../../../src/takeover/preflight.js';
import { handback } from '../../../src/takeover/run.js';
import { REPO_ROOT } from '../../cluster/control-plane.js';

export async function undoTakeover(kube: KubeHttp): Promise<void> {
  const recorded = await kube.get('v1', 'ConfigMap', HANDBACK_CONFIGMAP, KRUISE_NAMESPACE).then(() => true, (e: unknown) => { if (isNotFound(e)) return false; throw e; });
  if (recorded) await handback(kube, { dryRun: false, out: () => undefined });
  const crds = readCrdManifests(join(REPO_ROOT, 'infra', 'crds'));
  // A handback patches conversions back under another field manager, so an apply alone would
  // keep the webhook it restored: drop it outright.
  for (const crd of crds) {
    await kube.patch(crd, { spec: { conversion: { strategy: 'None', webhook: null } } }).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
  }
  await installCrds(kube, crds);
}
