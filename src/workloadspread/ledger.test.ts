import { describe, expect, it } from 'vitest';
import { MemoryLedgers } from '../edge-state/ledger.js';
import {
  createPod,
  deletePod,
  workloadSpreadLedgerKind,
  WORKLOADSPREAD_LEDGER,
  type CreateRequest,
  type CreateResult,
  type DeleteRequest,
  type WorkloadSpreadLedger,
} from './ledger.js';
import { missingReplicas, subsetsFromSpec, type Limit, type SubsetAccount } from './subset-state.js';

const UID = 'ws-uid';
const T0 = 1_000_000;
const replicas = (value: number) => ({ value, observedAt: T0 });

function subsets(...limits: [string, Limit][]): SubsetAccount[] {
  return subsetsFromSpec(limits.map(([name, maxReplicas]) => ({ name, maxReplicas })));
}

function create(o: Partial<CreateRequest> & { seed: SubsetAccount[] }): CreateRequest {
  return { uid: UID, version: 'v1', pod: '', generatedKey: 'gen-1', workloadReplicas: replicas(10), ...o };
}

function ledger(versions: Record<string, SubsetAccount[]>, o: Partial<WorkloadSpreadLedger> = {}): WorkloadSpreadLedger {
  return { uid: UID, workloadReplicas: replicas(10), versions, ...o };
}

describe('create', () => {
  const ab = subsets(['a', 1], ['b', null]);
  it.each<[string, WorkloadSpreadLedger | undefined, CreateRequest, CreateResult]>([
    ['seeded ledger, room in a', undefined, create({ seed: ab }), { subset: 'a', recorded: true, generatedKey: 'gen-1', missingReplicas: 0 }],
    ['named pod recorded by name', undefined, create({ seed: ab, pod: 'web-0' }), { subset: 'a', recorded: true, missingReplicas: 0 }],
    ['a full ⇒ unlimited b, not recorded', ledger({ v1: [{ ...ab[0]!, replicas: 1 }, ab[1]!] }), create({ seed: ab }), { subset: 'b', recorded: false, missingReplicas: -1 }],
    ['no room anywhere', undefined, create({ seed: subsets(['a', 0]) }), { recorded: false }],
    ['unschedulable a is skipped', ledger({ v1: [{ ...ab[0]!, conditions: [{ type: 'Schedulable', status: 'False' }] }, ab[1]!] }), create({ seed: ab }), { subset: 'b', recorded: false, missingReplicas: -1 }],
    ['retry of a recorded pod keeps its subset', ledger({ v1: [ab[0]!, { ...ab[1]!, creatingPods: { 'web-0': T0 } }] }), create({ seed: ab, pod: 'web-0' }), { subset: 'b', recorded: false, missingReplicas: -1 }],
    ['percent of the workload replicas, rounded up', undefined, create({ seed: subsets(['a', '15%'], ['b', null]) }), { subset: 'a', recorded: true, generatedKey: 'gen-1', missingReplicas: 1 }],
    ['fresher replicas from the request win', ledger({}, { workloadReplicas: { value: 0, observedAt: T0 - 1 } }), create({ seed: subsets(['a', '50%']) }), { subset: 'a', recorded: true, generatedKey: 'gen-1', missingReplicas: 4 }],
    ['another incarnation of the WorkloadSpread is ignored', ledger({ v1: subsets(['a', 0]) }, { uid: 'old' }), create({ seed: ab }), { subset: 'a', recorded: true, generatedKey: 'gen-1', missingReplicas: 0 }],
  ])('%s', (_name, state, req, want) => {
    expect(createPod(state, req, T0).result).toEqual(want);
  });

  it('records the pod with the time and keeps the version', () => {
    const next = createPod(undefined, create({ seed: subsets(['a', 2]) }), T0).next!;
    expect(next.versions.v1![0]!.creatingPods).toEqual({ 'gen-1': T0 });
    expect(missingReplicas(next.versions.v1![0]!, 10)).toBe(1);
  });

  it('dry run decides without a next state', () => {
    const step = createPod(undefined, create({ seed: subsets(['a', 2]), dryRun: true }), T0);
    expect(step.result.subset).toBe('a');
    expect(step.next).toBeUndefined();
  });

  it('versions are accounted separately', () => {
    const first = createPod(undefined, create({ seed: subsets(['a', 1], ['b', 1]), version: 'old' }), T0).next!;
    const step = createPod(first, create({ seed: subsets(['a', 1], ['b', 1]), version: 'new', generatedKey: 'gen-2' }), T0);
    expect(step.result.subset).toBe('a');
  });
});

describe('delete', () => {
  const del = (o: Partial<DeleteRequest>): DeleteRequest => ({ uid: UID, version: 'v1', pod: 'web-1', subset: 'a', seed: subsets(['a', 2]), workloadReplicas: replicas(10), ...o });
  const full = ledger({ v1: [{ ...subsets(['a', 2])[0]!, replicas: 2 }] });

  it.each<[string, WorkloadSpreadLedger | undefined, DeleteRequest, boolean]>([
    ['gives room back', full, del({}), true],
    ['unknown subset', full, del({ subset: 'z' }), false],
    ['unlimited subset', undefined, del({ seed: subsets(['a', null]) }), false],
    ['pod already recorded', ledger({ v1: [{ ...full.versions.v1![0]!, deletingPods: { 'web-1': T0 } }] }), del({}), false],
  ])('%s', (_name, state, req, want) => {
    expect(deletePod(state, req, T0).result.recorded).toBe(want);
  });

  it.each([
    ['generated key (annotation uid)', 'gen-7', { key: 'gen-7' }],
    ['pod name', 'web-1', {}],
  ])('a pod deleted before the controller counted it drops its creation entry (%s)', (_name, key, o: Partial<DeleteRequest>) => {
    const placed = ledger({ v1: [{ ...subsets(['a', 2])[0]!, replicas: 1, creatingPods: { [key]: T0 } }] });
    const next = deletePod(placed, del(o), T0).next!;
    expect(next.versions.v1![0]).toMatchObject({ creatingPods: {}, deletingPods: {} });
    expect(missingReplicas(next.versions.v1![0]!, 10)).toBe(1);
    expect(deletePod(placed, del({ ...o, dryRun: true }), T0).next).toBeUndefined();
  });

  it('room is derived: a deletion from an over-full subset gives none', () => {
    const over = ledger({ v1: [{ ...subsets(['a', 2])[0]!, replicas: 3 }] });
    const next = deletePod(over, del({}), T0).next!;
    expect(missingReplicas(next.versions.v1![0]!, 10)).toBe(0);
  });
});

describe('through one serialized authority', () => {
  it('1000 concurrent creations fill 10 / 30 / rest exactly', async () => {
    const ledgers = new MemoryLedgers([workloadSpreadLedgerKind], () => T0);
    const ref = { kind: WORKLOADSPREAD_LEDGER, namespace: 'default', name: 'spread' };
    const seed = subsets(['a', 10], ['b', 30], ['c', null]);
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => ledgers.apply<CreateResult>(ref, 'create', create({ seed, generatedKey: `pod-${i}` }))),
    );
    const count = (name: string) => results.filter((r) => r.subset === name).length;
    expect([count('a'), count('b'), count('c')]).toEqual([10, 30, 960]);
    const state = await ledgers.apply<WorkloadSpreadLedger>(ref, 'read', {});
    expect(Object.keys(state.versions.v1![0]!.creatingPods)).toHaveLength(10);
    expect(Object.keys(state.versions.v1![1]!.creatingPods)).toHaveLength(30);
  });
});
