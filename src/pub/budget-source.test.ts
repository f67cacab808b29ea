import { describe, expect, it } from 'vitest';
import { pubDisruptionBudgets } from './budget-source.js';
import { pub, readyPod } from './test-builders.js';
import type { PodUnavailableBudget } from './types.js';

const withStatus = (allowed: number, over: Partial<PodUnavailableBudget> = {}): PodUnavailableBudget => ({
  ...pub('web'),
  status: { observedGeneration: 1, unavailableAllowed: allowed, currentAvailable: 10, desiredAvailable: 8, totalReplicas: 10, disruptedPods: { gone: '2024-01-01T00:00:00Z' } },
  ...over,
});
const source = (p: PodUnavailableBudget) => pubDisruptionBudgets({ budgets: [p], pods: [], now: new Date(0) });

describe('pubDisruptionBudgets', () => {
  it('spends the allowance across one plan', () => {
    const b = source(withStatus(2));
    expect([1, 2, 3].map((i) => b.requestUpdate(readyPod(`p${i}`, { pub: 'web' })).allowed)).toEqual([true, true, false]);
  });

  it.each([
    ['no related-pub', readyPod('p'), withStatus(0), true],
    ['not ready', readyPod('p', { pub: 'web', ready: false }), withStatus(0), true],
    ['already disrupted', readyPod('gone', { pub: 'web' }), withStatus(0), true],
    ['UPDATE not protected', readyPod('p', { pub: 'web' }), withStatus(0, { metadata: { ...pub('web').metadata, annotations: { 'kruise.io/pub-protect-operations': 'DELETE' } } }), true],
    ['status of an older generation', readyPod('p', { pub: 'web' }), withStatus(5, { metadata: { ...pub('web').metadata, generation: 2 } }), false],
    ['no status', readyPod('p', { pub: 'web' }), pub('web'), false],
  ])('%s', (_name, pod, p, allowed) => {
    expect(source(p).requestUpdate(pod).allowed).toBe(allowed);
  });

  describe('pods made unavailable since the status was written', () => {
    // 4 pods, 1 may be unavailable (maxUnavailable 1), or 2 (maxUnavailable 2).
    const status = (allowed: number, currentAvailable: number, desiredAvailable: number): PodUnavailableBudget =>
      withStatus(allowed, { status: { observedGeneration: 1, unavailableAllowed: allowed, currentAvailable, desiredAvailable, totalReplicas: 4 } });
    const pods = (unready: number) => [0, 1, 2, 3].map((i) => readyPod(`p${i}`, { pub: 'web', ready: i >= unready }));
    const ask = (p: PodUnavailableBudget, observed: ReturnType<typeof pods>) => pubDisruptionBudgets({ budgets: [p], pods: observed, now: new Date(0) }).requestUpdate(observed[3]!).allowed;

    it('one the status counted all available is taken off the allowance (an in-place update it has not seen)', () => {
      expect(ask(status(1, 4, 3), pods(1))).toBe(false);
      expect(ask(status(2, 4, 2), pods(1))).toBe(true);
    });

    it('one the status already counts is not taken off twice', () => {
      expect(ask(status(1, 3, 2), pods(1))).toBe(true);
      expect(ask(status(0, 3, 3), pods(1))).toBe(false);
    });

    it('terminating pods and pods of other PUBs are not counted', () => {
      const observed = pods(0);
      const others = [{ ...observed[0]!, metadata: { ...observed[0]!.metadata, deletionTimestamp: '2024-01-01T00:00:00Z' } }, readyPod('q', { pub: 'other', ready: false }), ...observed.slice(1)];
      expect(pubDisruptionBudgets({ budgets: [status(1, 4, 3)], pods: others, now: new Date(0) }).requestUpdate(observed[3]!).allowed).toBe(true);
    });
  });
});
