import { describe, expect, it } from 'vitest';
import type { PubBudgetState } from '../budget-state.js';
import type { PodUnavailableBudgetStatus } from '../types.js';
import { SHOWN_FOR_MS, statusOf, statusPatch, withAdmitted } from './status.js';

const T = Date.parse('2024-01-01T00:00:00Z');
const state = (disruptedPods: Record<string, number> = {}, unavailablePods: Record<string, number> = {}): PubBudgetState => ({
  pub: 'web', uid: 'u', generation: 1, desiredAvailable: 2, totalReplicas: 3, currentAvailable: 3, unavailableAllowed: 1, protectOperations: ['DELETE'],
  pods: {}, disruptedPods, unavailablePods, resyncedAt: T, observedAt: T, refusals: {},
});
const scalars = { observedGeneration: 1, unavailableAllowed: 1, currentAvailable: 3, desiredAvailable: 2, totalReplicas: 3 };
type Stored = Partial<PodUnavailableBudgetStatus>;

describe('statusOf', () => {
  it('leaves empty maps out, as omitempty does', () => {
    expect(statusOf(state())).toEqual(scalars);
    expect(Object.keys(statusOf(state()))).not.toContain('disruptedPods');
  });

  it('writes pending pods with their times', () => {
    expect(statusOf(state({ p1: T }, { p2: T }))).toEqual({ ...scalars, disruptedPods: { p1: '2024-01-01T00:00:00Z' }, unavailablePods: { p2: '2024-01-01T00:00:00Z' } });
  });
});

describe('statusPatch', () => {
  it.each<[string, Stored | undefined, PubBudgetState, Record<string, unknown> | undefined]>([
    ['a first status: no empty maps', undefined, state(), scalars],
    ['current: nothing to write', scalars, state(), undefined],
    ['current with pending pods: nothing to write', { ...scalars, disruptedPods: { p1: '2024-01-01T00:00:00Z' } }, state({ p1: T }), undefined],
    ['a pod added', scalars, state({ p1: T }), { ...scalars, disruptedPods: { p1: '2024-01-01T00:00:00Z' } }],
    ['one of two pods gone: null for it', { ...scalars, disruptedPods: { p1: '2024-01-01T00:00:00Z', p2: '2024-01-01T00:00:00Z' } }, state({ p2: T }),
      { ...scalars, disruptedPods: { p1: null, p2: '2024-01-01T00:00:00Z' } }],
    ['the last pod gone: the map is removed (null), not left as {}', { ...scalars, disruptedPods: { p1: '2024-01-01T00:00:00Z' }, unavailablePods: { p2: '2024-01-01T00:00:00Z' } }, state(),
      { ...scalars, disruptedPods: null, unavailablePods: null }],
    ['a stored {} is removed', { ...scalars, disruptedPods: {}, unavailablePods: {} }, state(), { ...scalars, disruptedPods: null, unavailablePods: null }],
  ])('%s', (_name, current, s, want) => {
    expect(statusPatch(current, statusOf(s))).toEqual(want);
  });

  it('merged into the stored status, gives what statusOf describes', () => {
    const stored: Stored = { ...scalars, disruptedPods: { p1: '2024-01-01T00:00:00Z' } };
    const patch = statusPatch(stored, statusOf(state()))!;
    // RFC 7386: null deletes the key, anything else replaces it.
    const merged = Object.fromEntries(Object.entries({ ...stored, ...patch }).filter(([, v]) => v !== null));
    expect(merged).toEqual(statusOf(state()));
  });
});

describe('withAdmitted', () => {
  it('keeps a disruption this run confirmed (the pod is gone) readable for a moment after its admission', () => {
    const admitted = state({ web0: T });
    const shown = withAdmitted(statusOf(state()), admitted, scalars, T + 100);
    expect(shown).toEqual({ status: { ...scalars, disruptedPods: { web0: '2024-01-01T00:00:00Z' } }, added: true });
    // A run a second later: the ledger has dropped it, status still shows it, and it is still young.
    expect(withAdmitted(statusOf(state()), state(), shown.status, T + 1_000)).toEqual(shown);
    // Past the window it goes.
    expect(withAdmitted(statusOf(state()), state(), shown.status, T + SHOWN_FOR_MS)).toEqual({ status: scalars, added: false });
  });

  it('shows a disruption status never showed, however old (the controller was away)', () => {
    expect(withAdmitted(statusOf(state()), state({ web0: T }), scalars, T + 60_000).added).toBe(true);
  });

  it('adds nothing without a ledger, or for entries the status keeps anyway', () => {
    expect(withAdmitted(statusOf(state()), undefined, undefined, T)).toEqual({ status: scalars, added: false });
    expect(withAdmitted(statusOf(state({}, { p: T })), state({}, { p: T }), scalars, T).added).toBe(false);
  });
});
