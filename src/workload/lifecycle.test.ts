import { describe, expect, it } from 'vitest';
import { isPodAllHooked, isPodHooked, lifecycleState, withLifecycleState } from './lifecycle.js';
import { addNotReadyKey, initialKruisePodReady, PRE_DELETE_HOOK_KEY, PRE_UPDATE_HOOK_KEY, removeNotReadyKey } from './pod-readiness.js';
import { deletionCost, sameNodeRanks, scaleDownLess } from './order.js';
import type { Pod } from './pods.js';

const pod = (over: { labels?: Record<string, string>; finalizers?: string[]; node?: string; cost?: string; name?: string; gates?: string[]; conditions?: Pod['status'] extends infer S ? (S extends { conditions?: infer C } ? C : never) : never } = {}): Pod => ({
  metadata: { name: over.name ?? 'p', namespace: 'ns', labels: over.labels ?? {}, ...(over.finalizers ? { finalizers: over.finalizers } : {}), ...(over.cost !== undefined ? { annotations: { 'controller.kubernetes.io/pod-deletion-cost': over.cost } } : {}), creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: { containers: [], ...(over.node ? { nodeName: over.node } : {}), ...(over.gates ? { readinessGates: over.gates.map((conditionType) => ({ conditionType })) } : {}) },
  status: { phase: 'Running', conditions: over.conditions ?? [{ type: 'Ready', status: 'True' }, { type: 'ContainersReady', status: 'True' }] },
});

describe('lifecycle hooks', () => {
  const hook = { labelsHandler: { 'example.io/block': 'true' }, finalizersHandler: ['example.io/f'] };
  it('hooked: any label or finalizer; all hooked: every one', () => {
    expect(isPodHooked(hook, pod({ labels: { 'example.io/block': 'true' } }))).toBe(true);
    expect(isPodAllHooked(hook, pod({ labels: { 'example.io/block': 'true' } }))).toBe(false);
    expect(isPodAllHooked(hook, pod({ labels: { 'example.io/block': 'true' }, finalizers: ['example.io/f'] }))).toBe(true);
    expect(isPodHooked(undefined, pod())).toBe(false);
    expect(isPodAllHooked(undefined, pod())).toBe(false);
  });
  it('a state change stamps the timestamp and, with a handler, puts the hook back on', () => {
    const next = withLifecycleState(pod({ finalizers: ['other'] }), 'PreparingUpdate', new Date('2026-02-03T04:05:06.789Z'), hook);
    expect(lifecycleState(next)).toBe('PreparingUpdate');
    expect(next.metadata.annotations?.['lifecycle.apps.kruise.io/timestamp']).toBe('2026-02-03T04:05:06Z');
    expect(next.metadata.labels?.['example.io/block']).toBe('true');
    expect(next.metadata.finalizers).toEqual(['other', 'example.io/f']);
  });
});

describe('KruisePodReady', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  it('is set True once on pods with the gate; keys make it False with OpenKruise’s message, and True when the last goes', () => {
    expect(initialKruisePodReady(pod(), [], now)).toBeUndefined();
    const gated = pod({ gates: ['KruisePodReady'], conditions: [{ type: 'Ready', status: 'True' }, { type: 'ContainersReady', status: 'True' }, { type: 'KruisePodReady', status: 'True' }] });
    const down = addNotReadyKey(gated, PRE_DELETE_HOOK_KEY, now)!;
    expect(down.find((c) => c.type === 'KruisePodReady')).toMatchObject({ status: 'False', message: '[{"userAgent":"Lifecycle","key":"preDeleteHook"}]' });
    expect(down.find((c) => c.type === 'Ready')?.status).toBe('False');
    const withKey = { ...gated, status: { ...gated.status, conditions: down } };
    expect(addNotReadyKey(withKey, PRE_DELETE_HOOK_KEY, now)).toBeUndefined();
    expect(removeNotReadyKey(withKey, PRE_UPDATE_HOOK_KEY, now)).toBeUndefined();
    expect(removeNotReadyKey(withKey, PRE_DELETE_HOOK_KEY, now)!.find((c) => c.type === 'KruisePodReady')?.status).toBe('True');
  });
});

describe('scale-down order', () => {
  it('reads pod-deletion-cost as Kubernetes does (malformed = 0)', () => {
    expect([deletionCost(pod({ cost: '-5' })), deletionCost(pod({ cost: '07' })), deletionCost(pod({ cost: 'x' })), deletionCost(pod())]).toEqual([-5, 0, 0, 0]);
  });
  it('lower cost first, then more pods on the same node first', () => {
    expect(scaleDownLess(pod({ cost: '1', node: 'a' }), pod({ cost: '5', node: 'a' }))).toBe(true);
    const [a1, a2, b1] = [pod({ name: 'a1', node: 'a' }), pod({ name: 'a2', node: 'a' }), pod({ name: 'b1', node: 'b' })];
    const ranks = sameNodeRanks([a1!, a2!, b1!]);
    const rank = (p: Pod) => ranks.get(p) ?? 0;
    expect([a1, a2, b1].map((p) => rank(p!)).filter((r) => r > 0)).toEqual([1]);
    const crowded = rank(a1!) > 0 ? a1! : a2!;
    expect(scaleDownLess(crowded, b1!, { rank })).toBe(true);
  });
});
