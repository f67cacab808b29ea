// UnitedDeployment end to end on a real API server, kube-scheduler and kube-controller-manager,
// with fake nodes in three zones (label `node: zone-a|b|c`, as seed 000's subsets select) and a
// fake kubelet. Its webhooks run on the production Worker; its controller, and the CloneSet and
// Advanced StatefulSet controllers that run its CloneSet and Advanced StatefulSet subsets, on one
// Node loop (watches as triggers, the full resync set to an hour so nothing here waits for it).
// Native StatefulSet and Deployment subsets are run by kube-controller-manager. Users' steps
// follow each other with no sleep; tests wait with `eventually`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cloneSetFeature } from '../../src/cloneset/index.js';
import { cloneSetReconciler } from '../../src/cloneset/controller/reconciler.js';
import { statefulSetFeature } from '../../src/statefulset/index.js';
import { statefulSetReconciler } from '../../src/statefulset/controller/reconciler.js';
import { unitedDeploymentFeature } from '../../src/uniteddeployment/index.js';
import { unitedDeploymentReconciler } from '../../src/uniteddeployment/controller/reconciler.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { Reconciler } from '../../src/reconcile/types.js';
import type { KubeObject } from '../../src/kube/http.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { startEdgeEnv, isReady, type EdgeEnv, type Pod } from './support/edge-env.js';
import { attempt, eventually, kubectl } from './support/kube.js';

const UD = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment' } as const;
const SUBSET = 'apps.kruise.io/subset-name';
const REVISION = 'apps.kruise.io/controller-revision-hash';
const ZONES = ['zone-a', 'zone-b', 'zone-c'] as const;

type Obj = KubeObject & {
  metadata: { name: string; namespace?: string; uid?: string; generateName?: string; labels?: Record<string, string>; annotations?: Record<string, string>; ownerReferences?: { kind?: string; name?: string; controller?: boolean }[]; deletionTimestamp?: string };
  spec: Record<string, any>;
  status?: Record<string, any>;
};

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;
const zoneOfNode = new Map<string, string>();

beforeAll(async () => {
  env = await startEdgeEnv('ud', [unitedDeploymentFeature, cloneSetFeature, statefulSetFeature]);
  const nodes = ZONES.flatMap((z) => [1, 2].map((i) => ({ name: `ud-${z}-${i}`, labels: { node: z } })));
  for (const n of nodes) zoneOfNode.set(n.name, n.labels.node);
  await env.kubelet.addNodes(nodes);
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [unitedDeploymentReconciler, cloneSetReconciler, statefulSetReconciler] as Reconciler[], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `ud-loop-${r.kind}-${scope.kind}` }),
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.dispose();
});

const seed = (): Obj => {
  const obj = parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', '000-uniteddeployment-statefulset-subsets.yaml'), 'utf8')) as Obj;
  return { ...obj, metadata: { ...obj.metadata, namespace: env.ns } };
};
const ref = (name: string): KubeObject => ({ ...UD, metadata: { name, namespace: env.ns } });
const ud = (name: string) => env.kube.get<Obj>(UD.apiVersion, UD.kind, name, env.ns);
const patchUd = (name: string, patch: unknown) => env.kube.patch(ref(name), patch);

/** The subset workloads of a UnitedDeployment, by subset. */
async function workloads(name: string, apiVersion: string, kind: string): Promise<Map<string, Obj[]>> {
  const items = (await env.kube.list<Obj>(apiVersion, kind, { namespace: env.ns, labelSelector: SUBSET })).items.filter(
    (w) => !w.metadata.deletionTimestamp && w.metadata.ownerReferences?.some((o) => o.controller && o.kind === 'UnitedDeployment' && o.name === name),
  );
  const out = new Map<string, Obj[]>();
  for (const w of items) out.set(w.metadata.labels![SUBSET]!, [...(out.get(w.metadata.labels![SUBSET]!) ?? []), w]);
  return out;
}
const podsOf = async (selector: string) => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: selector })).items.filter((p) => !p.metadata.deletionTimestamp);
const zoneOf = (p: Pod) => zoneOfNode.get(p.spec?.nodeName ?? '') ?? '(none)';
const dump = async (name: string, selector: string) =>
  `${(await podsOf(selector)).map((p) => `${p.metadata.name} ${p.metadata.labels?.[SUBSET]} ${p.metadata.labels?.[REVISION]} ${p.status?.phase} ${zoneOf(p)} ready=${isReady(p)}`).join('\n')}\n${JSON.stringify((await ud(name)).status)}`;
const waitStatus = (name: string, selector: string, what: string, ok: (u: Obj) => boolean, ms = 60_000) =>
  eventually(`${name}: ${what}`, async () => {
    const u = await ud(name);
    return ok(u) ? u : undefined;
  }, ms, 50).catch(async (e: unknown) => {
    throw new Error(`${String(e)}\n${await dump(name, selector)}`);
  });
const eventsOf = async (name: string) =>
  (await env.kube.list<KubeObject & { reason?: string; message?: string; involvedObject?: { name?: string; kind?: string } }>('v1', 'Event', { namespace: env.ns })).items.filter(
    (e) => e.involvedObject?.kind === 'UnitedDeployment' && e.involvedObject.name === name,
  );
const counts = (pods: readonly Pod[], key: (p: Pod) => string) => {
  const out: Record<string, number> = {};
  for (const p of pods) out[key(p)] = (out[key(p)] ?? 0) + 1;
  return out;
};

describe('seed 000 §5.1: sample-ud, three StatefulSet subsets', () => {
  const sel = 'app=sample';
  it('creates one StatefulSet per subset, named <ud>-<subset>-…, labelled, selecting its subset, placed in its zone, owned; replicas 1 / 50% (3) / the rest (2)', async () => {
    await env.kube.create(seed());
    const sets = await eventually('three StatefulSets', async () => {
      const m = await workloads('sample-ud', 'apps/v1', 'StatefulSet');
      return m.size === 3 ? m : undefined;
    });
    const u = await ud('sample-ud');
    for (const [subset, replicas] of [['subset-a', 1], ['subset-b', 3], ['subset-c', 2]] as const) {
      const [sts, ...more] = sets.get(subset)!;
      expect(more).toEqual([]);
      expect(sts!.metadata.generateName).toBe(`sample-ud-${subset}-`);
      expect(sts!.metadata.name).toMatch(new RegExp(`^sample-ud-${subset}-[a-z0-9]{5}$`));
      expect(sts!.metadata.labels).toMatchObject({ app: 'sample', [SUBSET]: subset, [REVISION]: expect.stringMatching(/^sample-ud-/) });
      expect(sts!.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'UnitedDeployment', name: 'sample-ud', uid: u.metadata.uid, controller: true })]);
      expect(sts!.spec.replicas).toBe(replicas);
      expect(sts!.spec.selector).toEqual({ matchLabels: { app: 'sample', [SUBSET]: subset } });
      expect(sts!.spec.updateStrategy).toMatchObject({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
      expect(sts!.spec.template.metadata.labels).toMatchObject({ app: 'sample', [SUBSET]: subset });
      expect(sts!.spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
        { matchExpressions: [{ key: 'node', operator: 'In', values: [`zone-${subset.slice(-1)}`] }] },
      ]);
    }
    const done = await waitStatus('sample-ud', sel, 'six pods ready', (x) => x.status?.readyReplicas === 6 && x.status?.updatedReplicas === 6 && x.status?.replicas === 6);
    expect(done.status!.subsetReplicas).toEqual({ 'subset-a': 1, 'subset-b': 3, 'subset-c': 2 });
    expect(done.status!.currentRevision).toBe(done.status!.updateStatus.updatedRevision);
    expect(done.status!.updateStatus.currentPartitions).toEqual({ 'subset-a': 0, 'subset-b': 0, 'subset-c': 0 });
    expect(done.status!.labelSelector).toBe('app=sample');
    expect(done.status!.conditions.map((c: { type: string; status: string }) => `${c.type}=${c.status}`).sort()).toEqual(['SubsetProvisioned=True', 'SubsetUpdated=True', 'UnitedDeploymentUpdated=True']);
    const pods = await podsOf(sel);
    expect(counts(pods, (p) => `${p.metadata.labels![SUBSET]}@${zoneOf(p)}`)).toEqual({ 'subset-a@zone-a': 1, 'subset-b@zone-b': 3, 'subset-c@zone-c': 2 });
    expect((await eventsOf('sample-ud')).map((e) => `${e.reason}: ${e.message}`)).toContain('SuccessfulUpdateSubset: Create 3 Subset (StatefulSet)');
    const table = await kubectl('get', 'ud', 'sample-ud', '-n', env.ns);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+UPDATED\s+READY\s+AGE$/);
    expect(table.split('\n')[1]).toMatch(/^sample-ud\s+6\s+6\s+6\s+6\s+/);
  });

  it('§5.1.1: a partition holds back that subset; a template change rolls every other subset; partition 0 finishes it', async () => {
    const before = (await ud('sample-ud')).status!.currentRevision as string;
    await patchUd('sample-ud', { spec: { updateStrategy: { manualUpdate: { partitions: { 'subset-b': 2 } } } } });
    await eventually('subset-b partition 2', async () => ((await workloads('sample-ud', 'apps/v1', 'StatefulSet')).get('subset-b')?.[0]?.spec.updateStrategy.rollingUpdate.partition === 2 ? true : undefined));
    await patchUd('sample-ud', { spec: { template: { statefulSetTemplate: { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } } } } } });
    const held = await waitStatus('sample-ud', sel, 'four pods updated (subset-b keeps ordinals 0 and 1)', (x) => x.status?.updatedReplicas === 4 && x.status?.readyReplicas === 6 && x.status?.updateStatus?.updatedRevision !== before);
    const updated = held.status!.updateStatus.updatedRevision as string;
    expect(held.status!.currentRevision).toBe(before);
    expect(held.status!.updateStatus.currentPartitions).toEqual({ 'subset-a': 0, 'subset-b': 2, 'subset-c': 0 });
    const sets = await workloads('sample-ud', 'apps/v1', 'StatefulSet');
    for (const [, [sts]] of sets) {
      expect(sts!.metadata.labels![REVISION]).toBe(updated);
      expect(sts!.spec.template.spec.containers[0].image).toBe('nginx:1.25');
    }
    const pods = await podsOf(sel);
    const b = sets.get('subset-b')![0]!.metadata.name;
    expect(pods.filter((p) => p.metadata.labels![REVISION] !== updated).map((p) => p.metadata.name).sort()).toEqual([`${b}-0`, `${b}-1`]);
    const updatedCondition = (x: Obj) => x.status?.conditions?.find((c: { type: string }) => c.type === 'UnitedDeploymentUpdated');
    expect(updatedCondition(held)).toMatchObject({ status: 'False', reason: 'UnitedDeploymentRevisionUpdating', message: `updating to revision ${updated}` });
    await patchUd('sample-ud', { spec: { updateStrategy: { manualUpdate: { partitions: { 'subset-b': 0 } } } } });
    const done = await waitStatus('sample-ud', sel, 'all six updated, current revision moved, condition Updated', (x) => x.status?.updatedReplicas === 6 && x.status?.readyReplicas === 6 && x.status?.currentRevision === updated && updatedCondition(x)?.status === 'True');
    expect(updatedCondition(done)).toMatchObject({ status: 'True', reason: 'UnitedDeploymentRevisionUpdated', message: `updated to revision ${updated}` });
  });

  it('adding a subset creates its StatefulSet and re-splits the rest; removing one deletes it', async () => {
    await patchUd('sample-ud', {
      spec: {
        topology: {
          subsets: [
            ...seed().spec.topology.subsets,
            { name: 'subset-d', nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-a'] }] } },
          ],
        },
      },
    });
    const split = await waitStatus('sample-ud', sel, 'c and d share the rest', (x) => x.status?.subsetReplicas?.['subset-d'] === 1 && x.status?.readyReplicas === 6);
    expect(split.status!.subsetReplicas).toEqual({ 'subset-a': 1, 'subset-b': 3, 'subset-c': 1, 'subset-d': 1 });
    expect([...(await workloads('sample-ud', 'apps/v1', 'StatefulSet')).keys()].sort()).toEqual(['subset-a', 'subset-b', 'subset-c', 'subset-d']);
    const subsets = seed().spec.topology.subsets.filter((s: { name: string }) => s.name !== 'subset-c');
    await patchUd('sample-ud', { spec: { topology: { subsets: [...subsets, { name: 'subset-d', nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-a'] }] } }] }, updateStrategy: { manualUpdate: { partitions: null } } } });
    await eventually('subset-c StatefulSet gone', async () => ((await workloads('sample-ud', 'apps/v1', 'StatefulSet')).has('subset-c') ? undefined : true));
    const after = await waitStatus('sample-ud', sel, 'd takes the rest', (x) => x.status?.subsetReplicas?.['subset-d'] === 2 && x.status?.readyReplicas === 6 && x.status?.replicas === 6);
    expect(after.status!.subsetReplicas).toEqual({ 'subset-a': 1, 'subset-b': 3, 'subset-d': 2 });
    // subset-c's pods go with its StatefulSet (garbage collection, in the background).
    await eventually('pods: a 1, b 3, d 2', async () => (JSON.stringify(counts(await podsOf(sel), (p) => p.metadata.labels![SUBSET]!)) === JSON.stringify({ 'subset-a': 1, 'subset-b': 3, 'subset-d': 2 }) ? true : undefined));
    expect((await eventsOf('sample-ud')).map((e) => `${e.reason}: ${e.message}`)).toEqual(expect.arrayContaining(['SuccessfulUpdateSubset: Create 1 Subset (StatefulSet)', 'SuccessfulUpdateSubset: Delete 1 Subset (StatefulSet)']));
  });

  it('runs racing the Node loop on a new UnitedDeployment never make a second workload for a subset (deterministic names)', async () => {
    const app = { matchLabels: { app: 'ud-double' } };
    await env.kube.create({
      ...UD, metadata: { name: 'ud-double', namespace: env.ns },
      spec: {
        replicas: 2, selector: app,
        template: { deploymentTemplate: { metadata: { labels: { app: 'ud-double' } }, spec: { selector: app, template: { metadata: { labels: { app: 'ud-double' } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } } } } },
        topology: { subsets: [{ name: 'a', nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-a'] }] } }, { name: 'b', nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-b'] }] } }] },
      },
    });
    const scope = { kind: 'objects' as const, objects: [{ namespace: env.ns, name: 'ud-double' }] };
    await Promise.all([1, 2, 3].map((i) => runReconciler(env.kube, unitedDeploymentReconciler as Reconciler, { scope, identity: `ud-double-${i}` })));
    await waitStatus('ud-double', 'app=ud-double', 'two ready', (x) => x.status?.readyReplicas === 2);
    const deps = await workloads('ud-double', 'apps/v1', 'Deployment');
    expect([...deps].map(([s, ws]) => `${s}:${ws.length}`).sort()).toEqual(['a:1', 'b:1']);
  });
});

describe('the validating webhook', () => {
  const base = (): Obj => ({ ...seed(), metadata: { name: 'bad', namespace: env.ns } });
  const withSubsets = (subsets: unknown[], extra: Record<string, unknown> = {}): Obj => {
    const b = base();
    return { ...b, spec: { ...b.spec, ...extra, topology: { subsets } } };
  };
  const zone = (z: string) => ({ matchExpressions: [{ key: 'node', operator: 'In', values: [z] }] });

  it('refuses subset replicas that sum beyond spec.replicas, or short of it when all are given', async () => {
    const over = withSubsets([{ name: 'a', nodeSelectorTerm: zone('zone-a'), replicas: 4 }, { name: 'b', nodeSelectorTerm: zone('zone-b'), replicas: '50%' }], { updateStrategy: {} });
    expect(await attempt(env.kube.create(over))).toMatch(/^422 .*spec\.topology\.subsets: Invalid value: 7: sum of indicated subset replicas 7 should not be greater than UnitedDeployment replicas 6/);
    const short = withSubsets([{ name: 'a', nodeSelectorTerm: zone('zone-a'), replicas: 1 }, { name: 'b', nodeSelectorTerm: zone('zone-b'), replicas: 2 }], { updateStrategy: {} });
    expect(await attempt(env.kube.create(short))).toMatch(/if replicas of all subsets are provided, the sum of indicated subset replicas 3 should equal UnitedDeployment replicas 6/);
  });

  it('refuses a bad percentage, replicas mixed with min/max, fixed replicas under Adaptive, and partitions of unknown subsets', async () => {
    expect(await attempt(env.kube.create(withSubsets([{ name: 'a', replicas: '120%' }, { name: 'b' }], { updateStrategy: {} })))).toMatch(/spec\.topology\.subsets\[0\]\.replicas: Invalid value: .*subset replicas \(120%\) should be in range \[0, 100\]/);
    expect(await attempt(env.kube.create(withSubsets([{ name: 'a', replicas: 1 }, { name: 'b', minReplicas: 1 }], { updateStrategy: {} })))).toMatch(/subset\.Replicas and subset\.MinReplicas\/subset\.MaxReplicas are mutually exclusive in a UnitedDeployment/);
    const adaptive = withSubsets([{ name: 'a', replicas: 1 }, { name: 'b' }], { updateStrategy: {} });
    adaptive.spec.topology.scheduleStrategy = { type: 'Adaptive' };
    expect(await attempt(env.kube.create(adaptive))).toMatch(/spec\.topology\.subsets\[0\]\.replicas: Forbidden: specify replicas use minReplicas\/maxReplicas to enable adaptive strategy/);
    expect(await attempt(env.kube.create(withSubsets([{ name: 'a', minReplicas: 1, maxReplicas: 2 }, { name: 'b', maxReplicas: 3 }], { updateStrategy: {} })))).toMatch(/at least one subset\.maxReplicas must be empty/);
    expect(await attempt(env.kube.create(withSubsets([{ name: 'a' }, { name: 'b' }], { updateStrategy: { manualUpdate: { partitions: { z: 1 } } } })))).toMatch(/spec\.updateStrategy\.manualUpdate\.partitions: Invalid value: map\[string\]int32\{"z":1\}: subset z does not exist/);
  });

  it("refuses a change of a subset's nodeSelectorTerm", async () => {
    const u = await ud('sample-ud');
    const subsets = u.spec.topology.subsets.map((s: { name: string }) => (s.name === 'subset-a' ? { ...s, nodeSelectorTerm: zone('zone-b') } : s));
    expect(await attempt(patchUd('sample-ud', { spec: { topology: { subsets } } }))).toMatch(/^422 .*spec\.topology\.subsets\[0\]\.nodeSelectorTerm: Forbidden: may not be changed in an update/);
  });
});

describe('CloneSet subsets (our CloneSet controller): minReplicas/maxReplicas, patch, tolerations, template affinity', () => {
  const sel = 'app=ud-cs';
  const cs = (): Obj => ({
    ...UD,
    metadata: { name: 'ud-cs', namespace: env.ns },
    spec: {
      replicas: 5,
      selector: { matchLabels: { app: 'ud-cs' } },
      template: {
        cloneSetTemplate: {
          metadata: { labels: { app: 'ud-cs' } },
          spec: {
            selector: { matchLabels: { app: 'ud-cs' } },
            template: {
              metadata: { labels: { app: 'ud-cs' } },
              spec: {
                containers: [{ name: 'main', image: 'app:1', env: [{ name: 'A', value: '1' }] }],
                affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }] }] } } },
              },
            },
          },
        },
      },
      topology: {
        subsets: [
          {
            name: 'a', minReplicas: 1, maxReplicas: 2,
            nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-a'] }] },
            tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'a', effect: 'NoSchedule' }],
            patch: { metadata: { labels: { zone: 'a' } }, spec: { containers: [{ name: 'main', env: [{ name: 'ZONE', value: 'a' }] }] } },
          },
          { name: 'b', minReplicas: 1, nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-b'] }] } },
          { name: 'c', nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-c'] }] } },
        ],
      },
      updateStrategy: { manualUpdate: { partitions: { b: 1 } } },
    },
  });

  it('minimums first in order, then up to each maximum: a 2, b 3, c 0; the patch merged, tolerations appended, the zone term merged into the template term', async () => {
    const created = await env.kube.create<Obj>(cs());
    expect(created.spec.topology.subsets[2].minReplicas).toBe(0);
    const done = await waitStatus('ud-cs', sel, 'five ready', (x) => x.status?.readyReplicas === 5 && x.status?.replicas === 5);
    expect(done.status!.subsetReplicas).toEqual({ a: 2, b: 3, c: 0 });
    const sets = await workloads('ud-cs', 'apps.kruise.io/v1alpha1', 'CloneSet');
    const a = sets.get('a')![0]!;
    expect(a.metadata.name).toMatch(/^ud-cs-a-[a-z0-9]{5}$/);
    expect(JSON.parse(a.metadata.annotations!['apps.kruise.io/subset-patch']!)).toEqual(cs().spec.topology.subsets[0].patch);
    const podSpec = a.spec.template.spec;
    expect(a.spec.template.metadata.labels).toMatchObject({ app: 'ud-cs', zone: 'a', [SUBSET]: 'a' });
    expect(podSpec.containers[0].image).toBe('app:1');
    expect(podSpec.containers[0].env).toEqual([{ name: 'A', value: '1' }, { name: 'ZONE', value: 'a' }]);
    expect(podSpec.tolerations).toEqual([{ key: 'dedicated', operator: 'Equal', value: 'a', effect: 'NoSchedule' }]);
    expect(podSpec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms).toEqual([
      { matchExpressions: [{ key: 'kubernetes.io/os', operator: 'In', values: ['linux'] }, { key: 'node', operator: 'In', values: ['zone-a'] }] },
    ]);
    expect(sets.get('b')![0]!.spec.updateStrategy.partition).toBe(1);
    expect(sets.get('c')![0]!.spec.replicas).toBe(0);
    const pods = await podsOf(sel);
    expect(counts(pods, (p) => `${p.metadata.labels![SUBSET]}@${zoneOf(p)}`)).toEqual({ 'a@zone-a': 2, 'b@zone-b': 3 });
    expect(pods.filter((p) => p.metadata.labels![SUBSET] === 'a').every((p) => p.spec?.containers[0]?.env?.some((e) => e.name === 'ZONE' && e.value === 'a'))).toBe(true);
  });

  it('a template change updates every CloneSet; partition 1 keeps one pod of b', async () => {
    await patchUd('ud-cs', { spec: { template: { cloneSetTemplate: { spec: { template: { spec: { containers: [{ name: 'main', image: 'app:2', env: [{ name: 'A', value: '1' }] }] } } } } } } });
    const done = await waitStatus('ud-cs', sel, 'four updated', (x) => x.status?.updatedReplicas === 4 && x.status?.readyReplicas === 5 && x.status?.updatedReadyReplicas === 4);
    const sets = await workloads('ud-cs', 'apps.kruise.io/v1alpha1', 'CloneSet');
    for (const [, [w]] of sets) expect(w!.metadata.labels![REVISION]).toBe(done.status!.updateStatus.updatedRevision);
    const a = sets.get('a')![0]!;
    expect(a.spec.template.spec.containers[0]).toMatchObject({ image: 'app:2', env: [{ name: 'A', value: '1' }, { name: 'ZONE', value: 'a' }] });
  });
});

describe('Deployment subsets (kube-controller-manager) and Advanced StatefulSet subsets (our controller)', () => {
  const template = (app: string, image: string) => ({
    metadata: { labels: { app } },
    spec: { selector: { matchLabels: { app } }, template: { metadata: { labels: { app } }, spec: { containers: [{ name: 'main', image }] } } },
  });
  const zone = (z: string) => ({ matchExpressions: [{ key: 'node', operator: 'In', values: [z] }] });

  it('Deployments: 34% of 3 rounds to 1, the others share the rest; a template change rolls them all', async () => {
    await env.kube.create({
      ...UD, metadata: { name: 'ud-dep', namespace: env.ns },
      spec: {
        replicas: 3, selector: { matchLabels: { app: 'ud-dep' } }, template: { deploymentTemplate: template('ud-dep', 'app:1') },
        topology: { subsets: [{ name: 'a', nodeSelectorTerm: zone('zone-a'), replicas: '34%' }, { name: 'b', nodeSelectorTerm: zone('zone-b') }, { name: 'c', nodeSelectorTerm: zone('zone-c') }] },
      },
    });
    const done = await waitStatus('ud-dep', 'app=ud-dep', 'three ready', (x) => x.status?.readyReplicas === 3 && x.status?.updatedReplicas === 3);
    expect(done.status!.subsetReplicas).toEqual({ a: 1, b: 1, c: 1 });
    const deps = await workloads('ud-dep', 'apps/v1', 'Deployment');
    expect([...deps.keys()].sort()).toEqual(['a', 'b', 'c']);
    expect(deps.get('a')![0]!.spec.selector).toEqual({ matchLabels: { app: 'ud-dep', [SUBSET]: 'a' } });
    await patchUd('ud-dep', { spec: { template: { deploymentTemplate: template('ud-dep', 'app:2') } } });
    const rolled = await waitStatus('ud-dep', 'app=ud-dep', 'rolled', (x) => x.status?.updateStatus?.updatedRevision !== done.status!.updateStatus.updatedRevision && x.status?.updatedReadyReplicas === 3 && x.status?.currentRevision === x.status?.updateStatus?.updatedRevision);
    const want = JSON.stringify(Array(3).fill(`${String(rolled.status!.currentRevision)}:app:2`));
    await eventually('three pods, at the new revision and image', async () => {
      const pods = await podsOf('app=ud-dep');
      return JSON.stringify(pods.map((p) => `${p.metadata.labels![REVISION]}:${p.spec?.containers[0]?.image}`)) === want ? true : undefined;
    });
  });

  it('Advanced StatefulSets: a partition per subset', async () => {
    await env.kube.create({
      ...UD, metadata: { name: 'ud-asts', namespace: env.ns },
      spec: {
        replicas: 4, selector: { matchLabels: { app: 'ud-asts' } }, template: { advancedStatefulSetTemplate: template('ud-asts', 'app:1') },
        topology: { subsets: [{ name: 'a', nodeSelectorTerm: zone('zone-a') }, { name: 'b', nodeSelectorTerm: zone('zone-b') }] },
        updateStrategy: { manualUpdate: { partitions: { a: 1 } } },
      },
    });
    await waitStatus('ud-asts', 'app=ud-asts', 'four ready', (x) => x.status?.readyReplicas === 4);
    const sets = await workloads('ud-asts', 'apps.kruise.io/v1beta1', 'StatefulSet');
    expect(sets.get('a')![0]!.spec.updateStrategy.rollingUpdate.partition).toBe(1);
    await patchUd('ud-asts', { spec: { template: { advancedStatefulSetTemplate: template('ud-asts', 'app:2') } } });
    await waitStatus('ud-asts', 'app=ud-asts', 'three updated (a keeps ordinal 0)', (x) => x.status?.updatedReplicas === 3 && x.status?.readyReplicas === 4);
  });
});

describe('Adaptive scheduling', () => {
  const sel = 'app=ud-adaptive';
  it("pods unschedulable for rescheduleCriticalSeconds mark their subset unschedulable and move to the other subsets; it recovers after unschedulableDuration", async () => {
    const zoneA = ['ud-zone-a-1', 'ud-zone-a-2'];
    for (const n of zoneA) await env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name: n } }, { spec: { unschedulable: true } });
    try {
      await env.kube.create({
        ...UD, metadata: { name: 'ud-adaptive', namespace: env.ns },
        spec: {
          replicas: 4, selector: { matchLabels: { app: 'ud-adaptive' } },
          template: { cloneSetTemplate: { metadata: { labels: { app: 'ud-adaptive' } }, spec: { selector: { matchLabels: { app: 'ud-adaptive' } }, template: { metadata: { labels: { app: 'ud-adaptive' } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } } } } },
          topology: {
            subsets: [
              { name: 'a', maxReplicas: 2, nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-a'] }] } },
              { name: 'b', maxReplicas: 2, nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-b'] }] } },
              { name: 'c', nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-c'] }] } },
            ],
            scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 2, unschedulableDuration: 10 } },
          },
        },
      });
      const moved = await waitStatus('ud-adaptive', sel, 'a emptied, b and c take its pods', (x) => x.status?.subsetReplicas?.a === 0 && x.status?.readyReplicas === 4);
      expect(moved.status!.subsetReplicas).toEqual({ a: 0, b: 2, c: 2 });
      const a = moved.status!.subsetStatuses.find((s: { name: string }) => s.name === 'a');
      expect(a.conditions).toEqual([expect.objectContaining({ type: 'Schedulable', status: 'False', reason: 'reschedule', message: 'timeout pending pods found' })]);
      const pods = await eventually('no pod left in a', async () => {
        const ps = await podsOf(sel);
        return ps.length === 4 ? ps : undefined;
      });
      expect(counts(pods, (p) => `${p.metadata.labels![SUBSET]}@${zoneOf(p)}`)).toEqual({ 'b@zone-b': 2, 'c@zone-c': 2 });
      const recovered = await waitStatus('ud-adaptive', sel, 'a schedulable again', (x) => x.status?.subsetStatuses?.find((s: { name: string }) => s.name === 'a')?.conditions?.[0]?.status === 'True', 40_000);
      expect(recovered.status!.subsetStatuses.find((s: { name: string }) => s.name === 'a').conditions[0]).toMatchObject({ reason: 'recover', message: 'unschedulable subset recovered after 10.000000 seconds' });
      // Ready pods are never taken from a schedulable subset: b and c keep theirs.
      expect(recovered.status!.subsetReplicas).toEqual({ a: 0, b: 2, c: 2 });
    } finally {
      for (const n of zoneA) await env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name: n } }, { spec: { unschedulable: false } });
    }
  });
});

describe('Adaptive with reserveUnschedulablePods', () => {
  const sel = 'app=ud-reserve';
  const RESERVED = 'apps.kruise.io/united-deployment-reserved-pod';
  const subsetStatus = (x: Obj, name: string) => x.status?.subsetStatuses?.find((s: { name: string }) => s.name === name);
  it('pods that cannot be scheduled are kept reserved while temporary pods run in the next subset; once they have been ready for unschedulableDuration the temporary pods go', async () => {
    const zoneA = ['ud-zone-a-1', 'ud-zone-a-2'];
    const cordon = (unschedulable: boolean) => Promise.all(zoneA.map((n) => env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name: n } }, { spec: { unschedulable } })));
    await cordon(true);
    try {
      await env.kube.create({
        ...UD, metadata: { name: 'ud-reserve', namespace: env.ns },
        spec: {
          replicas: 2, selector: { matchLabels: { app: 'ud-reserve' } },
          template: { cloneSetTemplate: { metadata: { labels: { app: 'ud-reserve' } }, spec: { selector: { matchLabels: { app: 'ud-reserve' } }, template: { metadata: { labels: { app: 'ud-reserve' } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } } } } },
          topology: {
            subsets: [
              { name: 'a', nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-a'] }] } },
              { name: 'b', nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-b'] }] } },
            ],
            scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 2, unschedulableDuration: 5, reserveUnschedulablePods: true } },
          },
        },
      });
      const reserving = await waitStatus('ud-reserve', sel, 'a keeps 2 reserved pods, b runs 2 temporary ones', (x) => x.status?.reservedPods === 2 && x.status?.subsetReplicas?.b === 2 && x.status?.readyReplicas === 2);
      expect(reserving.status!.subsetReplicas).toEqual({ a: 2, b: 2 });
      expect(subsetStatus(reserving, 'a')).toMatchObject({ reservedPods: 2, conditions: [expect.objectContaining({ type: 'Schedulable', status: 'False', reason: 'reschedule', message: 'reserved pods found' })] });
      expect(subsetStatus(reserving, 'b').reservedPods).toBeUndefined();
      expect(reserving.status!.replicas).toBe(2);
      expect(reserving.status!.labelSelector).toBe(`app=ud-reserve,${RESERVED}=false`);
      const labelled = await eventually('reserved labels on every pod', async () => {
        const ps = await podsOf(sel);
        return ps.length === 4 && ps.every((p) => p.metadata.labels?.[RESERVED] !== undefined) ? ps : undefined;
      });
      expect(counts(labelled, (p) => `${p.metadata.labels![SUBSET]}:${p.metadata.labels![RESERVED]}`)).toEqual({ 'a:true': 2, 'b:false': 2 });

      await cordon(false);
      const recovered = await waitStatus('ud-reserve', sel, 'a ready and no longer reserved; b scaled back to 0', (x) => !x.status?.reservedPods && x.status?.subsetReplicas?.b === 0 && x.status?.readyReplicas === 2, 60_000);
      expect(recovered.status!.subsetReplicas).toEqual({ a: 2, b: 0 });
      expect(subsetStatus(recovered, 'a').reservedPods).toBeUndefined();
      const left = await eventually('the temporary pods gone', async () => {
        const ps = await podsOf(sel);
        return ps.length === 2 ? ps : undefined;
      });
      expect(counts(left, (p) => `${p.metadata.labels![SUBSET]}@${zoneOf(p)}:${p.metadata.labels![RESERVED]}`)).toEqual({ 'a@zone-a:false': 2 });
    } finally {
      await cordon(false);
    }
  }, 120_000);
});
