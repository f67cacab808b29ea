import { describe, expect, it } from 'vitest';
import { resyncBudget } from './resync.js';
import { budget, facts, resyncReq } from './test-builders.js';

describe('resyncBudget', () => {
  it('computes the allowance from the observation (maxUnavailable 2 of 10)', () => {
    const { next } = resyncBudget(undefined, resyncReq(facts(10), 8), 1_000);
    expect(next).toMatchObject({ currentAvailable: 10, unavailableAllowed: 2, resyncedAt: 1_000, disruptedPods: {} });
  });

  it('never goes below zero', () => {
    expect(resyncBudget(undefined, resyncReq(facts(5, { x: 'unavailable' }), 8), 0).next.unavailableAllowed).toBe(0);
  });

  it.each([
    ['pod still available, recent: kept and not counted', 'available', 1_000, true, 1],
    ['pod still available after 20 s: expired', 'available', 21_000, false, 2],
    ['pod gone: counted by the observation', undefined, 1_000, false, 1],
    ['pod unavailable: counted by the observation', 'unavailable', 1_000, false, 1],
  ] as const)('disrupted %s', (_name, fact, now, kept, allowed) => {
    const pods = facts(9, fact ? { victim: fact } : {});
    const state = budget({ disruptedPods: { victim: 0 } });
    const { next, result } = resyncBudget(state, resyncReq(pods, 8), now);
    expect('victim' in next.disruptedPods).toBe(kept);
    expect(next.unavailableAllowed).toBe(allowed);
    expect(result.expired.disrupted).toEqual(now > 20_000 && fact === 'available' ? ['victim'] : []);
  });

  it('expires in-place updates after 10 s', () => {
    const state = budget({ unavailablePods: { 'pod-1': 0, 'pod-2': 5_000 } });
    const { next, result } = resyncBudget(state, resyncReq(facts(10), 8), 12_000);
    expect(next.unavailablePods).toEqual({ 'pod-2': 5_000 });
    expect(result.expired.unavailable).toEqual(['pod-1']);
    expect(next.unavailableAllowed).toBe(1);
  });

  it('keeps checks admitted after the LIST, so they are not counted twice', () => {
    // LIST saw 10 available; meanwhile two deletions were allowed; the resync must not re-grant them.
    const state = budget({ unavailableAllowed: 0, disruptedPods: { 'pod-1': 900, 'pod-2': 950 } });
    const { next } = resyncBudget(state, resyncReq(facts(10), 8, { observedAt: 800 }), 1_000);
    expect(next.unavailableAllowed).toBe(0);
    expect(next.currentAvailable).toBe(8);
  });

  it('clears only the refusals the controller acknowledged, keeping newer ones', () => {
    const refusals = {
      seen: { operation: 'EVICT' as const, count: 1, firstAt: 1, lastAt: 2, message: 'm' },
      again: { operation: 'EVICT' as const, count: 2, firstAt: 1, lastAt: 5, message: 'm' },
      fresh: { operation: 'DELETE' as const, count: 1, firstAt: 6, lastAt: 6, message: 'm' },
    };
    const { next } = resyncBudget(budget({ refusals }), { ...resyncReq(facts(10), 8), acknowledgedRefusals: { seen: 2, again: 3 } }, 0);
    expect(Object.keys(next.refusals).sort()).toEqual(['again', 'fresh']);
  });

  it('hands over refusals and clears them', () => {
    const refusals = { 'pod-3': { operation: 'EVICT' as const, count: 4, firstAt: 1, lastAt: 2, message: 'm' } };
    const { next, result } = resyncBudget(budget({ refusals }), resyncReq(facts(10), 8), 0);
    expect(result.refusals).toEqual(refusals);
    expect(next.refusals).toEqual({});
  });

  it('a recreated PUB (new uid) starts afresh', () => {
    const state = budget({ uid: 'old', disruptedPods: { 'pod-1': 0 } });
    expect(resyncBudget(state, resyncReq(facts(10), 8), 1).next.disruptedPods).toEqual({});
  });
});

describe('resyncBudget: taking over what the status records', () => {
  // OpenKruise allowed pod-1's eviction 5 s before the edge's ledger first saw this PUB.
  const T = 100_000;
  const recorded = { disruptedPods: { 'pod-1': T - 5_000 } };

  it('a fresh ledger adopts the status\'s disruptions: the pod keeps counting against the budget', () => {
    const { next } = resyncBudget(undefined, resyncReq(facts(10), 8, { recorded }), T);
    expect(next.disruptedPods).toEqual({ 'pod-1': T - 5_000 });
    expect(next).toMatchObject({ currentAvailable: 9, unavailableAllowed: 1 });
    // Without the status's record the budget would hand pod-1's room out again.
    expect(resyncBudget(undefined, resyncReq(facts(10), 8), T).next.unavailableAllowed).toBe(2);
  });

  it('until it expires (OpenKruise DeletionTimeout, 20 s), with a NotDeleted for it', () => {
    const first = resyncBudget(undefined, resyncReq(facts(10), 8, { recorded }), T).next;
    const { next, result } = resyncBudget(first, resyncReq(facts(10), 8, { recorded }), T + 15_001);
    expect(next.disruptedPods).toEqual({});
    expect(next.unavailableAllowed).toBe(2);
    expect(result.expired.disrupted).toEqual(['pod-1']);
  });

  it('or until the observation shows the pod gone', () => {
    const pods = facts(10);
    delete pods['pod-1'];
    expect(resyncBudget(undefined, resyncReq(pods, 8, { recorded }), T).next).toMatchObject({ disruptedPods: {}, currentAvailable: 9, unavailableAllowed: 1 });
  });

  it('in-place updates too, with their 10 s', () => {
    const { next } = resyncBudget(undefined, resyncReq(facts(10), 8, { recorded: { unavailablePods: { 'pod-2': T - 9_000, 'pod-3': T - 11_000 } } }), T);
    expect(next.unavailablePods).toEqual({ 'pod-2': T - 9_000 });
    expect(next.unavailableAllowed).toBe(1);
  });

  it('is not counted twice once the ledger has it', () => {
    const held = budget({ disruptedPods: { 'pod-1': T - 5_000 } });
    const { next } = resyncBudget(held, resyncReq(facts(10), 8, { recorded }), T);
    expect(next.disruptedPods).toEqual({ 'pod-1': T - 5_000 });
    expect(next).toMatchObject({ currentAvailable: 9, unavailableAllowed: 1 });
  });

  it('a ledger with a record keeps its own entries and adds those only the status records, as OpenKruise starts every sync from status', () => {
    const held = budget({ disruptedPods: { 'pod-2': T - 1_000 } });
    expect(resyncBudget(held, resyncReq(facts(10), 8, { recorded }), T).next).toMatchObject({ disruptedPods: { 'pod-1': T - 5_000, 'pod-2': T - 1_000 }, unavailableAllowed: 0 });
  });

  it('an entry only the status still shows, expired, is dropped without being reported again (the ledger reported it)', () => {
    const held = budget({ disruptedPods: {} });
    const stale = { disruptedPods: { 'pod-1': T - 30_000 } };
    const { result, next } = resyncBudget(held, resyncReq(facts(10), 8, { recorded: stale }), T);
    expect(next).toMatchObject({ disruptedPods: {}, unavailableAllowed: 2 });
    expect(result.expired.disrupted).toEqual([]);
  });

  it('a ledger of a deleted PUB of the same name counts as none', () => {
    const old = budget({ uid: 'old-uid', disruptedPods: { 'pod-7': T } });
    expect(resyncBudget(old, resyncReq(facts(10), 8, { recorded }), T).next.disruptedPods).toEqual({ 'pod-1': T - 5_000 });
  });
});
