import { describe, expect, it } from 'vitest';
import { MemoryLedgers } from '../../edge-state/ledger.js';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader } from '../../reconcile/types.js';
import { workloadSpreadLedgerKind, WORKLOADSPREAD_LEDGER, type WorkloadSpreadLedger } from '../ledger.js';
import { subsetsFromSpec } from '../subset-state.js';
import { pod, subset, workloadSpread } from '../test-builders.js';
import { MATCHED_WORKLOADSPREAD_ANNOTATION, POD_DELETION_COST_ANNOTATION, type Pod, type WorkloadSpread } from '../types.js';
import { SHOWN_FOR_MS } from './admitted-entries.js';
import { decideWorkloadSpreads } from './decide.js';
import { deletionCosts } from './deletion-cost.js';
import { observeWorkloadSpreads } from './observe.js';
import { countSubsets } from './subsets.js';

const NOW = Date.parse('2026-01-01T00:10:00Z');
const placed = (name: string, sub: string, o: Parameters<typeof pod>[0] = {}) =>
  pod({ name, annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: JSON.stringify({ name: 'spread', subset: sub }) }, phase: 'Running', ...o });
const pending = (name: string, sub: string, createdAgoMs: number) => ({
  ...placed(name, sub, { phase: 'Pending', status: { conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] } }),
  metadata: { ...placed(name, sub).metadata, creationTimestamp: new Date(NOW - createdAgoMs) },
}) as Pod;

describe('countSubsets', () => {
  const ws = workloadSpread({ subsets: [subset('a', { maxReplicas: 2 }), subset('b', { maxReplicas: '50%' }), subset('c')] });

  it('counts active pods per subset and version', () => {
    const pods = [placed('p1', 'a'), placed('p2', 'a'), placed('p3', 'b'), placed('p4', 'c', { phase: 'Succeeded' }), pod({ name: 'stray' })];
    const c = countSubsets(ws, pods, 4, NOW);
    expect(c.subsetStatuses.map((s) => [s.name, s.replicas, s.missingReplicas])).toEqual([['a', 2, 0], ['b', 1, 1], ['c', 0, -1]]);
    expect(c.versions.abc!.map((b) => b.replicas)).toEqual([2, 1, 0]);
    expect(c.pods).toMatchObject({ p1: true, p4: false, stray: true });
  });

  describe('Adaptive', () => {
    const adaptive = (status?: WorkloadSpread['status']) =>
      workloadSpread({ subsets: [subset('a', { maxReplicas: 2 }), subset('b')], spec: { scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 30 } } }, ...(status ? { status } : {}) });
    const condition = (c: ReturnType<typeof countSubsets>, i: number) => c.subsetStatuses[i]!.conditions?.[0]?.status;

    it('a pod unschedulable past the critical time marks the subset and is deleted', () => {
      const c = countSubsets(adaptive(), [pending('p1', 'a', 31_000)], 2, NOW);
      expect([condition(c, 0), condition(c, 1)]).toEqual(['False', 'True']);
      expect(c.unschedulablePods.map((p) => p.metadata?.name)).toEqual(['p1']);
    });

    it('a pod not yet past it wakes the controller at its deadline', () => {
      const c = countSubsets(adaptive(), [pending('p1', 'a', 10_000)], 2, NOW);
      expect(condition(c, 0)).toBe('True');
      expect(c.wakeAt).toBe(NOW + 20_001);
    });

    it.each([
      ['recovers after five minutes', 300_001, 'True'],
      ['stays unschedulable before', 200_000, 'False'],
    ])('an unschedulable subset %s', (_name, agoMs, want) => {
      const status = { subsetStatuses: [{ name: 'a', replicas: 0, missingReplicas: 2, conditions: [{ type: 'Schedulable', status: 'False', lastTransitionTime: new Date(NOW - agoMs).toISOString() }] }] } as WorkloadSpread['status'];
      expect(condition(countSubsets(adaptive(status), [], 2, NOW), 0)).toBe(want);
    });

    it('Fixed removes the condition', () => {
      const c = countSubsets(workloadSpread(), [pending('p1', 'a', 31_000)], 2, NOW);
      expect(c.subsetStatuses[0]!.conditions).toBeUndefined();
      expect(c.unschedulablePods).toEqual([]);
    });
  });
});

describe('deletionCosts', () => {
  it('ranks subsets, surplus first to go, strays last', () => {
    const ws = workloadSpread({ subsets: [subset('a', { maxReplicas: 1 }), subset('b')] });
    const older = { ...placed('a-old', 'a'), metadata: { ...placed('a-old', 'a').metadata, creationTimestamp: new Date(NOW - 100_000) } } as Pod;
    const newer = { ...placed('a-new', 'a'), metadata: { ...placed('a-new', 'a').metadata, creationTimestamp: new Date(NOW - 1000) } } as Pod;
    const costs = deletionCosts(ws, [older, newer, placed('b1', 'b'), pod({ name: 'stray', phase: 'Running' })], 3);
    expect(Object.fromEntries(costs)).toEqual({ 'a-old': 200, 'a-new': -100, b1: 100, stray: -300 });
  });

  it('reverses the subsets for old versions', () => {
    const ws = workloadSpread({ subsets: [subset('a'), subset('b')] });
    const old = placed('p', 'a', { labels: { 'pod-template-hash': 'old' } });
    expect(deletionCosts(ws, [old], 1, 'new').get('p')).toBe(100);
  });
});

function fakeKube(objects: Record<string, unknown[]>): KubeReader {
  return {
    list: async <T extends KubeObject>(apiVersion: string, kind: string) => ({ items: (objects[`${apiVersion}/${kind}`] ?? []) as T[], resourceVersion: '1' }),
    get: async <T extends KubeObject>(apiVersion: string, kind: string, name: string) => {
      const o = ((objects[`${apiVersion}/${kind}`] ?? []) as KubeObject[]).find((x) => x.metadata?.name === name);
      if (!o) throw Object.assign(new Error('not found'), { status: 404 });
      return o as T;
    },
  };
}

describe('observe → decide with the ledger', () => {
  const ws = workloadSpread({ subsets: [subset('a', { maxReplicas: 2 }), subset('b')] });
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', uid: 'dep-uid' }, spec: { replicas: 3 } };
  const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-abc', namespace: 'default', uid: 'web-abc-uid', labels: { 'pod-template-hash': 'abc' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'dep-uid', controller: true }] } };

  it('resyncs the ledger, writes its state to status and asks to come back at the next expiry', async () => {
    const ledgers = new MemoryLedgers([workloadSpreadLedgerKind], () => NOW);
    const ref = { kind: WORKLOADSPREAD_LEDGER, namespace: 'default', name: 'spread' };
    const seed = subsetsFromSpec(ws.spec.subsets);
    // Two pods admitted at the edge; only the first has reached the API server.
    for (const key of ['k1', 'k2']) await ledgers.apply(ref, 'create', { uid: 'ws-uid', version: 'abc', pod: '', generatedKey: key, seed, workloadReplicas: { value: 3, observedAt: 0 } });
    const seen = placed('web-abc-1', 'a', { annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"spread","subset":"a","uid":"k1"}' } });
    const kube = fakeKube({ 'apps.kruise.io/v1alpha1/WorkloadSpread': [ws], 'apps/v1/Deployment': [deployment], 'apps/v1/ReplicaSet': [rs], 'v1/Pod': [seen] });

    const observed = await observeWorkloadSpreads(kube, { kind: 'all' }, { ledgers, now: () => NOW });
    const plan = decideWorkloadSpreads(observed, new Date(NOW));
    // The plan carries the resync; applied to the edge's ledger it gives what status shows.
    expect(plan.ledgers).toHaveLength(1);
    for (const w of plan.ledgers!) await ledgers.apply(w.ref, w.op, w.request);
    const held = await ledgers.apply<WorkloadSpreadLedger>(ref, 'read', {});
    expect(held.versions.abc![0]).toMatchObject({ replicas: 1, creatingPods: { k2: NOW } });

    expect(plan.status).toHaveLength(1);
    const status = plan.status[0]!.status as { versionedSubsetStatuses: Record<string, { name: string; missingReplicas: number; creatingPods?: Record<string, string> }[]> };
    // k1's creation shows once though its pod is seen already, as OpenKruise's webhook writes it;
    // the controller comes back a moment later to drop it.
    expect(status.versionedSubsetStatuses.abc![0]).toEqual({ name: 'a', replicas: 1, missingReplicas: 0, creatingPods: { k1: '2026-01-01T00:10:00Z', k2: '2026-01-01T00:10:00Z' } });
    expect(plan.requeueAfterMs).toBe(1000);
    const withStatus = (o: typeof observed, st: unknown) => ({ ...o, spreads: o.spreads.map((x) => ({ ...x, ws: { ...x.ws, status: st } as WorkloadSpread })) });
    // A run once k1 has been readable long enough, on the resynced ledger: k1 goes, k2 stays until its pod is seen; then nothing to write.
    const later = NOW + SHOWN_FOR_MS;
    const next = await observeWorkloadSpreads(fakeKube({ 'apps.kruise.io/v1alpha1/WorkloadSpread': [{ ...ws, status: plan.status[0]!.status } as WorkloadSpread], 'apps/v1/Deployment': [deployment], 'apps/v1/ReplicaSet': [rs], 'v1/Pod': [seen] }), { kind: 'all' }, { ledgers, now: () => later });
    const second = decideWorkloadSpreads(next, new Date(later));
    const secondStatus = second.status[0]!.status as typeof status;
    expect(secondStatus.versionedSubsetStatuses.abc![0]).toEqual({ name: 'a', replicas: 1, missingReplicas: 0, creatingPods: { k2: '2026-01-01T00:10:00Z' } });
    expect(second.requeueAfterMs).toBe(30_000 - SHOWN_FOR_MS);
    const written = withStatus(next, second.status[0]!.status);
    expect(decideWorkloadSpreads(written, new Date(later)).status).toEqual([]);
    expect(plan.writes).toEqual([
      expect.objectContaining({ op: 'patch', target: expect.objectContaining({ name: 'web-abc-1' }), patch: { metadata: { annotations: { [POD_DELETION_COST_ANNOTATION]: '200' } } } }),
    ]);
  });

  it('observe only reads the ledger (a dry run changes nothing at the edge)', async () => {
    const ledgers = new MemoryLedgers([workloadSpreadLedgerKind], () => NOW);
    const kube = fakeKube({ 'apps.kruise.io/v1alpha1/WorkloadSpread': [ws], 'apps/v1/Deployment': [deployment], 'apps/v1/ReplicaSet': [rs], 'v1/Pod': [] });
    await observeWorkloadSpreads(kube, { kind: 'all' }, { ledgers, now: () => NOW });
    expect(await ledgers.apply(ledgerRefOf(), 'read', {})).toBeNull();
  });
});

function ledgerRefOf() {
  return { kind: WORKLOADSPREAD_LEDGER, namespace: 'default', name: 'spread' };
}

describe('Adaptive rescheduling with the ledger', () => {
  const ws = workloadSpread({ subsets: [subset('a', { maxReplicas: 2 }), subset('b')], spec: { scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 30 } } } });
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', uid: 'dep-uid' }, spec: { replicas: 1 } };
  const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-abc', namespace: 'default', uid: 'web-abc-uid', labels: { 'pod-template-hash': 'abc' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'dep-uid', controller: true }] } };
  const kube = fakeKube({ 'apps.kruise.io/v1alpha1/WorkloadSpread': [ws], 'apps/v1/Deployment': [deployment], 'apps/v1/ReplicaSet': [rs], 'v1/Pod': [pending('web-abc-1', 'a', 31_000)] });
  const deletes = (plan: ReturnType<typeof decideWorkloadSpreads>) => plan.writes.filter((w) => w.op === 'delete').map((w) => w.target.name);

  it('marks the subset at the edge first and deletes the pod on the next run, so its replacement goes elsewhere', async () => {
    const ledgers = new MemoryLedgers([workloadSpreadLedgerKind], () => NOW);
    const first = decideWorkloadSpreads(await observeWorkloadSpreads(kube, { kind: 'all' }, { ledgers, now: () => NOW }), new Date(NOW));
    expect(deletes(first)).toEqual([]);
    expect(first.requeueAfterMs).toBe(1000);
    for (const w of first.ledgers!) await ledgers.apply(w.ref, w.op, w.request);
    const second = decideWorkloadSpreads(await observeWorkloadSpreads(kube, { kind: 'all' }, { ledgers, now: () => NOW }), new Date(NOW));
    expect(deletes(second)).toEqual(['web-abc-1']);
  });

  it('without ledgers the status is where the mark must be', async () => {
    const marked = { ...ws, status: { subsetStatuses: [{ name: 'a', replicas: 1, missingReplicas: 1, conditions: [{ type: 'Schedulable', status: 'False', lastTransitionTime: new Date(NOW - 1000).toISOString() }] }] } } as WorkloadSpread;
    const observe = (w: WorkloadSpread) => observeWorkloadSpreads(fakeKube({ 'apps.kruise.io/v1alpha1/WorkloadSpread': [w], 'apps/v1/Deployment': [deployment], 'apps/v1/ReplicaSet': [rs], 'v1/Pod': [pending('web-abc-1', 'a', 31_000)] }), { kind: 'all' }, { now: () => NOW });
    expect(deletes(decideWorkloadSpreads(await observe(ws), new Date(NOW)))).toEqual([]);
    expect(deletes(decideWorkloadSpreads(await observe(marked), new Date(NOW)))).toEqual(['web-abc-1']);
  });

  it('recoverAfterMs shortens how long a subset stays unschedulable', () => {
    const status = { subsetStatuses: [{ name: 'a', replicas: 0, missingReplicas: 2, conditions: [{ type: 'Schedulable', status: 'False', lastTransitionTime: new Date(NOW - 11_000).toISOString() }] }] } as WorkloadSpread['status'];
    const c = countSubsets({ ...ws, status } as WorkloadSpread, [], 2, NOW, 10_000);
    expect(c.subsetStatuses[0]!.conditions?.[0]?.status).toBe('True');
  });
});

describe('status shapes (omitempty)', () => {
  const ws = workloadSpread({ subsets: [subset('a', { maxReplicas: 2 }), subset('b')] });
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', uid: 'dep-uid' }, spec: { replicas: 3 } };
  const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-abc', namespace: 'default', uid: 'web-abc-uid', labels: { 'pod-template-hash': 'abc' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'dep-uid', controller: true }] } };
  const at = (agoMs: number) => new Date(NOW - agoMs).toISOString().replace('.000Z', 'Z');
  const creating = (key: string, agoMs: number) => ({ name: 'a', replicas: 0, missingReplicas: 1, creatingPods: { [key]: at(agoMs) } });
  const statusWrite = async (w: WorkloadSpread, pods: Pod[]) => {
    const kube = fakeKube({ 'apps.kruise.io/v1alpha1/WorkloadSpread': [w], 'apps/v1/Deployment': [deployment], 'apps/v1/ReplicaSet': [rs], 'v1/Pod': pods });
    const plan = decideWorkloadSpreads(await observeWorkloadSpreads(kube, { kind: 'all' }, { now: () => NOW }), new Date(NOW));
    return plan.status[0]?.status as Record<string, unknown> | undefined;
  };
  const withStatus = (status: unknown) => ({ ...ws, status } as WorkloadSpread);

  it('a subset without entries carries no creatingPods/deletingPods, and no versions no versionedSubsetStatuses', async () => {
    expect(await statusWrite(ws, [])).toEqual({
      observedGeneration: 1,
      subsetStatuses: [{ name: 'a', replicas: 0, missingReplicas: 2 }, { name: 'b', replicas: 0, missingReplicas: -1 }],
    });
    const status = await statusWrite(ws, [placed('web-abc-1', 'a')]);
    expect((status!.versionedSubsetStatuses as Record<string, unknown[]>).abc).toEqual([{ name: 'a', replicas: 1, missingReplicas: 1 }, { name: 'b', replicas: 0, missingReplicas: -1 }]);
  });

  it('an emptied creatingPods is cleared: the version\'s list is replaced by one without it', async () => {
    const seen = placed('web-abc-1', 'a', { annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"spread","subset":"a","uid":"k1"}' } });
    // Admitted 3 s ago: past the moment it stays readable once its pod is seen.
    const status = await statusWrite(withStatus({ observedGeneration: 1, versionedSubsetStatuses: { abc: [creating('k1', 3000), { name: 'b', replicas: 0, missingReplicas: -1 }] } }), [seen]);
    expect((status!.versionedSubsetStatuses as Record<string, unknown[]>).abc![0]).toEqual({ name: 'a', replicas: 1, missingReplicas: 1 });
  });

  it('when the last version goes, versionedSubsetStatuses is deleted with null, not left as {}', async () => {
    // The only entry expired (30 s) and no pod of its version was listed.
    const status = await statusWrite(withStatus({ observedGeneration: 1, versionedSubsetStatuses: { abc: [creating('k1', 31_000), { name: 'b', replicas: 0, missingReplicas: -1 }] } }), []);
    expect(status).toHaveProperty('versionedSubsetStatuses', null);
    const stale = await statusWrite(withStatus({ observedGeneration: 1, subsetStatuses: [{ name: 'a', replicas: 0, missingReplicas: 2 }, { name: 'b', replicas: 0, missingReplicas: -1 }], versionedSubsetStatuses: {} }), []);
    expect(stale).toHaveProperty('versionedSubsetStatuses', null);
  });

  it('a status already in shape is not rewritten', async () => {
    const current = { observedGeneration: 1, subsetStatuses: [{ name: 'a', replicas: 0, missingReplicas: 2 }, { name: 'b', replicas: 0, missingReplicas: -1 }] };
    expect(await statusWrite(withStatus(current), [])).toBeUndefined();
  });
});

describe('pods that existed before the WorkloadSpread', () => {
  const zoned = (zone: string) => ({ matchExpressions: [{ key: 'zone', operator: 'In', values: [zone] }] });
  const ws = workloadSpread({ subsets: [subset('a', { maxReplicas: 1, requiredNodeSelectorTerm: zoned('a') }), subset('b', { requiredNodeSelectorTerm: zoned('b') })] });
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', uid: 'dep-uid' }, spec: { replicas: 2 } };
  const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-abc', namespace: 'default', uid: 'web-abc-uid', labels: { 'pod-template-hash': 'abc' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'dep-uid', controller: true }] } };
  const nodes = [{ metadata: { name: 'node-a', labels: { zone: 'a' } } }, { metadata: { name: 'node-b', labels: { zone: 'b' } } }];
  const old = (name: string, nodeName: string) => pod({ name, phase: 'Running', spec: { nodeName } });

  it('are matched to subsets: the annotation is patched and they count at once', async () => {
    const kube = fakeKube({ 'apps.kruise.io/v1alpha1/WorkloadSpread': [ws], 'apps/v1/Deployment': [deployment], 'apps/v1/ReplicaSet': [rs], 'v1/Pod': [old('web-abc-1', 'node-a'), old('web-abc-2', 'node-b')], 'v1/Node': nodes });
    const plan = decideWorkloadSpreads(await observeWorkloadSpreads(kube, { kind: 'all' }, { now: () => NOW }), new Date(NOW));
    const patches = plan.writes.filter((w) => w.op === 'patch' && w.patchType === 'strategic');
    expect(patches.map((w) => [w.op === 'patch' && w.target.name, w.op === 'patch' && w.patch])).toEqual([
      ['web-abc-1', { metadata: { annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"spread","subset":"a"}' } } }],
      ['web-abc-2', { metadata: { annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"spread","subset":"b"}' } } }],
    ]);
    const status = plan.status[0]!.status as { subsetStatuses: { name: string; replicas: number; missingReplicas: number }[] };
    expect(status.subsetStatuses).toEqual([{ name: 'a', replicas: 1, missingReplicas: 0 }, { name: 'b', replicas: 1, missingReplicas: -1 }]);
  });
});
