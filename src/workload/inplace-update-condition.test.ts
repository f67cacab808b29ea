import { describe, expect, it } from 'vitest';
import { hasInPlaceUpdateReadinessGate, inPlaceUpdateNotReadyWrite, inPlaceUpdateReadyWrite, withInPlaceUpdateReadinessGate } from './inplace-update-condition.js';
import type { Pod, PodCondition } from './pods.js';

const NOW = new Date('2024-05-01T10:00:00Z');
const GATE = { conditionType: 'InPlaceUpdateReady' };
const pod = (conditions: PodCondition[], gates = [GATE]): Pod => ({
  metadata: { name: 'p', namespace: 'ns', resourceVersion: '7' },
  spec: { containers: [{ name: 'c', image: 'i' }], readinessGates: gates },
  status: { conditions },
});

// pkg/util/inplaceupdate/inplace_update.go InjectReadinessGate.
describe('withInPlaceUpdateReadinessGate', () => {
  it('appends the gate once', () => {
    const spec = { containers: [], readinessGates: [{ conditionType: 'other' }] };
    const once = withInPlaceUpdateReadinessGate(spec);
    expect(once.readinessGates).toEqual([{ conditionType: 'other' }, GATE]);
    expect(withInPlaceUpdateReadinessGate(once)).toBe(once);
    const bare: { containers: never[]; readinessGates?: { conditionType: string }[] } = { containers: [] };
    expect(withInPlaceUpdateReadinessGate(bare).readinessGates).toEqual([GATE]);
    expect(hasInPlaceUpdateReadinessGate(pod([]))).toBe(true);
    expect(hasInPlaceUpdateReadinessGate(pod([], []))).toBe(false);
  });
});

// Vectors: inplace_update_test.go TestRefresh ("no readiness-gate", "no existing condition",
// "existing condition status is False", "existing condition status is True").
describe('InPlaceUpdateReady=True', () => {
  it('no gate: no write', () => expect(inPlaceUpdateReadyWrite(pod([], []), NOW)).toBeUndefined());

  it('no condition: appended True, on the pod version read', () => {
    expect(inPlaceUpdateReadyWrite(pod([]), NOW)).toMatchObject({
      target: { apiVersion: 'v1', kind: 'Pod', name: 'p', namespace: 'ns' },
      resourceVersion: '7',
      status: { conditions: [{ type: 'InPlaceUpdateReady', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-05-01T10:00:00Z' }] },
    });
  });

  it('False: replaced in place, other conditions kept', () => {
    const write = inPlaceUpdateReadyWrite(pod([{ type: 'ContainersReady', status: 'True' }, { type: 'InPlaceUpdateReady', status: 'False' }]), NOW);
    expect(write?.status['conditions']).toEqual([
      { type: 'ContainersReady', status: 'True' },
      { type: 'InPlaceUpdateReady', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-05-01T10:00:00Z' },
    ]);
  });

  it('True already: no write', () => {
    expect(inPlaceUpdateReadyWrite(pod([{ type: 'ContainersReady', status: 'False' }, { type: 'InPlaceUpdateReady', status: 'True' }]), NOW)).toBeUndefined();
  });

  // Ours, not OpenKruise's: Ready in the same write, as the kubelet would derive it.
  it('Ready recomputed: True when containers are ready and every gate is True, else left alone', () => {
    const notReady = { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady' };
    const back = inPlaceUpdateReadyWrite(pod([notReady, { type: 'ContainersReady', status: 'True' }, { type: 'InPlaceUpdateReady', status: 'False' }]), NOW);
    expect((back?.status['conditions'] as PodCondition[])[0]).toEqual({ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2024-05-01T10:00:00Z' });
    const restarting = inPlaceUpdateReadyWrite(pod([notReady, { type: 'ContainersReady', status: 'False' }, { type: 'InPlaceUpdateReady', status: 'False' }]), NOW);
    expect((restarting?.status['conditions'] as PodCondition[])[0]).toEqual(notReady);
    const otherGate = inPlaceUpdateReadyWrite(pod([notReady, { type: 'ContainersReady', status: 'True' }, { type: 'InPlaceUpdateReady', status: 'False' }], [GATE, { conditionType: 'KruisePodReady' }]), NOW);
    expect((otherGate?.status['conditions'] as PodCondition[])[0]).toMatchObject({ type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady' });
  });
});

// pkg/util/pods.go SetPodReadyCondition: messages and reason as OpenKruise writes them.
describe('InPlaceUpdateReady=False', () => {
  it('sets the condition and turns Ready False when containers are ready', () => {
    const write = inPlaceUpdateNotReadyWrite(
      pod([
        { type: 'Ready', status: 'True', lastTransitionTime: '2024-01-01T00:00:00Z' },
        { type: 'ContainersReady', status: 'True' },
        { type: 'InPlaceUpdateReady', status: 'True' },
      ]),
      NOW,
    );
    expect(write?.resourceVersion).toBe('7');
    expect(write?.status['conditions']).toEqual([
      {
        type: 'Ready',
        status: 'False',
        reason: 'ReadinessGatesNotReady',
        message: 'the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False',
        lastProbeTime: null,
        lastTransitionTime: null,
      },
      { type: 'ContainersReady', status: 'True' },
      { type: 'InPlaceUpdateReady', status: 'False', reason: 'StartInPlaceUpdate', lastProbeTime: null, lastTransitionTime: '2024-05-01T10:00:00Z' },
    ]);
  });

  it('names every gate that is not True', () => {
    const p = pod([{ type: 'Ready', status: 'True' }, { type: 'ContainersReady', status: 'True' }], [{ conditionType: 'x' }, GATE]);
    const ready = (inPlaceUpdateNotReadyWrite(p, NOW)?.status['conditions'] as PodCondition[])[0];
    expect(ready?.message).toBe('corresponding condition of pod readiness gate "x" does not exist., the status of pod readiness gate "InPlaceUpdateReady" is not "True", but False');
  });

  it('leaves Ready to the kubelet when containers are not ready, and does nothing when already False or gateless', () => {
    const write = inPlaceUpdateNotReadyWrite(pod([{ type: 'Ready', status: 'True' }]), NOW);
    expect(write?.status['conditions']).toEqual([
      { type: 'Ready', status: 'True' },
      { type: 'InPlaceUpdateReady', status: 'False', reason: 'StartInPlaceUpdate', lastProbeTime: null, lastTransitionTime: '2024-05-01T10:00:00Z' },
    ]);
    expect(inPlaceUpdateNotReadyWrite(pod([{ type: 'InPlaceUpdateReady', status: 'False' }]), NOW)).toBeUndefined();
    expect(inPlaceUpdateNotReadyWrite(pod([], []), NOW)).toBeUndefined();
  });
});
