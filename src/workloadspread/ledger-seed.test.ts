import { describe, expect, it } from 'vitest';
import { createPod, type CreateRequest, type WorkloadSpreadLedger } from './ledger.js';
import { seedLedger } from './ledger-seed.js';
import { resyncLedger } from './ledger-resync.js';
import { subsetsFromSpec, type SubsetAccount } from './subset-state.js';

const UID = 'ws-uid';
const NOW = 1_000_000;
// Subset a holds 2; the controller counted 1 pod there.
const counted = (): SubsetAccount[] => [{ ...subsetsFromSpec([{ name: 'a', maxReplicas: 2 }])[0]!, replicas: 1 }, ...subsetsFromSpec([{ name: 'b', maxReplicas: null }])];
const held = (versions: Record<string, SubsetAccount[]> = { v1: counted() }): WorkloadSpreadLedger => ({ uid: UID, workloadReplicas: { value: 3, observedAt: NOW - 5_000 }, versions, resyncedAt: NOW - 5_000 });
// OpenKruise placed web-x in a a moment ago (status creatingPods): a is now full.
const recordedV1 = (): SubsetAccount[] => [{ ...counted()[0]!, creatingPods: { 'web-x': NOW - 1_000 } }, counted()[1]!];
const create = (pod: string): CreateRequest => ({ uid: UID, version: 'v1', pod, generatedKey: '', seed: counted(), workloadReplicas: { value: 3, observedAt: NOW } });

describe('seeding a WorkloadSpread ledger from a recorded status', () => {
  it('a creation in flight OpenKruise recorded counts against its subset in a ledger that already holds the version', () => {
    const { result, next } = seedLedger(held(), { uid: UID, versions: { v1: recordedV1() } }, NOW);
    expect(result).toEqual({ outcome: 'merged', added: ['v1/a/web-x'], versionsAdded: [] });
    expect(createPod(next, create('web-y'), NOW).result).toMatchObject({ subset: 'b' });
    // Without the seed, a would take it.
    expect(createPod(held(), create('web-y'), NOW).result).toMatchObject({ subset: 'a' });
  });

  it('the entry survives the first resync until the controller sees the pod', () => {
    const { next } = seedLedger(held(), { uid: UID, versions: { v1: recordedV1() } }, NOW);
    const base = counted().map(({ creatingPods: _c, deletingPods: _d, ...b }) => b);
    const req = { uid: UID, workloadReplicas: { value: 3, observedAt: NOW + 1 }, versions: { v1: base }, initial: base, pods: {} };
    expect(resyncLedger(next, req, NOW + 1).versions.v1![0]!.creatingPods).toEqual({ 'web-x': NOW - 1_000 });
    expect(resyncLedger(next, { ...req, pods: { 'web-x': true } }, NOW + 1).versions.v1![0]!.creatingPods).toEqual({});
  });

  it('never adds room: recorded deletions and expired creations are left out; a version the ledger lacks is taken from status', () => {
    const recorded = [{ ...counted()[0]!, creatingPods: { old: NOW - 31_000 }, deletingPods: { 'web-0': NOW - 1_000 } }, counted()[1]!];
    const { result, next } = seedLedger(held(), { uid: UID, versions: { v1: recorded, v0: recordedV1() } }, NOW);
    expect(result).toEqual({ outcome: 'merged', added: [], versionsAdded: ['v0'] });
    expect(next!.versions.v1).toEqual(counted());
    expect(next!.versions.v0).toEqual(recordedV1());
  });

  it('a ledger without the WorkloadSpread (or for an earlier incarnation) is made from status; a second seed changes nothing', () => {
    const { result, next } = seedLedger(undefined, { uid: UID, versions: { v1: recordedV1() } }, NOW);
    expect(result).toEqual({ outcome: 'seeded', added: ['v1/a/web-x'], versionsAdded: ['v1'] });
    expect(next).toEqual({ uid: UID, workloadReplicas: { value: 0, observedAt: 0 }, versions: { v1: recordedV1() } });
    expect(seedLedger({ ...held(), uid: 'old' }, { uid: UID, versions: { v1: recordedV1() } }, NOW).result.outcome).toBe('seeded');
    expect(seedLedger(next, { uid: UID, versions: { v1: recordedV1() } }, NOW + 1)).toEqual({ result: { outcome: 'unchanged', added: [], versionsAdded: [] } });
  });

  it('a malformed request is a clear error', () => {
    expect(() => seedLedger(held(), { uid: UID } as never, NOW)).toThrow(/needs "uid" and "versions"/);
    expect(() => seedLedger(held(), { uid: UID, versions: { v1: [{ name: 'a' }] } } as never, NOW)).toThrow(/version "v1" needs subset accounts/);
  });
});
