// `npm start`: the whole system locally.
//   1. the cluster: $KUBECONFIG, or a local control plane (started, or reused if running)
//   2. the edge: the Worker under Miniflare over HTTPS, with this cluster registered
//   3. the cluster side: CRDs, namespace, RBAC and webhook configurations pointing at the edge
//   4. the reconcilers, resyncing every 30 s and on watch triggers; after each resync they push
//      every collection the webhooks read to the edge
// Ctrl-C removes the webhook configurations (a stopped edge must not block pod creation) and
// leaves the control plane running (`npm run cluster:down` stops it).
//   --detach   only steps 1 and 3 without webhooks: install CRDs and return
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, startControlPlane } from '../test/cluster/control-plane.js';
import { ensurePki, issueServingCert } from '../test/cluster/pki.js';
import { loadKubeConfig } from '../src/kube/node-client.js';
import { KubeHttp } from '../src/kube/http.js';
import { readCrdManifests } from '../src/kube/crd-manifests.js';
import { newSecret } from '../src/admission/auth.js';
import { pushCollections } from '../src/admission/push.js';
import { fetchTrustingCa } from '../src/admission/ca-fetch.js';
import { FEATURES, stateCollections, webhookEndpoints } from '../src/registry.js';
import { renderClusterSide } from '../src/install/render.js';
import { applyClusterSide } from '../src/install/apply.js';
import { startLocalWorker } from './local-worker.js';
import { reconcile } from '../src/cli/reconcile.js';

const log = (m: string) => console.error(`[start] ${m}`);
const detach = process.argv.includes('--detach');
const STATE = join(REPO_ROOT, '.kruise-serverless');
const CLUSTER_ID = 'local';
const RESYNC_SECONDS = 30;

const external = process.env.KUBECONFIG;
const kubeconfig = external ?? (await startControlPlane('dev', log)).kubeconfig;
log(external ? `using $KUBECONFIG (${external})` : `local control plane: export KUBECONFIG=${kubeconfig}`);
const kube = await KubeHttp.fromKubeConfig(loadKubeConfig(kubeconfig));
const crds = readCrdManifests(join(REPO_ROOT, 'infra', 'crds'));

if (detach) {
  await applyClusterSide(kube, renderClusterSide({ baseUrl: 'https://127.0.0.1', clusterId: CLUSTER_ID, secret: 'unused', endpoints: [], crds }), { log });
  log(`installed ${crds.length} CRDs; done (the control plane keeps running; stop it with \`npm run cluster:down\`)`);
  kube.close();
  process.exit(0);
}

// The edge, over HTTPS with a certificate from a local CA the API server is told to trust.
const pkiDir = join(STATE, 'edge-pki');
mkdirSync(pkiDir, { recursive: true });
const pki = ensurePki(pkiDir);
const certFiles = issueServingCert(pkiDir, 'edge', ['localhost'], ['127.0.0.1']);
const ca = readFileSync(pki.caCert, 'utf8');
const devFile = join(STATE, 'edge-dev.json');
const dev = existsSync(devFile) ? (JSON.parse(readFileSync(devFile, 'utf8')) as { adminToken: string }) : { adminToken: newSecret() };
writeFileSync(devFile, JSON.stringify(dev), { mode: 0o600 });
const worker = await startLocalWorker({
  tls: { cert: readFileSync(certFiles.cert, 'utf8'), key: readFileSync(certFiles.key, 'utf8') },
  adminToken: dev.adminToken,
});
log(`edge (Worker under Miniflare) on ${worker.url}`);
const edgeFetch = fetchTrustingCa(ca);

// Register the cluster (state lives only as long as this process; credentials are fresh each run).
const created = await edgeFetch(`${worker.url}/admin/clusters`, {
  method: 'POST', headers: { authorization: `Bearer ${dev.adminToken}` }, body: JSON.stringify({ clusterId: CLUSTER_ID }),
});
if (created.status !== 201) throw new Error(`edge refused to register the cluster: ${created.status} ${await created.text()}`);
const creds = (await created.json()) as { webhookSecret: string; syncToken: string };

// Webhooks read pushed state: push it once before they are registered.
const edge = { baseUrl: worker.url, clusterId: CLUSTER_ID, syncToken: creds.syncToken, fetch: edgeFetch };
for (const r of await pushCollections(edge, (v, k, o) => kube.list(v, k, o), stateCollections(FEATURES))) {
  log(`pushed ${r.collection}: ${r.mode}, ${r.changed}/${r.items} changed`);
}

const endpoints = webhookEndpoints(FEATURES);
await applyClusterSide(kube, renderClusterSide({ baseUrl: worker.url, clusterId: CLUSTER_ID, secret: creds.webhookSecret, caBundle: ca, endpoints, crds }), { log });
log(`cluster side installed: ${crds.length} CRDs, ${endpoints.length} webhook endpoints (${endpoints.map((e) => e.path).join(', ') || 'no feature registers one yet'})`);

log('running; Ctrl-C to stop (webhook configurations are removed, the control plane keeps running)');
// Miniflare's own exit hooks would exit before our cleanup runs; we dispose workerd ourselves.
process.removeAllListeners('SIGINT');
process.removeAllListeners('SIGTERM');
const stop = new AbortController();
process.once('SIGINT', () => stop.abort());
process.once('SIGTERM', () => stop.abort());
await reconcile(kube, {
  once: false, dryRun: false, resyncSeconds: RESYNC_SECONDS, watch: true, signal: stop.signal,
  edge: { url: worker.url, clusterId: CLUSTER_ID, syncToken: creds.syncToken, caFile: pki.caCert },
  log: (m) => log(`reconcile: ${m}`), out: (m) => log(`reconcile: ${m}`),
});
log('stopping: removing webhook configurations');
await applyClusterSide(kube, renderClusterSide({ baseUrl: worker.url, clusterId: CLUSTER_ID, secret: creds.webhookSecret, endpoints: [], crds: [] }), { log });
await worker.dispose();
kube.close();
log('stopped');
