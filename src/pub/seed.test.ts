import { describe, expect, it } from 'vitest';
import { checkBudget } from './check.js';
import type { RecordedBudget } from './recorded.js';
import { resyncBudget } from './resync.js';
import { mergeRecorded, seedBudget } from './seed.js';
import { budget, facts, resyncReq } from './test-builders.js';
import { PUB_OPERATIONS } from './types.js';

const NOW = 100_000;
// OpenKruise admitted evicting pod-0 a moment ago and wrote it to status: nothing left to spend.
const recorded = (over: Partial<RecordedBudget> = {}): RecordedBudget => ({
  uid: 'uid-web', generation: 1, protectOperations: [...PUB_OPERATIONS], unavailableAllowed: 0, desiredAvailable: 2, currentAvailable: 2, totalReplicas: 3,
  disruptedPods: { 'pod-0': NOW - 2_000 }, unavailablePods: {}, ...over,
});
// Our edge resynced before that admission: all three pods available, one disruption allowed.
const held = () => budget({ desiredAvailable: 2, totalReplicas: 3, currentAvailable: 3, unavailableAllowed: 1, pods: facts(3), resyncedAt: NOW - 10_000, observedAt: NOW - 10_000 });
const evict = (pod: string) => ({ pub: 'web', pod, operation: 'EVICT' as const, dryRun: false, podFromLedger: true, uid: 'uid-web' });

describe('seeding a PUB ledger from a recorded status', () => {
  it('adds the recorded drain to a ledger that holds the PUB, spending its allowance, so the next eviction is refused', () => {
    const { result, next } = seedBudget(held(), { pub: 'web', recorded: recorded() }, NOW);
    expect(result).toEqual({ outcome: 'merged', unavailableAllowed: 0, was: 1, added: ['pod-0'] });
    expect(next?.disruptedPods).toEqual({ 'pod-0': NOW - 2_000 });
    expect(checkBudget(next, evict('pod-1'), NOW).result).toMatchObject({ allowed: false, why: 'exhausted' });
    // Without the seed the ledger would have let it through.
    expect(checkBudget(held(), evict('pod-1'), NOW).result).toMatchObject({ allowed: true, why: 'spent' });
  });

  it('keeps refusing after the first resync while the pod is there, and allows once it is gone', () => {
    const { next } = seedBudget(held(), { pub: 'web', recorded: recorded() }, NOW);
    const { next: resynced } = resyncBudget(next, resyncReq(facts(3), 2, { observedAt: NOW + 1_000 }), NOW + 1_000);
    expect(resynced.unavailableAllowed).toBe(0);
    expect(checkBudget(resynced, evict('pod-1'), NOW + 1_000).result).toMatchObject({ allowed: false });
    const { next: done } = resyncBudget(resynced, resyncReq({ 'pod-1': 'available', 'pod-2': 'available' }, 1, { observedAt: NOW + 5_000 }), NOW + 5_000);
    expect(done.disruptedPods).toEqual({});
    expect(checkBudget(done, evict('pod-1'), NOW + 5_000).result).toMatchObject({ allowed: true });
  });

  it('never loosens: the lower allowance wins, held entries stay, a shared entry keeps the later time', () => {
    const mine = budget({ unavailableAllowed: 0, disruptedPods: { 'pod-3': NOW - 1_000, 'pod-0': NOW - 5_000 }, pods: facts(10) });
    const { state, added } = mergeRecorded(mine, recorded({ unavailableAllowed: 4, disruptedPods: { 'pod-0': NOW - 2_000 } }), NOW);
    expect(added).toEqual([]);
    expect(state.unavailableAllowed).toBe(0);
    expect(state.disruptedPods).toEqual({ 'pod-3': NOW - 1_000, 'pod-0': NOW - 2_000 });
    expect(mergeRecorded(budget({ unavailableAllowed: 5 }), recorded({ unavailableAllowed: 2, disruptedPods: {} }), NOW).state.unavailableAllowed).toBe(2);
  });

  it('leaves out entries past their window and those the last observation saw done; in-place updates count too', () => {
    const mine = budget({ unavailableAllowed: 2, observedAt: NOW - 3_000, pods: { ...facts(10), 'pod-1': 'unavailable' } });
    const { state, added } = mergeRecorded(mine, recorded({
      unavailableAllowed: 5,
      disruptedPods: { 'pod-0': NOW - 30_000, 'pod-1': NOW - 4_000, 'pod-2': NOW - 1_000 },
      unavailablePods: { 'pod-4': NOW - 9_000, 'pod-5': NOW - 11_000 },
    }), NOW);
    expect(added).toEqual(['pod-2', 'pod-4']);
    expect(state.unavailableAllowed).toBe(0);
    expect(state.unavailablePods).toEqual({ 'pod-4': NOW - 9_000 });
  });

  it('a ledger without the PUB (or for an earlier incarnation) is seeded from the status; our own status never seeds one', () => {
    expect(seedBudget(undefined, { pub: 'web', recorded: recorded() }, NOW)).toMatchObject({ result: { outcome: 'seeded', unavailableAllowed: 0, added: ['pod-0'] }, next: { uid: 'uid-web', unavailableAllowed: 0, resyncedAt: NOW } });
    expect(seedBudget(budget({ uid: 'old' }), { pub: 'web', recorded: recorded() }, NOW).result.outcome).toBe('seeded');
    expect(seedBudget(undefined, { pub: 'web', recorded: recorded(), ownStatus: true }, NOW)).toEqual({ result: { outcome: 'skipped', added: [] } });
    expect(seedBudget(held(), { pub: 'web', recorded: recorded(), ownStatus: true }, NOW).result.outcome).toBe('merged');
  });

  it('a second seed changes nothing', () => {
    const { next } = seedBudget(held(), { pub: 'web', recorded: recorded() }, NOW);
    expect(seedBudget(next, { pub: 'web', recorded: recorded() }, NOW + 1)).toEqual({ result: { outcome: 'unchanged', unavailableAllowed: 0, added: [] } });
  });

  it('a malformed request is a clear error', () => {
    expect(() => seedBudget(held(), { pub: 'web' } as never, NOW)).toThrow(/needs "pub" and "recorded"/);
    expect(() => seedBudget(held(), { pub: 'web', recorded: { ...recorded(), disruptedPods: { a: 'x' } } } as never, NOW)).toThrow(/pod → time/);
  });
});
