// An e2e environment around the production Worker (Miniflare over HTTPS) registered as the test
// file's cluster: the webhooks of the given features installed (pod webhooks only for namespaces
// carrying the file's scope label), a fake kubelet, and `resync()` = `reconcile --once` with the
// edge (controllers, ledger resyncs, pushes). PUB and deletion protection tests share it.
import { inject, expect } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { startLocalWorker, type LocalWorker } from '../../../scripts/local-worker.js';
import { FakeKubelet } from '../../cluster/fake-kubelet.js';
import { webhookEndpoints } from '../../../src/registry.js';
import { POD_STATUS_OBSERVER } from '../../../src/admission/endpoints.js';
import type { Feature } from '../../../src/feature.js';
import { renderClusterSide } from '../../../src/install/render.js';
import { serverKeepsNameLabel } from '../../../src/install/server-version.js';
import { applyClusterSide, uninstallClusterSide } from '../../../src/install/apply.js';
import { reconcile } from '../../../src/cli/reconcile.js';
import type { EdgeTarget } from '../../../src/edge-state/push.js';
import type { KubeHttp, KubeObject } from '../../../src/kube/http.js';
import { isAlreadyExists } from '../../../src/kube/errors.js';
import { createNamespace, deleteNamespace, eventually, testKube, testKubeConfig } from './kube.js';
import { caPem, localServingCert, trustingFetch } from './tls.js';

export const PUB = { apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget' } as const;

export type Meta = { name: string; namespace?: string; uid?: string; generation?: number; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
export type Pod = V1Pod & KubeObject & { metadata: Meta };
export type PubStatus = {
  observedGeneration?: number; unavailableAllowed: number; currentAvailable: number; desiredAvailable: number; totalReplicas: number;
  disruptedPods?: Record<string, string>; unavailablePods?: Record<string, string>;
};
export type PubObj = KubeObject & { metadata: Meta; spec: Record<string, unknown>; status?: PubStatus };

export type EdgeEnv = {
  kube: KubeHttp;
  clusterId: string;
  ns: string;
  kubelet: FakeKubelet;
  worker: LocalWorker;
  edge: EdgeTarget;
  /** The cluster's path secret, to send reviews straight to the edge (the API server only logs their warnings). */
  webhookSecret: string;
  resync(): Promise<void>;
  createPub(name: string, spec: Record<string, unknown>, annotations?: Record<string, string>): Promise<PubObj>;
  createPod(name: string, labels: Record<string, string>, meta?: Partial<Meta> & { ownerReferences?: unknown[]; finalizers?: string[] }): Promise<Pod>;
  waitReady(names: readonly string[]): Promise<void>;
  pubStatus(name: string): Promise<PubStatus | undefined>;
  dispose(): Promise<void>;
};

export const isReady = (p: Pod): boolean => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** `name` names the cluster, the namespace prefix, the scope label and the fake nodes. */
export async function startEdgeEnv(name: string, features: readonly Feature[], opts: { workerBindings?: Record<string, string> } = {}): Promise<EdgeEnv> {
  const CLUSTER = `${name}-e2e`;
  const ADMIN = `${name}-admin`;
  const SCOPE_LABEL = `e2e.kruise-serverless.io/${name}`;
  const NODES = [`${name}-node-a`, `${name}-node-b`];
  const kc = testKubeConfig();
  const kube = await testKube();
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system' } }).catch((e: unknown) => {
    if (!isAlreadyExists(e)) throw e;
  });
  const ns = await createNamespace(kc, name, { [SCOPE_LABEL]: 'yes' });
  const kubelet = new FakeKubelet(kube, 100);
  await kubelet.addNodes(NODES.map((name) => ({ name })));
  kubelet.start();
  const worker = await startLocalWorker({ tls: localServingCert(`${name}-edge`), adminToken: ADMIN, ...(opts.workerBindings ? { bindings: opts.workerBindings } : {}) });
  const res = await trustingFetch(`${worker.url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ clusterId: CLUSTER }) });
  expect(res.status).toBe(201);
  const creds = (await res.json()) as { webhookSecret: string; syncToken: string };
  // Only this file's namespace sends pods (and their status) to the webhooks: other test files run their own pods.
  const scoped = { namespaceSelector: { matchLabels: { [SCOPE_LABEL]: 'yes' } } };
  const endpoints = webhookEndpoints(features);
  const overrides = Object.fromEntries(endpoints.filter((e) => e.path.endsWith('-pod') || e.path === POD_STATUS_OBSERVER).map((e) => [e.path, scoped]));
  await applyClusterSide(kube, renderClusterSide({ baseUrl: worker.url, clusterId: CLUSTER, secret: creds.webhookSecret, caBundle: caPem(), crds: [], endpoints, overrides, nameLabelKept: await serverKeepsNameLabel(kube) }));
  const edge: EdgeTarget = { baseUrl: worker.url, clusterId: CLUSTER, syncToken: creds.syncToken, fetch: trustingFetch };

  const env: EdgeEnv = {
    kube, clusterId: CLUSTER, ns, kubelet, worker, edge, webhookSecret: creds.webhookSecret,
    async resync() {
      const failures: string[] = [];
      const code = await reconcile(kube, {
        // Only the PUB reconciler: the others would act on earlier test files' leftovers. Every collection is pushed.
        once: true, dryRun: false, kind: 'PodUnavailableBudget', resyncSeconds: 0, watch: false, identity: `${CLUSTER}-${Math.random().toString(36).slice(2, 8)}`,
        edge: { url: worker.url, clusterId: CLUSTER, syncToken: creds.syncToken, caFile: inject('caCert') },
        log: () => undefined, out: (m) => failures.push(m),
      });
      expect(code, failures.join('\n')).toBe(0);
    },
    createPub: (name, spec, annotations) =>
      kube.create<PubObj>({ ...PUB, metadata: { name, namespace: ns, ...(annotations ? { annotations } : {}) }, spec }),
    createPod: async (name, labels, meta = {}) =>
      (await kube.create<KubeObject>({ apiVersion: 'v1', kind: 'Pod', metadata: { ...meta, name, namespace: ns, labels }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }], terminationGracePeriodSeconds: 5 } })) as Pod,
    async waitReady(names) {
      await eventually(`${names.length} ready pods`, async () => {
        const pods = await Promise.all(names.map((n) => kube.get<Pod>('v1', 'Pod', n, ns)));
        return pods.every(isReady) ? true : undefined;
      }, 60_000, 100);
    },
    async pubStatus(name) {
      return (await kube.get<PubObj>(PUB.apiVersion, PUB.kind, name, ns)).status;
    },
    async dispose() {
      await uninstallClusterSide(kube).catch(() => undefined);
      await kubelet.stop();
      // The file's own nodes too (added with env.kubelet.addNodes): with no kubelet behind them they
      // would take later files' pods and leave them Pending.
      await kubelet.removeAllNodes().catch(() => undefined);
      await deleteNamespace(kc, ns);
      await worker.dispose();
      kube.close();
    },
  };
  return env;
}
