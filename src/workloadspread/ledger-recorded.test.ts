import { describe, expect, it } from 'vitest';
import { createPod, deletePod, type CreateRequest, type WorkloadSpreadLedger } from './ledger.js';
import { isNewerVersion, takeRecorded } from './ledger-recorded.js';
import { subsetsFromSpec, type SubsetAccount } from './subset-state.js';

const UID = 'ws-uid';
const T0 = 1_000_000;
const spec = subsetsFromSpec([{ name: 'zone-a', maxReplicas: 2 }, { name: 'zone-b', maxReplicas: null }]);
// The scenario: a workload pod was admitted into zone-a just after the WorkloadSpread appeared.
const webhookOnly: WorkloadSpreadLedger = {
  uid: UID, workloadReplicas: { value: 0, observedAt: 0 },
  versions: { v: [{ ...spec[0]!, creatingPods: { 'web-x': T0 } }, spec[1]!] },
};
// Then another writer recorded zone-a full (two pods counted).
const full: SubsetAccount[] = [{ ...spec[0]!, replicas: 2 }, spec[1]!];
const create = (o: Partial<CreateRequest> = {}): CreateRequest =>
  ({ uid: UID, version: 'v', pod: 'web-2', generatedKey: '', seed: full, workloadReplicas: { value: 0, observedAt: 0 }, recorded: { resourceVersion: '12', accounts: full }, ...o });

describe('a status another writer records, before the controller resyncs', () => {
  it('is taken in: the next pod goes where that status says there is room', () => {
    expect(createPod(webhookOnly, create({ recorded: undefined }), T0 + 1).result.subset).toBe('zone-a');
    const step = createPod(webhookOnly, create(), T0 + 1);
    expect(step.result).toEqual({ subset: 'zone-b', recorded: false, missingReplicas: -1 });
  });

  it('keeps the ledger’s own creations taking room, and remembers the version it took', () => {
    const roomy: SubsetAccount[] = [{ ...spec[0]!, replicas: 1 }, spec[1]!];
    const step = createPod(webhookOnly, create({ recorded: { resourceVersion: '12', accounts: roomy } }), T0 + 1);
    // replicas 1 + web-x in flight: zone-a is full.
    expect(step.result.subset).toBe('zone-b');
    const next = createPod(webhookOnly, create({ pod: '', generatedKey: 'g', recorded: { resourceVersion: '12', accounts: [{ ...spec[0]!, replicas: 0 }, spec[1]!] } }), T0 + 1).next!;
    expect(next.recordedVersion).toBe('12');
    expect(next.versions.v![0]!.creatingPods).toEqual({ 'web-x': T0, g: T0 + 1 });
  });

  it('is not taken twice, nor when older than the one taken', () => {
    const took = { ...webhookOnly, recordedVersion: '12', versions: { v: full } };
    const stale = [{ ...spec[0]!, replicas: 0 }, spec[1]!];
    expect(createPod(took, create({ recorded: { resourceVersion: '12', accounts: stale } }), T0).result.subset).toBe('zone-b');
    expect(createPod(took, create({ recorded: { resourceVersion: '9', accounts: stale } }), T0).result.subset).toBe('zone-b');
    expect(createPod(took, create({ recorded: { resourceVersion: '13', accounts: stale } }), T0).result.subset).toBe('zone-a');
  });

  it('is not read once the controller has resynced the ledger', () => {
    const resynced = { ...webhookOnly, resyncedAt: T0 };
    expect(createPod(resynced, create(), T0 + 1).result.subset).toBe('zone-a');
  });

  it('applies to deletions too', () => {
    const step = deletePod(webhookOnly, { uid: UID, version: 'v', seed: full, workloadReplicas: { value: 0, observedAt: 0 }, recorded: { resourceVersion: '12', accounts: full }, pod: 'web-0', subset: 'zone-a' }, T0 + 1);
    expect(step.next?.versions.v![0]).toMatchObject({ replicas: 2, deletingPods: { 'web-0': T0 + 1 } });
  });
});

describe('takeRecorded', () => {
  it('gives way to the status’s deletions and keeps subsets the status lacks', () => {
    const held: SubsetAccount[] = [{ ...spec[0]!, creatingPods: { p: 1 }, deletingPods: { q: 2 } }, spec[1]!, { name: 'zone-c', maxReplicas: 1, replicas: 1, creatingPods: {}, deletingPods: {} }];
    const recorded: SubsetAccount[] = [{ ...spec[0]!, replicas: 3, deletingPods: { p: 5 } }, spec[1]!];
    expect(takeRecorded(held, recorded)).toEqual([{ ...spec[0]!, replicas: 3, deletingPods: { p: 5 } }, spec[1]!, held[2]]);
  });
});

describe('isNewerVersion', () => {
  it.each([['10', '9', true], ['9', '10', false], ['10', '10', false], ['10', undefined, true], ['b', 'a', true], ['a', 'a', false]] as const)('%s over %s: %s', (v, than, want) => {
    expect(isNewerVersion(v, than)).toBe(want);
  });
});
