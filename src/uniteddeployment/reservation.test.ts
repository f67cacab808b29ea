import { describe, expect, it } from 'vitest';
import type { Pod } from '../workload/pods.js';
import { afterAllocation, allocateWithReservation, RESERVED_POD_LABEL, subsetReservation, withMaxUnavailable } from './reservation.js';
import { allocateReserving } from './replicas.js';
import type { UnitedDeploymentSpecLike } from './types.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const spec: UnitedDeploymentSpecLike = { replicas: 4, topology: { subsets: [{ name: 'a' }, { name: 'b' }], scheduleStrategy: { type: 'Adaptive', adaptive: { rescheduleCriticalSeconds: 2, unschedulableDuration: 10, reserveUnschedulablePods: true } } } };
const REV = 'rev-2';
type PodOpts = { reserved?: boolean; revision?: string; phase?: string; readySince?: number; unschedulable?: boolean };
const pod = (name: string, o: PodOpts = {}): Pod =>
  ({
    metadata: {
      name, namespace: 'ns', creationTimestamp: iso(T0),
      labels: { 'apps.kruise.io/controller-revision-hash': o.revision ?? REV, ...(o.reserved === undefined ? {} : { [RESERVED_POD_LABEL]: String(o.reserved) }) },
    },
    spec: { containers: [] },
    status: {
      phase: o.phase ?? 'Pending',
      conditions: [
        ...(o.unschedulable ? [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] : []),
        ...(o.readySince !== undefined ? [{ type: 'Ready', status: 'True', lastTransitionTime: iso(o.readySince) }] : []),
      ],
    },
  }) as unknown as Pod;
const marked = { type: 'Schedulable', status: 'False', reason: 'reschedule', message: 'reserved pods found', lastTransitionTime: iso(T0) };

describe('subsetReservation (CheckPodReallyInReservedStatus)', () => {
  it('a pod unschedulable past rescheduleCriticalSeconds is reserved and labelled; the subset is marked', () => {
    const r = subsetReservation(spec, [pod('p', { unschedulable: true, reserved: false })], REV, undefined, undefined, T0 + 3000);
    expect(r).toMatchObject({ unschedulable: true, reservedPods: 1, labels: [{ pod: 'p', reserved: true }], condition: { status: 'False', reason: 'reschedule', message: 'reserved pods found' } });
  });

  it('before the deadline: labelled not reserved, and a wake-up at the deadline', () => {
    const r = subsetReservation(spec, [pod('p', { unschedulable: true })], REV, undefined, undefined, T0 + 500);
    expect(r).toMatchObject({ unschedulable: false, reservedPods: 0, labels: [{ pod: 'p', reserved: false }], wakeInMs: 1500, condition: { status: 'True', message: 'no reserved pods' } });
  });

  it('in a marked subset a new pod is reserved at once', () => {
    expect(subsetReservation(spec, [pod('new', { phase: 'Running' })], REV, marked, undefined, T0).labels).toEqual([{ pod: 'new', reserved: true }]);
  });

  it('a reserved pod leaves the reserved state once ready for unschedulableDuration', () => {
    const ready = (since: number) => [pod('p', { reserved: true, phase: 'Running', readySince: since })];
    expect(subsetReservation(spec, ready(T0), REV, marked, undefined, T0 + 5000)).toMatchObject({ reservedPods: 1, labels: [], wakeInMs: 5000 });
    expect(subsetReservation(spec, ready(T0), REV, marked, undefined, T0 + 11_000)).toMatchObject({ reservedPods: 0, unschedulable: false, marked: true, labels: [{ pod: 'p', reserved: false }] });
  });

  it('old-revision pods are reserved once the update has lasted longer than rescheduleCriticalSeconds', () => {
    const updating = { type: 'UnitedDeploymentUpdated', status: 'False', lastTransitionTime: iso(T0) };
    const old = [pod('p', { revision: 'rev-1', phase: 'Running', reserved: false })];
    expect(subsetReservation(spec, old, REV, undefined, updating, T0 + 1000)).toMatchObject({ reservedPods: 0, wakeInMs: 1000 });
    expect(subsetReservation(spec, old, REV, undefined, updating, T0 + 3000)).toMatchObject({ reservedPods: 1, updateTimeoutPods: 1 });
  });

  it('a recovered subset scaled up is marked again', () => {
    const r = subsetReservation(spec, [], REV, marked, undefined, T0);
    expect(afterAllocation(r, 2, 3, T0 + 1000)).toMatchObject({ status: 'False', message: 'subset just recovered scaled up' });
    expect(afterAllocation(r, 2, 2, T0 + 1000)).toMatchObject({ status: 'True' });
  });
});

describe('allocateWithReservation (reservationAllocator)', () => {
  const names = ['a', 'b'];
  const none = new Map<string, number>();
  const max = new Map([['a', 2147483647], ['b', 2147483647]]);

  it('an unschedulable subset keeps its replicas and the reserved ones run again, as temporary pods, in the next subset', () => {
    const existing = new Map([['a', { replicas: 4, reservedPods: 2, unschedulable: true, marked: true }]]);
    expect(allocateWithReservation(4, names, none, max, existing)).toEqual({ a: 4, b: 2 });
  });

  it('all schedulable: the first subset takes everything', () => {
    expect(allocateWithReservation(4, names, none, max, new Map())).toEqual({ a: 4, b: 0 });
  });

  it('minReplicas are met first; the spec path parses them', () => {
    const s: UnitedDeploymentSpecLike = { ...spec, topology: { ...spec.topology, subsets: [{ name: 'a' }, { name: 'b', minReplicas: 1 }] } };
    expect(allocateReserving(s, new Map([['a', { replicas: 3, reservedPods: 3, unschedulable: true, marked: true }]]))).toEqual({ replicas: { a: 3, b: 4 } });
  });
});

describe('withMaxUnavailable', () => {
  it('sets a Deployment\'s and a CloneSet\'s maxUnavailable', () => {
    expect(withMaxUnavailable({ kind: 'Deployment', spec: { strategy: { type: 'RollingUpdate' } } }, 3).spec).toEqual({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3 } } });
    expect(withMaxUnavailable({ kind: 'CloneSet', spec: {} }, 2).spec).toEqual({ updateStrategy: { maxUnavailable: 2 } });
  });
});
