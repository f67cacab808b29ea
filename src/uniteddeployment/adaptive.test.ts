import { describe, expect, it } from 'vitest';
import { adaptiveState, pendingTimeout } from './adaptive.js';
import type { Pod } from '../workload/pods.js';
import type { UnitedDeploymentSpecLike as UnitedDeploymentSpec } from './types.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const spec: UnitedDeploymentSpec = { topology: { scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 2, unschedulableDuration: 10 } } } };
const pending = (name: string, unschedulable = true): Pod =>
  ({
    metadata: { name, namespace: 'ns', creationTimestamp: new Date(T0).toISOString() },
    spec: { containers: [] },
    status: { phase: 'Pending', conditions: unschedulable ? [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] : [] },
  }) as unknown as Pod;

describe('pendingTimeout', () => {
  it('counts from creation, only for pods the scheduler called unschedulable', () => {
    expect(pendingTimeout(pending('p'), 2000, T0 + 500)).toEqual({ timedOut: false, afterMs: 1500 });
    expect(pendingTimeout(pending('p'), 2000, T0 + 2500)).toEqual({ timedOut: true });
    expect(pendingTimeout(pending('p', false), 2000, T0 + 2500)).toEqual({ timedOut: false });
  });
});

describe('adaptiveState', () => {
  it('wakes at the first deadline, then marks the subset for unschedulableDuration, then recovers', () => {
    const early = adaptiveState(spec, { replicas: 2, readyReplicas: 0 }, [pending('p')], undefined, T0 + 500);
    expect(early).toEqual({ unschedulable: false, wakeInMs: 1500 });
    const marked = adaptiveState(spec, { replicas: 2, readyReplicas: 0 }, [pending('p')], undefined, T0 + 3000);
    expect(marked).toMatchObject({ unschedulable: true, wakeInMs: 10_000, condition: { type: 'Schedulable', status: 'False', reason: 'reschedule', message: 'timeout pending pods found', lastTransitionTime: '2026-01-01T00:00:03Z' } });
    const during = adaptiveState(spec, { replicas: 0, readyReplicas: 0 }, [], marked.condition, T0 + 8000);
    expect(during).toEqual({ unschedulable: true, condition: marked.condition, wakeInMs: 5000 });
    const after = adaptiveState(spec, { replicas: 0, readyReplicas: 0 }, [], marked.condition, T0 + 13_000);
    expect(after).toMatchObject({ unschedulable: false, condition: { status: 'True', reason: 'recover', message: 'unschedulable subset recovered after 10.000000 seconds' } });
  });
});
