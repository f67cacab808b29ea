import { describe, expect, it } from 'vitest';
import { recordedBudget, seededBudget } from './recorded.js';
import { pub } from './test-builders.js';
import type { PodUnavailableBudget } from './types.js';

const withStatus = (status: Record<string, unknown> | undefined, annotations?: Record<string, string>): PodUnavailableBudget =>
  ({ ...pub('web', undefined, annotations ? { annotations } : {}), ...(status ? { status } : {}) }) as PodUnavailableBudget;

describe('recordedBudget', () => {
  it('reads the counts, the pending maps (RFC 3339 times) and the protected operations', () => {
    const r = recordedBudget(withStatus(
      { observedGeneration: 1, totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1, disruptedPods: { 'web-0': '2026-01-01T00:00:00Z', bad: 'x' } },
      { 'kruise.io/pub-protect-operations': 'DELETE' },
    ));
    expect(r).toEqual({
      uid: 'uid-web', generation: 1, protectOperations: ['DELETE'], unavailableAllowed: 1, desiredAvailable: 2, currentAvailable: 3, totalReplicas: 3,
      disruptedPods: { 'web-0': Date.parse('2026-01-01T00:00:00Z') }, unavailablePods: {},
    });
  });

  it.each([
    ['no status', undefined],
    ['an empty status (created, never counted)', {}],
    ['a count missing', { totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3 }],
    ['a count of the wrong type', { totalReplicas: 3, desiredAvailable: '2', currentAvailable: 3, unavailableAllowed: 1 }],
  ])('records no budget: %s', (_name, status) => {
    expect(recordedBudget(withStatus(status))).toBeUndefined();
  });

  it('records no budget from a status our own controller wrote: it may lag our own admissions', () => {
    const status = { observedGeneration: 1, totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1 };
    const ours = { ...withStatus(status), statusWriter: 'kruise-serverless' } as PodUnavailableBudget;
    const openKruise = { ...withStatus(status), statusWriter: 'kruise-manager' } as PodUnavailableBudget;
    expect(recordedBudget(ours)).toBeUndefined();
    expect(recordedBudget(openKruise)?.unavailableAllowed).toBe(1);
  });

  it('seeds a ledger state that trusts the status from now on', () => {
    const r = recordedBudget(withStatus({ totalReplicas: 3, desiredAvailable: 2, currentAvailable: 2, unavailableAllowed: 0, unavailablePods: { a: '2026-01-01T00:00:00Z' } }))!;
    expect(seededBudget('web', r, 42)).toMatchObject({ pub: 'web', uid: 'uid-web', unavailableAllowed: 0, pods: {}, unavailablePods: { a: Date.parse('2026-01-01T00:00:00Z') }, resyncedAt: 42, refusals: {} });
  });
});
