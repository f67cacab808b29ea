import { describe, expect, it } from 'vitest';
import { checkBudget, PUB_STALE_AFTER_MS, type PubCheckRequest } from './check.js';
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
});
