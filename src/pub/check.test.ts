import { describe, expect, it } from 'vitest';
import { checkBudget, PUB_STALE_AFTER_MS, type PubCheckRequest } from './check.js';
import type { RecordedBudget } from './recorded.js';
import { budget } from './test-builders.js';
import { exhaustedMessage, mapTooBigMessage } from './types.js';

const req = (over: Partial<PubCheckRequest> = {}): PubCheckRequest => ({ pub: 'web', pod: 'pod-1', operation: 'DELETE', dryRun: false, ...over });
const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`gone-${i}`, 0]));

describe('checkBudget', () => {
  it.each([
    ['nothing desired allows', budget({ desiredAvailable: 0, unavailableAllowed: 0 }), req(), true, 'nothing-desired'],
    ['unprotected operation allows', budget({ unavailableAllowed: 0, protectOperations: ['UPDATE'] }), req(), true, 'operation-unprotected'],
    ['pending pod allows without spending', budget({ unavailableAllowed: 0, disruptedPods: { 'pod-1': 0 } }), req(), true, 'already-pending'],
    ['pod made unavailable allows', budget({ unavailableAllowed: 0, unavailablePods: { 'pod-1': 0 } }), req(), true, 'already-pending'],
    ['allowance spent', budget(), req(), true, 'spent'],
    ['exhausted denies', budget({ unavailableAllowed: 0 }), req(), false, 'exhausted'],
    ['map too big denies', budget({ disruptedPods: many(2001) }), req(), false, 'too-many-pending'],
    ['2000 pending still allows', budget({ disruptedPods: many(2000) }), req(), true, 'spent'],
    ['eviction of a pod not seen yet spends', budget(), req({ pod: 'new', operation: 'EVICT', podFromLedger: true }), true, 'spent'],
    ['eviction of a pod not seen yet, exhausted, denies', budget({ unavailableAllowed: 0 }), req({ pod: 'new', operation: 'EVICT', podFromLedger: true }), false, 'exhausted'],
    ['eviction of an unprotected pod allows', budget({ unavailableAllowed: 0, pods: { x: 'unprotected' } }), req({ pod: 'x', operation: 'EVICT', podFromLedger: true }), true, 'pod-unprotected'],
    ['eviction of an unavailable pod allows', budget({ unavailableAllowed: 0, pods: { x: 'unavailable' } }), req({ pod: 'x', operation: 'EVICT', podFromLedger: true }), true, 'pod-unavailable'],
    ['eviction of an available pod spends', budget(), req({ operation: 'EVICT', podFromLedger: true }), true, 'spent'],
    ['never synced denies', undefined, req(), false, 'unknown-budget'],
    ['stale denies', budget({ resyncedAt: -PUB_STALE_AFTER_MS - 1 }), req(), false, 'stale-budget'],
  ])('%s', (_name, state, r, allowed, why) => {
    const { result } = checkBudget(state, r, 0);
    expect(result.allowed).toBe(allowed);
    expect(result.why).toBe(why);
  });

  it('spends one and records DELETE/EVICT as disrupted, UPDATE as unavailable', () => {
    const del = checkBudget(budget(), req(), 5);
    expect(del.next?.unavailableAllowed).toBe(1);
    expect(del.next?.disruptedPods).toEqual({ 'pod-1': 5 });
    const upd = checkBudget(budget(), req({ operation: 'UPDATE' }), 5);
    expect(upd.next?.unavailablePods).toEqual({ 'pod-1': 5 });
    expect(upd.next?.disruptedPods).toEqual({});
  });

  it('a dry run decides without storing', () => {
    expect(checkBudget(budget(), req({ dryRun: true }), 0)).toEqual({ result: { allowed: true, why: 'spent', unavailableAllowed: 1 } });
    expect(checkBudget(budget({ unavailableAllowed: 0 }), req({ dryRun: true }), 0).next).toBeUndefined();
  });

  it('denies with the spec messages and records the refusal', () => {
    const out = checkBudget(budget({ unavailableAllowed: 0 }), req(), 7);
    expect(out.result).toEqual({ allowed: false, why: 'exhausted', message: 'podunavailablebudget.policy.kruise.io "web" is forbidden: pub unavailable allowed is negative' });
    expect(out.next?.refusals['pod-1']).toMatchObject({ operation: 'DELETE', count: 1, firstAt: 7 });
    expect(exhaustedMessage('web')).toBe(out.result.allowed ? '' : out.result.message);
    expect(mapTooBigMessage('a')).toBe(
      'podunavailablebudget.policy.kruise.io "a" is forbidden: DisruptedPods and UnavailablePods map too big - too many unavailable not confirmed by PUB controller',
    );
  });

  it('names the PUB and the staleness', () => {
    const stale = checkBudget(budget({ resyncedAt: 0 }), req(), 400_000).result;
    expect(stale.allowed ? '' : stale.message).toMatch(/^podunavailablebudget "web": its budget was last synced 400s ago \(limit 180s\)/);
    const unknown = checkBudget(undefined, req({ pub: 'api' }), 0).result;
    expect(unknown.allowed ? '' : unknown.message).toMatch(/^podunavailablebudget "api": its budget is not known yet/);
  });

  describe('a ledger never resynced for this PUB', () => {
    const recorded = (over: Partial<RecordedBudget> = {}): RecordedBudget => ({
      uid: 'uid-web', generation: 1, protectOperations: ['UPDATE', 'DELETE', 'EVICT'], unavailableAllowed: 1, desiredAvailable: 2,
      currentAvailable: 3, totalReplicas: 3, disruptedPods: {}, unavailablePods: {}, ...over,
    });

    it('is seeded from the recorded status and spends from it, as OpenKruise decides', () => {
      const first = checkBudget(undefined, req({ recorded: recorded() }), 7);
      expect(first.result).toEqual({ allowed: true, why: 'spent', unavailableAllowed: 0 });
      expect(first.next).toMatchObject({ uid: 'uid-web', unavailableAllowed: 0, desiredAvailable: 2, totalReplicas: 3, disruptedPods: { 'pod-1': 7 }, resyncedAt: 7 });
      // The next check decides on the ledger's state, not on the (older) recorded status.
      const second = checkBudget(first.next, req({ pod: 'pod-2', recorded: recorded() }), 8);
      expect(second.result).toMatchObject({ allowed: false, why: 'exhausted', message: exhaustedMessage('web') });
    });

    it.each([
      ['recorded allowance 0 refuses', recorded({ unavailableAllowed: 0 }), false, 'exhausted'],
      ['recorded disruption of this pod allows without spending', recorded({ unavailableAllowed: 0, disruptedPods: { 'pod-1': 1 } }), true, 'already-pending'],
      ['recorded desiredAvailable 0 allows', recorded({ unavailableAllowed: 0, desiredAvailable: 0 }), true, 'nothing-desired'],
    ])('%s', (_name, r, allowed, why) => {
      const { result, next } = checkBudget(undefined, req({ recorded: r }), 0);
      expect(result).toMatchObject({ allowed, why });
      expect(next?.uid).toBe('uid-web');
    });

    it('a dry run seeds nothing', () => {
      expect(checkBudget(undefined, req({ recorded: recorded(), dryRun: true }), 0).next).toBeUndefined();
    });

    it('a ledger held for an earlier PUB of the same name is not this one’s budget', () => {
      const old = budget({ uid: 'uid-old', unavailableAllowed: 5 });
      expect(checkBudget(old, req({ uid: 'uid-web' }), 0).result.why).toBe('unknown-budget');
      expect(checkBudget(old, req({ recorded: recorded({ unavailableAllowed: 0 }) }), 0).result.why).toBe('exhausted');
      // The resynced ledger of this PUB wins over its recorded status.
      expect(checkBudget(budget(), req({ recorded: recorded({ unavailableAllowed: 0 }) }), 0).result.why).toBe('spent');
    });
  });
});
