// The edge in front of the benchmark's cluster, as installed for users: the production Worker
// under Miniflare over HTTPS (a serving certificate from the control plane's CA), the cluster
// registered with it, and the CloneSet webhooks (mutate-cloneset, validate-kruise) pointing at it.
// `bindings` make it publish ObjectChanged events (the Lambda path's EventBridge stand-in).
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { cloneSetFeature } from '../../src/cloneset/index.js';
import type { Feature } from '../../src/feature.js';
import { fetchTrustingCa } from '../../src/edge-state/ca-fetch.js';
import type { EdgeTarget } from '../../src/edge-state/push.js';
import { applyClusterSide } from '../../src/install/apply.js';
import { renderClusterSide } from '../../src/install/render.js';
import type { KubeHttp } from '../../src/kube/http.js';
import { webhookEndpoints, withoutPodStatusObserver } from '../../src/registry.js';
import { startLocalWorker, type LocalWorker } from '../../scripts/local-worker.js';
import { issueServingCert } from '../../test/cluster/pki.js';
import type { ControlPlane } from '../../test/cluster/control-plane.js';

export type Edge = { worker: LocalWorker; clusterId: string; edge: EdgeTarget; endpoints: string[]; dispose(): Promise<void> };

const ADMIN = 'bench-cloneset-admin';

/** Starts a Worker, registers `clusterId` with it and points the CloneSet webhooks at it (replacing any earlier target). */
/** `features`: whose webhooks point at it (default the CloneSet's). */
export async function startEdge(cp: ControlPlane, kube: KubeHttp, name: string, bindings?: Record<string, string>, features: readonly Feature[] = [cloneSetFeature]): Promise<Edge> {
  const ca = readFileSync(cp.pki.caCert, 'utf8');
  const serving = issueServingCert(dirname(cp.pki.caCert), name, ['localhost'], ['127.0.0.1']);
  const tls = { cert: readFileSync(serving.cert, 'utf8'), key: readFileSync(serving.key, 'utf8') };
  const worker = await startLocalWorker({ tls, adminToken: ADMIN, ...(bindings ? { bindings } : {}) });
  const fetch = fetchTrustingCa(ca);
  const clusterId = 'bench-cloneset';
  const res = await fetch(`${worker.url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ clusterId }) });
  if (res.status !== 201) throw new Error(`registering the cluster with the Worker: ${res.status} ${await res.text()}`);
  const creds = (await res.json()) as { webhookSecret: string; syncToken: string };
  // The pod-status observer only feeds the Lambda path's change events: without them (the Node
  // loop watches pods itself) it is left out, as `install --node-loop` and `npm start` leave it out.
  const all = webhookEndpoints(features);
  const endpoints = bindings ? all : withoutPodStatusObserver(all);
  await applyClusterSide(kube, renderClusterSide({ baseUrl: worker.url, clusterId, secret: creds.webhookSecret, caBundle: ca, crds: [], endpoints }));
  return {
    worker, clusterId, endpoints: endpoints.map((e) => e.path),
    edge: { baseUrl: worker.url, clusterId, syncToken: creds.syncToken, fetch },
    dispose: () => worker.dispose(),
  };
}
