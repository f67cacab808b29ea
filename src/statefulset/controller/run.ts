// One Advanced StatefulSet's decision in progress: what was observed, its ordinals, revisions and
// settings with OpenKruise's defaults, and the plan being written. Replicas (replicas.ts), condemned
// pods (condemned.ts) and the rolling update (update.ts) share it. Each pod gets at most one write
// per run: every write carries the pod's resourceVersion, so a second would conflict.
import type { KubeObject } from '../../kube/http.js';
import type { IntOrString } from '../../kube/intstr.js';
import { scaledValue } from '../../kube/intstr.js';
import type { FeatureGates } from '../../reconcile/feature-gates.js';
import type { EventNote, Plan, StatusWrite, Write } from '../../reconcile/types.js';
import type { DisruptionBudget } from '../../workload/disruption.js';
import type { InPlaceWriter } from '../../workload/inplace-update-writes.js';
import type { Lifecycle } from '../../workload/lifecycle.js';
import { lifecycleState } from '../../workload/lifecycle.js';
import { isPodReadyCondition, podAvailability, type Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import type { OrdinalRange } from '../ordinals.js';
import { REVISION_HASH_LABEL, statefulSetRef, type StoredStatefulSet } from '../types.js';
import type { Pvc } from './observe.js';

export type StsRun = {
  set: StoredStatefulSet;
  now: Date;
  gates: FeatureGates;
  budget: DisruptionBudget;
  range: OrdinalRange;
  revisions: ReadonlyMap<string, ControllerRevision>;
  currentRevision: string;
  updateRevision: string;
  /** The namespace's PVCs by `namespace/name`. */
  pvcs: ReadonlyMap<string, Pvc>;
  plan: Plan;
  /** Pods written this run (by name). */
  touched: Set<string>;
  /** Pods this run's status writes make available again (by name). */
  readied: Set<string>;
  /** The earliest wake-up asked for (ms from now). */
  wakeMs?: number;
};

export const replicasOf = (set: StoredStatefulSet): number => set.spec.replicas ?? 1;
/** OrderedReady (the default) is monotonic: one pod at a time, in order. */
export const isMonotonic = (set: StoredStatefulSet): boolean => set.spec.podManagementPolicy !== 'Parallel';
export const rollingUpdateOf = (set: StoredStatefulSet) => set.spec.updateStrategy?.rollingUpdate;
export const minReadySecondsOf = (set: StoredStatefulSet): number => rollingUpdateOf(set)?.minReadySeconds ?? 0;
export const lifecycleOf = (set: StoredStatefulSet): Lifecycle | undefined => set.spec.lifecycle as Lifecycle | undefined;
export const podRevision = (pod: Pod): string => pod.metadata.labels?.[REVISION_HASH_LABEL] ?? '';
export const isUpdated = (run: StsRun, pod: Pod): boolean => podRevision(pod) === run.updateRevision;

/** A count or percentage of replicas, rounded down, at least 1 (rollingUpdate and scaleStrategy maxUnavailable). */
export function maxUnavailableOf(v: IntOrString | undefined, replicas: number): number {
  const n = scaledValue(v ?? 1, replicas, false);
  return Math.max(typeof n === 'number' ? n : 1, 1);
}

/** scaleStrategy.maxUnavailable: undefined when unset (no throttle). */
export function scaleMaxUnavailableOf(set: StoredStatefulSet): number | undefined {
  const v = set.spec.scaleStrategy?.maxUnavailable;
  return v === undefined || v === null ? undefined : maxUnavailableOf(v, replicasOf(set));
}

export const isCreated = (pod: Pod): boolean => Boolean(pod.metadata.uid);
export const isTerminating = (pod: Pod): boolean => Boolean(pod.metadata.deletionTimestamp);
export const isFailedOrSucceeded = (pod: Pod): boolean => pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';
export const isPending = (pod: Pod): boolean => (pod.status?.phase ?? 'Pending') === 'Pending';
export const isRunningAndReady = (pod: Pod): boolean => pod.status?.phase === 'Running' && isPodReadyCondition(pod);

const inNormalState = (pod: Pod): boolean => {
  const state = lifecycleState(pod);
  return state === '' || state === 'Normal';
};

/** isHealthy: in lifecycle Normal (or none), running and ready, not terminating. */
export const isHealthy = (pod: Pod): boolean => inNormalState(pod) && isRunningAndReady(pod) && !isTerminating(pod);

/** isRunningAndAvailable: available, or how long until it may be (ms; 0 = not by waiting). */
export function availability(run: StsRun, pod: Pod): { available: boolean; waitMs: number } {
  if (!inNormalState(pod) || !isRunningAndReady(pod)) return { available: false, waitMs: 0 };
  const a = podAvailability(pod, minReadySecondsOf(run.set), run.now.getTime());
  return a.available ? { available: true, waitMs: 0 } : { available: false, waitMs: a.at === undefined ? 0 : Math.max(a.at - run.now.getTime(), 0) };
}

export const podRef = (pod: Pod) => ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace });

export function wakeIn(run: StsRun, ms: number): void {
  run.wakeMs = Math.min(run.wakeMs ?? Infinity, Math.max(ms, 0));
}

export function eventNote(run: StsRun, type: EventNote['type'], reason: string, message: string): EventNote {
  return { regarding: { ...statefulSetRef(run.set), ...(run.set.metadata.uid ? { uid: run.set.metadata.uid } : {}) }, type, reason, message };
}

export function event(run: StsRun, type: EventNote['type'], reason: string, message: string): void {
  run.plan.events.push(eventNote(run, type, reason, message));
}

const why = (run: StsRun, reason: string) => `StatefulSet ${run.set.metadata.name}: ${reason}`;

export function write(run: StsRun, w: Write): void {
  run.plan.writes.push({ ...w, reason: why(run, w.reason) });
}

/** Replace `pod` with `next` (the observed resourceVersion is the precondition). */
export function updatePod(run: StsRun, pod: Pod, next: Pod, reason: string): void {
  run.touched.add(pod.metadata.name);
  write(run, { op: 'update', object: next as unknown as KubeObject, reason });
}

export function writePodStatus(run: StsRun, pod: Pod, w: StatusWrite): void {
  run.touched.add(pod.metadata.name);
  run.plan.status.push({ ...w, reason: why(run, w.reason), ...(w.then ? { then: { ...w.then, reason: why(run, w.then.reason) } } : {}) });
}

export const untouched = (run: StsRun, pod: Pod): boolean => !run.touched.has(pod.metadata.name);

/** The run as the shared in-place planner writes to it (workload/inplace-update-writes.ts). */
export const inPlaceWriter = (run: StsRun, afterStatus = false): InPlaceWriter => ({
  writeStatus: (pod, w) => writePodStatus(run, pod, afterStatus ? { ...w, afterStatus } : w),
  updatePod: (pod, next, reason) => updatePod(run, pod, next, reason),
  wakeAt: (at) => wakeIn(run, at.getTime() - run.now.getTime()),
});

/** Delete a pod, preconditioned on its uid (a recreated pod of the same name is not touched). */
export function deletePodWrite(run: StsRun, pod: Pod, reason: string, slowStart?: Write['slowStart']): void {
  run.touched.add(pod.metadata.name);
  write(run, {
    op: 'delete',
    target: podRef(pod),
    ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}),
    reason,
    ...(slowStart ? { slowStart } : {}),
    event: eventNote(run, 'Normal', 'SuccessfulDelete', `delete Pod ${pod.metadata.name} in StatefulSet ${run.set.metadata.name} successful`),
  });
}
