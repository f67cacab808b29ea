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
});
