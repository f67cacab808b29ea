// The whole system locally, as `npm start` runs it and the soak drives it:
//   1. the edge: the Worker under Miniflare over HTTPS, with the cluster registered
//   2. the cluster side: CRDs, namespace, RBAC and webhook configurations pointing at the edge
//   3. the reconcilers, resyncing every `resyncSeconds` and on watch triggers; on a timer of the
//      same period they push every collection the webhooks read to the edge
// `validate-delete` alone is served by this process, reading the cluster live, as docs/features/deletion-protection.md
// advises for production (`--endpoint-url validate-delete=<Lambda function URL>`): a Cascading
// CRD's deletion depends on its custom resources, which no observer can bring to the edge.
// `stop()` removes the webhook configurations (a stopped edge must not block pod creation) and
// leaves the control plane running. A detached guardian (webhook-guardian.ts) removes them if
// this process dies without doing so.
import { spawn, type ChildProcess } from 'node:child_process';
import { setMaxListeners } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../test/cluster/control-plane.js';
import { ensurePki, issueServingCert } from '../test/cluster/pki.js';
import { loadKubeConfig } from '../src/kube/node-client.js';
import { KubeHttp } from '../src/kube/http.js';
import { readCrdManifests } from '../src/kube/crd-manifests.js';
import { newSecret, sha256Hex } from '../src/edge-state/auth.js';
import { describePush, pushCollections, type Fetch } from '../src/edge-state/push.js';
import { fetchTrustingCa } from '../src/edge-state/ca-fetch.js';
import { CLUSTER_ROUTES, routePath } from '../src/edge-state/routes.js';
import { FEATURES, stateCollections, webhookEndpoints, withoutPodStatusObserver } from '../src/registry.js';
import { renderClusterSide } from '../src/install/render.js';
import { applyClusterSide } from '../src/install/apply.js';
import { reconcile } from '../src/cli/reconcile.js';
import { serverKeepsNameLabel } from '../src/install/server-version.js';
import { deletionProtectionFeature } from '../src/deletion-protection/index.js';
import { startNodeServer } from '../functions/node/server.js';
import { parseMetricsPort } from '../src/telemetry/node.js';
import { startMetricsListener } from '../src/telemetry/metrics-listener.js';
import { startLocalWorker, type LocalWorker } from './local-worker.js';
import { startTcpRelay, type TcpRelay } from './tcp-relay.js';

export const STATE_DIR = join(REPO_ROOT, '.kruise-serverless');

export type SystemOptions = {
  kubeconfig: string;
  resyncSeconds: number;
  log: (m: string) => void;
  /** Log every reconcile run and every collection pushed. */
  verbose?: boolean;
  clusterId?: string;
  /**
   * Webhooks and pushes reach the edge through a TCP relay that `edgeReachable(false)` can cut
   * (chaos: an unreachable edge that keeps its state).
   */
  relay?: boolean;
  /** Start the webhook guardian (default true). */
  guardian?: boolean;
};

export type EdgeCredentials = {
  /** What webhooks and pushes call (the relay when there is one). */
  url: string;
  /** The Worker itself, bypassing any relay. */
  directUrl: string;
  clusterId: string;
  syncToken: string;
  webhookSecret: string;
  caFile: string;
  fetch: Fetch;
};

export type System = {
  kubeconfig: string;
  kube: KubeHttp;
  edge: EdgeCredentials;
  /** Resolves when the reconcile loop has ended (after `stop()`), rejects if it failed. */
  running: Promise<void>;
  /** Restarts the Worker on the same port with its state lost (collections and ledgers); the cluster stays registered. */
  restartEdge(): Promise<void>;
  /** Cuts (false) or restores (true) the relay in front of the edge; needs `relay`. */
  edgeReachable(reachable: boolean): void;
  /** Where this process serves /metrics, /readyz and /healthz (absent with KS_METRICS_PORT=off). */
  metricsUrl?: string;
  /** Stops the loop, removes the webhook configurations, releases the guardian, stops the edge. Idempotent. */
  stop(): Promise<void>;
};

const CLUSTER_ID = 'local';

export async function startSystem(opts: SystemOptions): Promise<System> {
  const log = opts.log;
  const clusterId = opts.clusterId ?? CLUSTER_ID;
  const kube = await KubeHttp.fromKubeConfig(loadKubeConfig(opts.kubeconfig));
  const crds = readCrdManifests(join(REPO_ROOT, 'infra', 'crds'));

  // The edge, over HTTPS with a certificate from a local CA the API server is told to trust.
  const pkiDir = join(STATE_DIR, 'edge-pki');
  mkdirSync(pkiDir, { recursive: true });
  const pki = ensurePki(pkiDir);
  const certFiles = issueServingCert(pkiDir, 'edge', ['localhost'], ['127.0.0.1']);
  const tls = { cert: readFileSync(certFiles.cert, 'utf8'), key: readFileSync(certFiles.key, 'utf8') };
  const ca = readFileSync(pki.caCert, 'utf8');
  const devFile = join(STATE_DIR, 'edge-dev.json');
  const dev = existsSync(devFile) ? (JSON.parse(readFileSync(devFile, 'utf8')) as { adminToken: string }) : { adminToken: newSecret() };
  writeFileSync(devFile, JSON.stringify(dev), { mode: 0o600 });
  let worker: LocalWorker = await startLocalWorker({ tls, adminToken: dev.adminToken });
  const port = Number(new URL(worker.url).port);
  const relay: TcpRelay | undefined = opts.relay ? await startTcpRelay(port) : undefined;
  const url = relay ? `https://127.0.0.1:${relay.port}` : worker.url;
  log(`edge (Worker under Miniflare) on ${url}`);
  const edgeFetch = fetchTrustingCa(ca);

  // Register the cluster (state lives only as long as this process; credentials are fresh each run).
  const created = await edgeFetch(`${worker.url}/admin/clusters`, {
    method: 'POST', headers: { authorization: `Bearer ${dev.adminToken}` }, body: JSON.stringify({ clusterId }),
  });
  if (created.status !== 201) throw new Error(`edge refused to register the cluster: ${created.status} ${await created.text()}`);
  const creds = (await created.json()) as { webhookSecret: string; syncToken: string };
  const edge: EdgeCredentials = { url, directUrl: worker.url, clusterId, syncToken: creds.syncToken, webhookSecret: creds.webhookSecret, caFile: pki.caCert, fetch: edgeFetch };

  // Deletion protection, decided from live LISTs (the same app on Node), under the cluster's secret.
  const liveCert = issueServingCert(pkiDir, 'live', ['localhost'], ['127.0.0.1']);
  const live = await startNodeServer({
    clusterId,
    registryJson: JSON.stringify([{ clusterId, webhookSecrets: [{ sha256: await sha256Hex(creds.webhookSecret) }], syncTokens: [] }]),
    tlsCert: readFileSync(liveCert.cert, 'utf8'), tlsKey: readFileSync(liveCert.key, 'utf8'), port: 0,
    kubeconfigPath: opts.kubeconfig, features: [deletionProtectionFeature],
    edge: { baseUrl: url, clusterId, syncToken: creds.syncToken, fetch: edgeFetch },
  });
  log(`validate-delete (live reads) on ${live.url}`);

  // CRDs first (a fresh cluster serves none of our kinds yet), then the state webhooks read, then
  // the webhooks themselves.
  const nameLabelKept = await serverKeepsNameLabel(kube);
  const clusterSide = (endpoints: ReturnType<typeof webhookEndpoints>, withCrds: boolean) =>
    renderClusterSide({
      baseUrl: url, clusterId, secret: creds.webhookSecret, caBundle: ca, endpoints, crds: withCrds ? crds : [], nameLabelKept,
      ...(endpoints.some((e) => e.path === 'validate-delete') ? { overrides: { 'validate-delete': { baseUrl: live.url, caBundle: ca } } } : {}),
    });
  await applyClusterSide(kube, clusterSide([], true), { log: opts.verbose ? log : undefined });
  const target = { baseUrl: url, clusterId, syncToken: creds.syncToken, fetch: edgeFetch };
  const pushStarted = Date.now();
  log(describePush(await pushCollections(target, (v, k, o) => kube.list(v, k, o), stateCollections(FEATURES)), Date.now() - pushStarted));

  // From here on webhooks call the edge: if this process dies without removing them, the guardian does.
  const guardian: ChildProcess | undefined = opts.guardian === false ? undefined : spawn(
    process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'scripts', 'webhook-guardian.ts'), opts.kubeconfig, url],
    { cwd: REPO_ROOT, detached: true, stdio: ['pipe', 'ignore', 'ignore'] },
  );
  guardian?.unref();
  // The Node loop below watches pods itself: no pods/status observer.
  const endpoints = withoutPodStatusObserver(webhookEndpoints(FEATURES));
  await applyClusterSide(kube, clusterSide(endpoints, false), { log: opts.verbose ? log : undefined });
  log(`cluster side installed: ${crds.length} CRDs, ${endpoints.length} webhook endpoints (${endpoints.map((e) => e.path).join(', ') || 'no feature registers one yet'})`);

  // /metrics, /readyz, /healthz of this process (the loop and validate-delete's server): KS_METRICS_PORT, any free port by default.
  const metricsPort = parseMetricsPort(process.env.KS_METRICS_PORT, 0);
  const metrics = metricsPort === 'off' ? undefined : await startMetricsListener(metricsPort, '127.0.0.1');
  if (metrics) log(`metrics on ${metrics.url}/metrics, readiness on ${metrics.url}/readyz`);

  const loop = new AbortController();
  // Every open watch (one per reconciled and trigger kind) listens for this abort while it is
  // open: dozens at once by design, not a leak.
  setMaxListeners(100, loop.signal);
  const running = reconcile(kube, {
    once: false, dryRun: false, resyncSeconds: opts.resyncSeconds, watch: true, signal: loop.signal,
    edge: { url, clusterId, syncToken: creds.syncToken, caFile: pki.caCert },
    verbose: opts.verbose, log: (m) => log(`reconcile: ${m}`), out: (m) => log(`reconcile: ${m}`), metricsPort: 'off',
  }).then(() => undefined);

  const restartEdge = async () => {
    const stub = async () => {
      const ns = await worker.mf.getDurableObjectNamespace('CLUSTERS');
      return ns.get(ns.idFromName(clusterId));
    };
    const route = CLUSTER_ROUTES.getCredentials;
    const registration = await (await stub()).fetch(`https://cluster${routePath('getCredentials')}`, { method: route.method });
    if (registration.status !== 200) throw new Error(`edge: cannot read the cluster's registration: ${registration.status}`);
    const held = await registration.text();
    await worker.dispose();
    worker = await startLocalWorker({ tls, adminToken: dev.adminToken, port });
    // What an operator re-registering the cluster does: its credentials again, nothing else.
    const put = CLUSTER_ROUTES.putCredentials;
    const restored = await (await stub()).fetch(`https://cluster${routePath('putCredentials')}`, { method: put.method, body: held, headers: { 'content-type': 'application/json' } });
    if (restored.status !== 201) throw new Error(`edge: cannot restore the cluster's registration: ${restored.status}`);
    log('edge restarted (state lost, cluster registration kept)');
  };

  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= (async () => {
    loop.abort();
    await running.catch((e: unknown) => log(`reconcile loop ended with ${String(e)}`));
    log('stopping: removing webhook configurations');
    await applyClusterSide(kube, clusterSide([], false));
    guardian?.stdin?.end('released\n');
    relay?.close();
    // The API server keeps connections open: don't let them hold the exit.
    await Promise.race([live.close(), new Promise((r) => setTimeout(r, 2000))]);
    await worker.dispose();
    await metrics?.close();
    kube.close();
  })());

  return {
    kubeconfig: opts.kubeconfig, kube, edge, running, restartEdge, stop, ...(metrics ? { metricsUrl: metrics.url } : {}),
    edgeReachable(reachable) {
      if (!relay) throw new Error('edgeReachable needs a system started with relay: true');
      relay.forward(reachable);
    },
  };
}
