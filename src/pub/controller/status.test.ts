import { describe, expect, it } from 'vitest';
import type { PubBudgetState } from '../budget-state.js';
import type { PodUnavailableBudgetStatus } from '../types.js';
import { statusOf, statusPatch, withAdmitted } from './status.js';

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
  it('shows a disruption the ledger admitted once, though this run confirmed it (the pod is gone)', () => {
    const admitted = state({ web0: T });
    const shown = withAdmitted(statusOf(state()), admitted, scalars);
    expect(shown).toEqual({ status: { ...scalars, disruptedPods: { web0: '2024-01-01T00:00:00Z' } }, added: true });
    // The next run: status shows it already, so it goes.
    expect(withAdmitted(statusOf(state()), state(), shown.status)).toEqual({ status: scalars, added: false });
    expect(withAdmitted(statusOf(state()), admitted, shown.status)).toEqual({ status: scalars, added: false });
  });

  it('adds nothing without a ledger, or for entries the status keeps anyway', () => {
    expect(withAdmitted(statusOf(state()), undefined, undefined)).toEqual({ status: scalars, added: false });
    expect(withAdmitted(statusOf(state({}, { p: T })), state({}, { p: T }), scalars).added).toBe(false);
  });
});
