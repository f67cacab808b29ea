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
import { workloadSpreadReconciler, workloadSpreadReconcilerFor } from '../../src/workloadspread/controller/reconciler.js';
import { renderClusterSide } from '../../src/install/render.js';
import { applyClusterSide, uninstallClusterSide } from '../../src/install/apply.js';
import { reconcile } from '../../src/cli/reconcile.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { cloneSetReconciler } from '../../src/cloneset/controller/reconciler.js';
import { applyLedger, remoteLedgers } from '../../src/edge-state/ledger-client.js';
import { fetchTrustingCa } from '../../src/edge-state/ca-fetch.js';
import { pushCollections, type EdgeTarget } from '../../src/edge-state/push.js';
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

/**
 * `reconcile --once --kind WorkloadSpread` with the edge, as production resyncs: the controller
 * acts (its ledgers resynced at the edge), then every collection is pushed. Only this reconciler:
 * the others act on what earlier test files left behind in the shared control plane.
 */
async function resync(): Promise<void> {
  const out: string[] = [];
  const code = await reconcile(kube, {
    once: true, dryRun: false, kind: 'WorkloadSpread', resyncSeconds: 0, watch: false, identity: 'workloadspread-e2e',
    edge: { url: worker.url, clusterId: CLUSTER, syncToken: creds.syncToken, caFile: inject('caCert') },
    log: () => undefined, out: (m) => out.push(m),
  });
  expect(code, out.join('\n')).toBe(0);
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

/**
 * The split by the matched-workloadspread annotation, checked against the zone each pod runs in
 * (subsets are named for their zone, the seeds' subset-a for zone-a).
 */
function split(pods: Pod[]): Record<string, number> {
  const bySubset = tally(pods.map(subsetOf));
  expect(tally(pods.map((p) => zoneOf(p).replace(/^zone-(?=[ab]$)/, subsetOf(p).startsWith('subset-') ? 'subset-' : 'zone-')))).toEqual(bySubset);
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
async function reviewPodCreate(pod: Record<string, unknown>): Promise<{ allowed: boolean; warnings?: string[]; patch?: string; status?: { code?: number; message?: string } }> {
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
    // Everything else the production features read is there, only the WorkloadSpread collections are not.
    const others = stateCollections().filter((c) => !workloadSpreadCollections.some((w) => w.name === c.name));
    await pushCollections(edge, (v, k, o) => kube.list(v, k, o), others);
    const answer = await reviewPodCreate(ghostPod({ kind: 'ReplicaSet', name: 'early' }));
    expect(answer).toMatchObject({ allowed: true });
    expect(answer.patch).toBeUndefined();
    expect(answer.warnings?.join('\n')).toMatch(/workloadspread: skipped: state collection "workloadspreads" is missing \(never synced for this cluster\)/);
    await create(replicaSet('early', 1));
    const [pod] = await settled('app=early', 1);
    expect(pod!.metadata.annotations?.[MATCHED]).toBeUndefined();
  });

  it('an owner that does not exist: refused with the API server\'s NotFound message, as OpenKruise (500)', async () => {
    await resync();
    await create(spread('ghost', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'ghost' }, [inZone('zone-a', 1), inZone('zone-b')]));
    // A ReplicaSet whose name does not say which Deployment made it, and that does not exist: the
    // edge's ReplicaSets take every create at once (the observer), so it is not merely unpushed.
    const answer = await reviewPodCreate(ghostPod({ kind: 'ReplicaSet', name: 'ghost' }));
    expect(answer).toMatchObject({ allowed: false, status: { code: 500, message: 'replicasets.apps "ghost" not found' } });
  });
});

describe('a Deployment scaled 0 → 100 → 20 → 100 over subsets of 10 / 30 / the rest', () => {
  beforeAll(resync); // the validation webhook reads pushed WorkloadSpreads
  // Exactness needs only what the edge holds: the WorkloadSpread (admitted just before) and its
  // ledger, which serializes every placement. The Deployment and its ReplicaSet reach the edge
  // through the observer as they are created (and were the observation lost, the webhook infers
  // the Deployment from the ReplicaSet's name, `<deployment>-<pod-template-hash>`). Between phases the reconciler resyncs the ledger with the
  // pods it listed, as the production schedule does; placements made meanwhile are kept.
  const SELECTOR = 'app=web';

  it('places exactly 10 / 30 / 60, scales down from the last subsets first, and places exactly again', async () => {
    await create(spread('web', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, [inZone('zone-a', 10), inZone('zone-b', 30), inZone('zone-c')]));
    // No resync between: the WorkloadSpread, the Deployment and its pods back to back.
    await create(deployment('web', 0));
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
    // This time the reconciler keeps resyncing the ledger while the pods arrive: a resync keeps
    // the placements its LIST did not see yet, so it never hands their room out again.
    let racing = true;
    const resyncs = (async () => {
      let midBurst = 0;
      while (racing) {
        const seen = (await ownedPods(SELECTOR)).length;
        const report = await runReconciler(kube, workloadSpreadReconciler, { scope: { kind: 'all' }, identity: 'workloadspread-e2e', ledgers: remoteLedgers(edge) });
        expect(report.failed).toEqual([]);
        if (seen > 20 && seen < 100) midBurst++;
      }
      return midBurst;
    })();
    await scale('Deployment', 'web', 100);
    const pods = await settled(SELECTOR, 100).finally(() => (racing = false));
    expect(await resyncs).toBeGreaterThan(0);
    expect(split(pods)).toEqual({ 'zone-a': 10, 'zone-b': 30, 'zone-c': 60 });
    await resync();
    expect((await subsetStatuses('web')).map((s) => s.replicas)).toEqual([10, 30, 60]);
    // Every placement is now counted from the pods themselves: no webhook entries are left.
    const ledger = await readLedger('web');
    expect(Object.values(ledger!.versions).flat().map((s) => [s.name, s.replicas, Object.keys(s.creatingPods).length, Object.keys(s.deletingPods).length]))
      .toEqual([['zone-a', 10, 0, 0], ['zone-b', 30, 0, 0], ['zone-c', 60, 0, 0]]);
  }, 300_000);
});

describe('a burst straight at the edge', () => {
  beforeAll(resync);
  // 300 pod reviews at once, more than the API server would send: every one is decided by the
  // ledger (no fallback warning), and the split is exact. (Sustained load is the benchmark's:
  // `bench:webhook workloadspread` fails on any admission the ledger did not place.)
  it('300 concurrent admissions over 10 / 30 / rest: all placed, exactly 10 / 30 / 260', async () => {
    await create(spread('burst', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'burst' }, [inZone('zone-a', 10), inZone('zone-b', 30), inZone('zone-c')]));
    // The pods' owner exists (no pods of its own); their ReplicaSet is known by its name only.
    await create(deployment('burst', 0));
    const pod = { ...ghostPod({ kind: 'ReplicaSet', name: 'burst-7d9c5b8f6' }), metadata: { ...ghostPod({ kind: 'ReplicaSet', name: 'burst-7d9c5b8f6' }).metadata, labels: { app: 'burst', 'pod-template-hash': '7d9c5b8f6' } } };
    const answers = await Promise.all(Array.from({ length: 300 }, () => reviewPodCreate(pod)));
    expect(answers.filter((a) => !a.allowed || a.warnings?.length)).toEqual([]);
    const subsets = answers.map((a) => /subset\\":\\"([^\\"]+)/.exec(Buffer.from(a.patch ?? '', 'base64').toString('utf8'))?.[1] ?? '');
    expect(tally(subsets)).toEqual({ 'zone-a': 10, 'zone-b': 30, 'zone-c': 260 });
  });
});

describe('the seeds’ WorkloadSpreads', () => {
  beforeAll(resync); // the validation webhook reads pushed WorkloadSpreads
  it('seed 004 int: the first 10 pods in subset-a, the rest in subset-b', async () => {
    const ws = seed('004-workloadspread-maxreplicas-int.yaml');
    await create(ws);
    await create(deployment('workload-xxx-int', 12));
    expect(split(await settled('app=workload-xxx-int', 12))).toEqual({ 'subset-a': 10, 'subset-b': 2 });
  });

  it('seed 004 percent: 30% of the Deployment’s replicas in subset-a (rounded up), the rest in subset-b', async () => {
    await create(seed('004-workloadspread-maxreplicas-percent.yaml'));
    // A percentage refers to the target's replicas as the edge last saw them: the observer
    // records the Deployment's 10 replicas when it is created, before any of its pods.
    await create(deployment('workload-xxx-percent', 10, { paused: true }));
    await kube.patch({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'workload-xxx-percent', namespace: ns } }, { spec: { paused: false } });
    expect(split(await settled('app=workload-xxx-percent', 10))).toEqual({ 'subset-a': 3, 'subset-b': 7 });
  });

  it('seed 000 adaptive: 3 pods in subset-a with its preferred term and patch label, the rest in subset-b', async () => {
    await create(seed('000-workloadspread-adaptive.yaml'));
    await create(deployment('workload-xxx', 5));
    const pods = await settled('app=workload-xxx', 5);
    expect(split(pods)).toEqual({ 'subset-a': 3, 'subset-b': 2 });
    for (const p of pods.filter((x) => subsetOf(x) === 'subset-a')) {
      expect(p.metadata.labels?.['xxx-specific-label']).toBe('xxx');
      expect(p.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.[0]?.preference.matchExpressions?.[0]?.key).toBe('another-node-label-key');
    }
    // Go JSON field order. A pod admitted before it had a name carries the key it was recorded
    // under; one placed in the unlimited subset-b is not recorded, so it carries none.
    const inA = pods.find((x) => subsetOf(x) === 'subset-a')!;
    const inB = pods.find((x) => subsetOf(x) === 'subset-b')!;
    expect(inA.metadata.annotations![MATCHED]).toMatch(/^\{"name":"workloadspread-demo","subset":"subset-a","uid":"[0-9a-f-]{36}"\}$/);
    expect(inB.metadata.annotations![MATCHED]).toBe('{"name":"workloadspread-demo","subset":"subset-b"}');
  });
});

describe('targets', () => {
  beforeAll(resync); // the validation webhook reads pushed WorkloadSpreads
  it('Job: parallel pods counted per subset (version ignored)', async () => {
    await create(spread('batch', { apiVersion: 'batch/v1', kind: 'Job', name: 'batch' }, [inZone('zone-a', 1), inZone('zone-b')]));
    await create({
      apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'batch', namespace: ns },
      spec: { parallelism: 3, completions: 3, template: template({ app: 'batch' }, { restartPolicy: 'Never' }) },
    });
    expect(split(await settled('app=batch', 3))).toEqual({ 'zone-a': 1, 'zone-b': 2 });
  });

  it('StatefulSet: by ordinal (0–1 zone-a, 2 zone-b, the rest zone-c), and a recreated pod keeps its subset', async () => {
    await create(spread('db', { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' }, [inZone('zone-a', 2), inZone('zone-b', 1), inZone('zone-c')]));
    await create({
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: ns },
      spec: { replicas: 4, serviceName: 'db', podManagementPolicy: 'Parallel', selector: { matchLabels: { app: 'db' } }, template: template({ app: 'db' }) },
    });
    const byName = async () => Object.fromEntries((await settled('app=db', 4)).map((p) => [p.metadata.name, [subsetOf(p), zoneOf(p)]]));
    const want = { 'db-0': ['zone-a', 'zone-a'], 'db-1': ['zone-a', 'zone-a'], 'db-2': ['zone-b', 'zone-b'], 'db-3': ['zone-c', 'zone-c'] };
    expect(await byName()).toEqual(want);
    const old = await kube.get<Pod>('v1', 'Pod', 'db-0', ns);
    await kube.delete(old);
    await eventually('db-0 recreated', async () => ((await kube.get<Pod>('v1', 'Pod', 'db-0', ns)).metadata.uid !== old.metadata.uid ? true : undefined));
    expect(await byName()).toEqual(want);
  });

  it('CloneSet (apps.kruise.io): the CloneSet controller’s pods are placed per subset', async () => {
    await create(spread('clones', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'clones' }, [inZone('zone-a', 1), inZone('zone-b')]));
    await create({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'clones', namespace: ns },
      spec: { replicas: 3, selector: { matchLabels: { app: 'clones' } }, template: template({ app: 'clones' }) },
    });
    await runReconciler(kube, cloneSetReconciler, { scope: { kind: 'objects', objects: [{ namespace: ns, name: 'clones' }] }, identity: 'workloadspread-e2e-clones' });
    expect(split(await settled('app=clones', 3))).toEqual({ 'zone-a': 1, 'zone-b': 2 });
  });
});

describe('bookkeeping', () => {
  beforeAll(resync); // the validation webhook reads pushed WorkloadSpreads
  it('ReplicaSet: a deleted pod gives its room back at once (the DELETE webhook records it; no resync needed)', async () => {
    await create(spread('keep', { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'keep' }, [inZone('zone-a', 2), inZone('zone-b')]));
    await create(replicaSet('keep', 2));
    const zoneA = async () => Object.values((await readLedger('keep'))!.versions)[0]!;
    // Deletes a pod and waits for the ReplicaSet's replacement: zone-a is full until the deletion
    // is recorded, so without it the replacement would go to zone-b.
    const replace = async (victim: Pod) => {
      await kube.delete(victim);
      const after = await eventually('the replacement', async () => {
        const now = await settled('app=keep', 2);
        return now.some((p) => p.metadata.name === victim.metadata.name) ? undefined : now;
      });
      expect(split(after)).toEqual({ 'zone-a': 2 });
      return after;
    };
    const first = await settled('app=keep', 2);
    expect(split(first)).toEqual({ 'zone-a': 2 });
    // Not yet counted by the controller: the deletion drops the pod's creation entry.
    const victimKey = (JSON.parse(first[0]!.metadata.annotations![MATCHED]!) as { uid: string }).uid;
    await replace(first[0]!);
    const [a] = await zoneA();
    expect(Object.keys(a!.creatingPods)).toHaveLength(2);
    expect(a!.creatingPods).not.toHaveProperty(victimKey);
    // Counted: the deletion is an entry until the controller sees the pod gone.
    await resync();
    const counted = await settled('app=keep', 2);
    await replace(counted[0]!);
    expect(Object.keys((await zoneA())[0]!.deletingPods)).toEqual([counted[0]!.metadata.name]);
  });

  it('a dry-run pod creation spends nothing and is not placed (OpenKruise skips dry runs)', async () => {
    const [sample] = await settled('app=keep', 2);
    const before = await readLedger('keep');
    const copy: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: '', generateName: 'keep-', namespace: ns, labels: sample!.metadata.labels, ownerReferences: sample!.metadata.ownerReferences }, spec: { containers: [container] } };
    const dry = await kube.create<Pod>(copy, { dryRun: 'All' });
    expect(dry.metadata.annotations?.[MATCHED]).toBeUndefined();
    expect(await readLedger('keep')).toEqual(before);
  });

  it('an eviction of a pushed pod is recorded: its room comes back at once, and the replacement takes it', async () => {
    await create(spread('evict', { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'evict' }, [inZone('zone-a', 2), inZone('zone-b')]));
    await create(replicaSet('evict', 2));
    await settled('app=evict', 2);
    await resync(); // the controller has counted both pods, and the pods are pushed (workloadspread-pods)
    const [victim] = await settled('app=evict', 2);
    const name = victim!.metadata.name;
    await kube.request('POST', `/api/v1/namespaces/${ns}/pods/${name}/eviction`, { body: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name, namespace: ns } } });
    // The eviction names the pod only; its subset came from the pushed pods, so zone-a has room
    // again before the ReplicaSet's replacement is created (as OpenKruise records evictions).
    const after = await eventually('the replacement', async () => {
      const now = await settled('app=evict', 2);
      return now.some((p) => p.metadata.name === name) ? undefined : now;
    });
    expect(split(after)).toEqual({ 'zone-a': 2 });
    await resync();
    await scale('ReplicaSet', 'evict', 3);
    expect(split(await settled('app=evict', 3))).toEqual({ 'zone-a': 2, 'zone-b': 1 });
  });

  it('a status another writer records before our controller’s first run decides the next pod, with no push between (OpenKruise’s webhook reads status)', async () => {
    await create(spread('theirs', { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'theirs' }, [inZone('zone-a', 2), inZone('zone-b')]));
    await create(replicaSet('theirs', 1, { app: 'theirs', 'pod-template-hash': 'h1' }));
    const [first] = await settled('app=theirs', 1);
    expect(subsetOf(first!)).toBe('zone-a');
    // Another writer (OpenKruise's controller beside ours, say) counted two pods in zone-a: full.
    await kube.patch({ ...WS, metadata: { name: 'theirs', namespace: ns } }, { status: { observedGeneration: 1, versionedSubsetStatuses: {
      h1: [{ name: 'zone-a', replicas: 2, missingReplicas: 0 }, { name: 'zone-b', replicas: 0, missingReplicas: -1 }],
    } } }, 'merge', 'status', { fieldManager: 'kruise-manager' });
    await scale('ReplicaSet', 'theirs', 2);
    const pods = await settled('app=theirs', 2);
    expect(subsetOf(pods.find((p) => p.metadata.name !== first!.metadata.name)!)).toBe('zone-b');
  });

  it('targetFilter: only the pods its selector picks are placed', async () => {
    const filter = { targetFilter: { selector: { matchLabels: { spread: 'yes' } } } };
    await create(spread('filter-in', { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'filter-in' }, [inZone('zone-a', 1), inZone('zone-b')], filter));
    await create(spread('filter-out', { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'filter-out' }, [inZone('zone-a', 1), inZone('zone-b')], filter));
    await create(replicaSet('filter-in', 2, { app: 'filter-in', spread: 'yes' }));
    await create(replicaSet('filter-out', 2, { app: 'filter-out', spread: 'no' }));
    expect(split(await settled('app=filter-in', 2))).toEqual({ 'zone-a': 1, 'zone-b': 1 });
    expect((await settled('app=filter-out', 2)).map(subsetOf)).toEqual(['', '']);
  });
});

describe('pods that existed before the WorkloadSpread', () => {
  beforeAll(resync); // the validation webhook reads pushed WorkloadSpreads
  const zonesWithPatch = NODES.map((n) => n.labels[ZONE]).map((zone) => ({ ...inZone(zone), patch: { metadata: { labels: { 'spread-zone': zone } } } }));

  it.each([
    ['are matched to the subset of their node, with the subset patch\'s metadata', 'legacy', {}, true],
    ['with ignore-patch-existing-pods-metadata: "true", get only the annotation', 'legacy-bare', { 'workloadspread.kruise.io/ignore-patch-existing-pods-metadata': 'true' }, false],
  ])('%s', async (_name, name, annotations, labelled) => {
    await create(replicaSet(name, 3));
    const before = await settled(`app=${name}`, 3);
    expect(before.map(subsetOf)).toEqual(['', '', '']);
    const ws = spread(name, { apiVersion: 'apps/v1', kind: 'ReplicaSet', name }, zonesWithPatch);
    await create({ ...ws, metadata: { ...ws.metadata, annotations } });
    await resync();
    const after = await ownedPods(`app=${name}`);
    expect(after.map((p) => p.metadata.name).sort()).toEqual(before.map((p) => p.metadata.name).sort());
    for (const p of after) {
      expect(subsetOf(p)).toBe(zoneOf(p));
      expect(p.metadata.labels?.['spread-zone']).toBe(labelled ? zoneOf(p) : undefined);
    }
    const statuses = await subsetStatuses(name);
    expect(statuses.reduce((n, s) => n + s.replicas, 0)).toBe(3);
  });
});

describe('Adaptive', () => {
  beforeAll(resync); // the validation webhook reads pushed WorkloadSpreads
  const CRITICAL_S = 3;
  const RECOVER_MS = 12_000;
  // The production reconciler with OpenKruise's 5-minute recovery shortened for the test.
  const adaptiveResync = async () => {
    const report = await runReconciler(kube, workloadSpreadReconcilerFor({ recoverAfterMs: RECOVER_MS }), { scope: { kind: 'all' }, identity: 'workloadspread-e2e', ledgers: remoteLedgers(edge) });
    expect(report.failed).toEqual([]);
  };
  const condition = async () => (await subsetStatuses('flex')).find((s) => s.name === 'zone-x')?.conditions?.find((c) => c.type === 'Schedulable')?.status;

  it('pods the scheduler cannot place are rescheduled into the next subset; the subset recovers later', async () => {
    await create(spread('flex', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'flex' }, [inZone('zone-x', 2), inZone('zone-b')], {
      scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: CRITICAL_S } },
    }));
    await create(deployment('flex', 2));
    // No node is in zone-x: the real scheduler marks both pods Unschedulable.
    await eventually('2 unschedulable pods in zone-x', async () => {
      const pods = await ownedPods('app=flex');
      const stuck = pods.filter((p) => subsetOf(p) === 'zone-x' && p.status?.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'Unschedulable'));
      return stuck.length === 2 ? true : undefined;
    });
    const pods = await eventually('both pods rescheduled into zone-b', async () => {
      await adaptiveResync();
      const now = await ownedPods('app=flex');
      return now.length === 2 && now.every((p) => subsetOf(p) === 'zone-b' && p.spec?.nodeName && !p.metadata.deletionTimestamp) ? now : undefined;
    }, 60_000, 1_000);
    expect(split(pods)).toEqual({ 'zone-b': 2 });
    expect(await condition()).toBe('False');

    await eventually('zone-x schedulable again', async () => {
      await adaptiveResync();
      return (await condition()) === 'True' ? true : undefined;
    }, RECOVER_MS + 30_000, 1_000);
    // Given another chance, zone-x takes the next pod again (and would give it up again).
    await scale('Deployment', 'flex', 3);
    const third = await eventually('a third pod', async () => {
      const now = await ownedPods('app=flex');
      return now.length === 3 ? now.find((p) => subsetOf(p) !== 'zone-b') : undefined;
    });
    expect(subsetOf(third)).toBe('zone-x');
  }, 120_000);
});

describe('validation webhook', () => {
  beforeAll(resync); // the validation webhook reads pushed WorkloadSpreads
  const target = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'validated' };
  it.each([
    ['another WorkloadSpread already targets the workload', spread('clash', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, [inZone('zone-a')]), /ws.spec.targetRef is in conflict with other WorkloadSpread web/],
    ['a targetRef kind from the wrong group', spread('bad-group', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'Deployment', name: 'x' }, [inZone('zone-a')]), /TargetReference is not valid for Deployment\./],
    ['a targetRef kind not permitted', spread('bad-kind', { apiVersion: 'v1', kind: 'Service', name: 'x' }, [inZone('zone-a')]), /TargetReference's GroupKind is not permitted\./],
    ['duplicated subset names', spread('dup', target, [inZone('zone-a', 1), inZone('zone-a')]), /duplicated subset name zone-a/],
    ['int and percent maxReplicas mixed', spread('mixed', target, [inZone('zone-a', 1), inZone('zone-b', '50%')]), /the maxReplicas type of all subsets must be the same/],
    ['percentages over 100%', spread('over', target, [inZone('zone-a', '60%'), inZone('zone-b', '50%'), inZone('zone-c')]), /the sum of all subset's maxReplicas exceeds 100% is no permitted/],
    ['percentages under 100% with a limited last subset', spread('under', target, [inZone('zone-a', '30%'), inZone('zone-b', '30%')]), /maxReplicas sum of all subsets must equal 100% when type is specified as percent/],
    ['a percentage for a StatefulSet', spread('sts-pct', { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'x' }, [inZone('zone-a', '50%'), inZone('zone-b')]), /the maxReplicas type must be Int for StatefulSet/],
    ['Adaptive with a limited last subset', spread('adaptive-last', target, [inZone('zone-a', 1), inZone('zone-b', 1)], { scheduleStrategy: { type: 'Adaptive', adaptive: {} } }), /the last subset must be not specified when using adaptive scheduleStrategy/],
    ['rescheduleCriticalSeconds too long', spread('too-long', target, [inZone('zone-a', 1), inZone('zone-b')], { scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 296 } } }), /rescheduleCriticalSeconds < 0 or rescheduleCriticalSeconds > 295 is not permitted/],
  ])('refuses %s', async (_name, obj, message) => {
    await expect(create(obj)).rejects.toThrow(message);
  });

  it('refuses a targetRef change', async () => {
    const ws = await create(spread('immutable', target, [inZone('zone-a', 1), inZone('zone-b')]));
    await expect(kube.patch(ws, { spec: { targetRef: { ...target, name: 'other' } } })).rejects.toThrow(/change TargetReference is not permitted for WorkloadSpread/);
  });
});
