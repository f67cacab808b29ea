// WorkloadSpread end to end on a real API server: the production Worker (Miniflare over HTTPS)
// places pods in subsets (one Durable Object ledger per WorkloadSpread decides), records their
// deletions and validates WorkloadSpreads; the reconcilers (`reconcile --once` with the edge)
// resync the ledgers, write status and deletion costs, and push what the webhooks read. The real
// kube-controller-manager creates and deletes the pods, the real kube-scheduler binds them to the
// fake kubelet's nodes, one per zone, so where a pod runs shows the subset it was given.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import type { V1Pod } from '@kubernetes/client-node';
import { startLocalWorker, type LocalWorker } from '../../scripts/local-worker.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { FakeKubelet } from '../cluster/fake-kubelet.js';
import { stateCollections, webhookEndpoints } from '../../src/registry.js';
import { workloadSpreadCollections, workloadSpreadFeature, WORKLOADSPREAD_LEDGER, type WorkloadSpreadLedger } from '../../src/workloadspread/index.js';
import { workloadSpreadReconcilerFor } from '../../src/workloadspread/controller/reconciler.js';
import { renderClusterSide } from '../../src/install/render.js';
import { applyClusterSide, uninstallClusterSide } from '../../src/install/apply.js';
import { reconcile } from '../../src/cli/reconcile.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { applyLedger, remoteLedgers } from '../../src/admission/ledger-client.js';
import { fetchTrustingCa } from '../../src/admission/ca-fetch.js';
import { pushCollections, type EdgeTarget } from '../../src/admission/push.js';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { isAlreadyExists } from '../../src/kube/errors.js';
import { createNamespace, deleteNamespace, eventually, testKube, testKubeConfig } from './support/kube.js';
import { caPem, localServingCert, trustingFetch } from './support/tls.js';
import './provided.js';

const kc = testKubeConfig();
const CLUSTER = 'workloadspread-e2e';
const ADMIN = 'workloadspread-admin';
const SCOPE_LABEL = 'e2e.kruise-serverless.io/workloadspread';
const ZONE = 'topology.kubernetes.io/zone';
const MATCHED = 'apps.kruise.io/matched-workloadspread';
const COST = 'controller.kubernetes.io/pod-deletion-cost';
const WS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread' };
const NODES = ['zone-a', 'zone-b', 'zone-c'].map((zone) => ({ name: `ws-${zone}`, labels: { [ZONE]: zone } }));

let kube: KubeHttp;
let worker: LocalWorker;
let kubelet: FakeKubelet;
let creds: { webhookSecret: string; syncToken: string };
let edge: EdgeTarget;
let ns = '';

type Meta = { name: string; namespace?: string; uid?: string; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string>; deletionTimestamp?: string; ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }[] };
type Pod = V1Pod & KubeObject & { metadata: Meta };
type Obj = KubeObject & { metadata: Meta; spec: Record<string, unknown>; status?: Record<string, unknown> };
type SubsetStatus = { name: string; replicas: number; missingReplicas: number; conditions?: { type: string; status: string }[] };

const seed = (file: string) => parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', file), 'utf8')) as Obj;

/** The reconcilers' full resync with the edge, as production runs it: controllers act (ledgers resynced), then every collection is pushed. */
async function resync(): Promise<void> {
  const code = await reconcile(kube, {
    once: true, dryRun: false, resyncSeconds: 0, watch: false, identity: 'workloadspread-e2e',
    edge: { url: worker.url, clusterId: CLUSTER, syncToken: creds.syncToken, caFile: inject('caCert') },
    log: () => undefined, out: () => undefined,
  });
  expect(code).toBe(0);
}

const container = { name: 'main', image: 'app:1' };
const template = (labels: Record<string, string>, extra: Record<string, unknown> = {}) => ({ metadata: { labels }, spec: { containers: [container], terminationGracePeriodSeconds: 0, ...extra } });
const deployment = (name: string, replicas: number, extra: Record<string, unknown> = {}): Obj => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: ns },
  spec: { replicas, selector: { matchLabels: { app: name } }, template: template({ app: name }), ...extra },
});
const replicaSet = (name: string, replicas: number, labels: Record<string, string> = { app: name }): Obj => ({
  apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: ns },
  spec: { replicas, selector: { matchLabels: labels }, template: template(labels) },
});
const zoneTerm = (zone: string) => ({ matchExpressions: [{ key: ZONE, operator: 'In', values: [zone] }] });
const spread = (name: string, targetRef: { apiVersion: string; kind: string; name: string }, subsets: Record<string, unknown>[], extra: Record<string, unknown> = {}): Obj => ({
  ...WS, metadata: { name, namespace: ns }, spec: { targetRef, subsets, ...extra },
});
const inZone = (zone: string, maxReplicas?: number | string) => ({ name: zone, requiredNodeSelectorTerm: zoneTerm(zone), ...(maxReplicas === undefined ? {} : { maxReplicas }) });

const create = <T extends Obj>(obj: T, namespace = ns) => kube.create<T>({ ...obj, metadata: { ...obj.metadata, namespace } });
const scale = (kind: string, name: string, replicas: number) => kube.patch({ apiVersion: 'apps/v1', kind, metadata: { name, namespace: ns } }, { spec: { replicas } });
const getWs = (name: string) => kube.get<Obj>(WS.apiVersion, WS.kind, name, ns);
const subsetStatuses = async (name: string) => ((await getWs(name)).status?.subsetStatuses ?? []) as SubsetStatus[];
const readLedger = (name: string) => applyLedger<WorkloadSpreadLedger | null>(edge, { kind: WORKLOADSPREAD_LEDGER, namespace: ns, name }, 'read');

const subsetOf = (p: Pod): string => {
  const raw = p.metadata.annotations?.[MATCHED];
  return raw ? (JSON.parse(raw) as { subset: string }).subset : '';
};
const zoneOf = (p: Pod) => NODES.find((n) => n.name === p.spec?.nodeName)?.labels[ZONE] ?? '';
const tally = (values: string[]) => values.reduce<Record<string, number>>((t, v) => ({ ...t, [v]: (t[v] ?? 0) + 1 }), {});
const ownedPods = async (selector: string) => (await kube.list<Pod>('v1', 'Pod', { namespace: ns, labelSelector: selector })).items;

/** Waits until exactly `n` pods match, none terminating and all bound to a node; returns them. */
async function settled(selector: string, n: number, timeoutMs = 90_000): Promise<Pod[]> {
  return eventually(`${n} scheduled pods with ${selector}`, async () => {
    const pods = await ownedPods(selector);
    return pods.length === n && pods.every((p) => !p.metadata.deletionTimestamp && p.spec?.nodeName) ? pods : undefined;
  }, timeoutMs, 250);
}

/** The split by the matched-workloadspread annotation and by the zone each pod runs in (they must agree). */
function split(pods: Pod[]): Record<string, number> {
  const bySubset = tally(pods.map(subsetOf));
  expect(tally(pods.map(zoneOf))).toEqual(bySubset);
  return bySubset;
}

beforeAll(async () => {
  kube = await testKube();
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system' } }).catch((e: unknown) => {
    if (!isAlreadyExists(e)) throw e;
  });
  ns = await createNamespace(kc, 'workloadspread', { [SCOPE_LABEL]: 'yes' });
  kubelet = new FakeKubelet(kube, 100);
  await kubelet.addNodes(NODES);
  kubelet.start();
  worker = await startLocalWorker({ tls: localServingCert('workloadspread-edge'), adminToken: ADMIN });
  const res = await trustingFetch(`${worker.url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ clusterId: CLUSTER }) });
  expect(res.status).toBe(201);
  creds = (await res.json()) as typeof creds;
  edge = { baseUrl: worker.url, clusterId: CLUSTER, syncToken: creds.syncToken, fetch: fetchTrustingCa(readFileSync(inject('caCert'), 'utf8')) };
  // Only this file's namespace sends pods to the pod webhooks: other test files run their own pods.
  const scoped = { namespaceSelector: { matchLabels: { [SCOPE_LABEL]: 'yes' } } };
  await applyClusterSide(kube, renderClusterSide({
    baseUrl: worker.url, clusterId: CLUSTER, secret: creds.webhookSecret, caBundle: caPem(), crds: [],
    endpoints: webhookEndpoints([workloadSpreadFeature]),
    overrides: { 'mutate-pod': scoped, 'validate-pod': scoped },
  }));
});

afterAll(async () => {
  await uninstallClusterSide(kube).catch(() => undefined);
  await deleteNamespace(kc, ns);
  await kubelet?.stop();
  await kubelet?.removeNodes(NODES.map((n) => n.name)).catch(() => undefined);
  await worker?.dispose();
  kube.close();
});

/** An AdmissionReview for a pod CREATE sent straight to the edge, to read the warnings the API server only logs. */
async function reviewPodCreate(pod: Record<string, unknown>): Promise<{ allowed: boolean; warnings?: string[]; patch?: string }> {
  const body = JSON.stringify({
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid: 'review-1', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
      namespace: ns, operation: 'CREATE', userInfo: { username: 'e2e' }, dryRun: false, object: pod,
    },
  });
  const res = await trustingFetch(`${worker.url}/clusters/${CLUSTER}/${creds.webhookSecret}/mutate-pod`, { method: 'POST', body });
  return ((await res.json()) as { response: { allowed: boolean; warnings?: string[]; patch?: string } }).response;
}

const ghostPod = (owner: { kind: string; name: string }) => ({
  apiVersion: 'v1', kind: 'Pod',
  metadata: { generateName: `${owner.name}-`, namespace: ns, labels: { app: owner.name }, ownerReferences: [{ apiVersion: 'apps/v1', ...owner, uid: 'ghost-uid', controller: true }] },
  spec: { containers: [container] },
});

describe('fallback: what a decision needs is missing', () => {
  it('WorkloadSpreads not pushed yet: a workload’s pods are admitted without a subset, with a warning (never refused)', async () => {
    // Everything else the production features read is there (SidecarSet injection refuses pods
    // without its state), only the WorkloadSpread collections are not.
    const others = stateCollections().filter((c) => !workloadSpreadCollections.some((w) => w.name === c.name));
    await pushCollections(edge, (v, k, o) => kube.list(v, k, o), others);
    const answer = await reviewPodCreate(ghostPod({ kind: 'ReplicaSet', name: 'early' }));
    expect(answer).toMatchObject({ allowed: true });
    expect(answer.patch).toBeUndefined();
    expect(answer.warnings?.join('\n')).toMatch(/workloadspread: pod .*placed in no subset: no WorkloadSpreads were pushed to the edge yet/);
    await create(replicaSet('early', 1));
    const [pod] = await settled('app=early', 1);
    expect(pod!.metadata.annotations?.[MATCHED]).toBeUndefined();
  });

  it('an owner the pushed state does not know yet: admitted without a subset, with a warning naming it', async () => {
    await resync();
    await create(spread('ghost', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ghost' }, [inZone('zone-a', 1), inZone('zone-b')]));
    await resync();
    // A ReplicaSet whose name does not say which Deployment made it, and that was never pushed.
    const answer = await reviewPodCreate(ghostPod({ kind: 'ReplicaSet', name: 'ghost' }));
    expect(answer).toMatchObject({ allowed: true });
    expect(answer.patch).toBeUndefined();
    expect(answer.warnings?.join('\n')).toMatch(/placed in no subset: workloadspread ghost: ReplicaSet ghost is not in the pushed state/);
  });
});

describe('a Deployment scaled 0 → 100 → 20 → 100 over subsets of 10 / 30 / the rest', () => {
  // Exactness needs only what the edge holds: the WorkloadSpread (pushed before the scale-up) and
  // its ledger, which serializes every placement. The Deployment's ReplicaSet may not have been
  // pushed yet when its pods arrive; the webhook infers the Deployment from the ReplicaSet's name
  // (`<deployment>-<pod-template-hash>`). Between phases the reconciler resyncs the ledger with the
  // pods it listed, as the production schedule does; placements made meanwhile are kept.
  const SELECTOR = 'app=web';

  it('places exactly 10 / 30 / 60, scales down from the last subsets first, and places exactly again', async () => {
    await create(spread('web', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, [inZone('zone-a', 10), inZone('zone-b', 30), inZone('zone-c')]));
    await create(deployment('web', 0));
    await resync();

    await scale('Deployment', 'web', 100);
    expect(split(await settled(SELECTOR, 100))).toEqual({ 'zone-a': 10, 'zone-b': 30, 'zone-c': 60 });

    await resync();
    const statuses = await subsetStatuses('web');
    expect(statuses.map((s) => [s.name, s.replicas, s.missingReplicas])).toEqual([['zone-a', 10, 0], ['zone-b', 30, 0], ['zone-c', 60, -1]]);
    // §3.5 deletion costs: within maxReplicas 100·(n−i), so the last subset goes first.
    const costs = tally((await ownedPods(SELECTOR)).map((p) => `${subsetOf(p)}=${p.metadata.annotations?.[COST]}`));
    expect(costs).toEqual({ 'zone-a=300': 10, 'zone-b=200': 30, 'zone-c=100': 60 });

    // Kubernetes 1.20's ReplicaSet controller predates pod-deletion-cost (alpha in 1.21, on by
    // default from 1.22): here the order comes from its "most pods of this workload on the node
    // first" rule, which with one node per subset agrees with the costs; from 1.22 the costs decide.
    await scale('Deployment', 'web', 20);
    expect(split(await settled(SELECTOR, 20))).toEqual({ 'zone-a': 10, 'zone-b': 10 });

    await resync();
    await scale('Deployment', 'web', 100);
    expect(split(await settled(SELECTOR, 100))).toEqual({ 'zone-a': 10, 'zone-b': 30, 'zone-c': 60 });
    await resync();
    expect((await subsetStatuses('web')).map((s) => s.replicas)).toEqual([10, 30, 60]);
  }, 300_000);
});
