// `npm start`: the whole system locally.
//   1. the cluster: $KUBECONFIG, or a local control plane (started, or reused if running)
//   2. the edge: the Worker under Miniflare over HTTPS, with this cluster registered
//   3. the cluster side: CRDs, namespace, RBAC and webhook configurations pointing at the edge
//   4. the reconcilers, resyncing every 30 s and on watch triggers; after each resync they push
//      every collection the webhooks read to the edge
//   `validate-delete` alone is served by this process, reading the cluster live, as the README
//   advises for production (`--endpoint-url validate-delete=<Lambda function URL>`): a Cascading
//   CRD's deletion depends on its custom resources, which no observer can bring to the edge.
// Ctrl-C removes the webhook configurations (a stopped edge must not block pod creation) and
// leaves the control plane running (`npm run cluster:down` stops it).
//   --detach   only steps 1 and 3 without webhooks: install CRDs and return
//   --verbose  log every reconcile run and every collection pushed (default: one line per push
//              and one per run that wrote something)
// If this process dies without removing the webhook configurations (killed, or its output pipe
// closed under it), a detached guardian (webhook-guardian.ts) removes them.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, startControlPlane } from '../test/cluster/control-plane.js';
import { ensurePki, issueServingCert } from '../test/cluster/pki.js';
import { loadKubeConfig } from '../src/kube/node-client.js';
import { KubeHttp } from '../src/kube/http.js';
import { readCrdManifests } from '../src/kube/crd-manifests.js';
import { newSecret } from '../src/edge-state/auth.js';
import { describePush, pushCollections } from '../src/edge-state/push.js';
import { fetchTrustingCa } from '../src/edge-state/ca-fetch.js';
import { FEATURES, stateCollections, webhookEndpoints, withoutPodStatusObserver } from '../src/registry.js';
import { renderClusterSide } from '../src/install/render.js';
import { serverKeepsNameLabel } from '../src/install/server-version.js';
import { applyClusterSide } from '../src/install/apply.js';
import { startLocalWorker } from './local-worker.js';
import { startNodeServer } from '../functions/node/server.js';
import { sha256Hex } from '../src/edge-state/auth.js';
import { deletionProtectionFeature } from '../src/deletion-protection/index.js';
import { reconcile } from '../src/cli/reconcile.js';

// Output may go to a pipe that dies first (`npm start | tee log`, then Ctrl-C): a failed write
// must not stop the cleanup below.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
const log = (m: string) => {
  try {
    process.stderr.write(`[start] ${m}\n`);
  } catch {
    // the terminal is gone; keep going
  }
};
const detach = process.argv.includes('--detach');
const verbose = process.argv.includes('--verbose');
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

// Deletion protection, decided from live LISTs (the same app on Node), under the cluster's secret.
const liveCert = issueServingCert(pkiDir, 'live', ['localhost'], ['127.0.0.1']);
const live = await startNodeServer({
  clusterId: CLUSTER_ID,
  registryJson: JSON.stringify([{ clusterId: CLUSTER_ID, webhookSecrets: [{ sha256: await sha256Hex(creds.webhookSecret) }], syncTokens: [] }]),
  tlsCert: readFileSync(liveCert.cert, 'utf8'), tlsKey: readFileSync(liveCert.key, 'utf8'), port: 0,
  kubeconfigPath: kubeconfig, features: [deletionProtectionFeature],
  edge: { baseUrl: worker.url, clusterId: CLUSTER_ID, syncToken: creds.syncToken, fetch: edgeFetch },
});
log(`validate-delete (live reads) on ${live.url}`);

// CRDs first (a fresh cluster serves none of our kinds yet), then the state webhooks read, then
// the webhooks themselves.
const nameLabelKept = await serverKeepsNameLabel(kube);
const clusterSide = (endpoints: ReturnType<typeof webhookEndpoints>, withCrds: boolean) =>
  renderClusterSide({
    baseUrl: worker.url, clusterId: CLUSTER_ID, secret: creds.webhookSecret, caBundle: ca, endpoints, crds: withCrds ? crds : [], nameLabelKept,
    ...(endpoints.some((e) => e.path === 'validate-delete') ? { overrides: { 'validate-delete': { baseUrl: live.url, caBundle: ca } } } : {}),
  });
await applyClusterSide(kube, clusterSide([], true), { log: verbose ? log : undefined });
const edge = { baseUrl: worker.url, clusterId: CLUSTER_ID, syncToken: creds.syncToken, fetch: edgeFetch };
const pushStarted = Date.now();
log(describePush(await pushCollections(edge, (v, k, o) => kube.list(v, k, o), stateCollections(FEATURES)), Date.now() - pushStarted));

// From here on webhooks call the edge: if this process dies without removing them, the guardian does.
const guardian = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'webhook-guardian.ts'), kubeconfig, worker.url], {
  cwd: REPO_ROOT, detached: true, stdio: ['pipe', 'ignore', 'ignore'],
});
guardian.unref();
// The Node loop below watches pods itself: no pods/status observer.
const endpoints = withoutPodStatusObserver(webhookEndpoints(FEATURES));
await applyClusterSide(kube, clusterSide(endpoints, false), { log: verbose ? log : undefined });
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
  verbose, log: (m) => log(`reconcile: ${m}`), out: (m) => log(`reconcile: ${m}`),
});
log('stopping: removing webhook configurations');
await applyClusterSide(kube, clusterSide([], false));
guardian.stdin?.end('released\n');
// The API server keeps connections open: don't let them hold the exit.
await Promise.race([live.close(), new Promise((r) => setTimeout(r, 2000))]);
await worker.dispose();
kube.close();
log('stopped');
