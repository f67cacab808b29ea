// Adaptive with `reserveUnschedulablePods` (OpenKruise 1.9's reservation mode): a pod that cannot
// be scheduled is kept (labelled reserved) instead of moved, and the allocator gives the same
// number of temporary pods to later subsets; once a reserved pod has been ready for
// unschedulableDuration it leaves the reserved state and its temporary substitute goes
// (calculateSubsetsStatusForReservedAdaptiveStrategy, CheckPodReallyInReservedStatus,
// reservationAllocator, postProcessSubsetStatusForReservedAdaptiveStrategy). Pure.
import { podCondition, timeOf, type Pod } from '../workload/pods.js';
import { pendingTimeout, SCHEDULABLE } from './adaptive.js';
import { rescheduleCriticalMs, unschedulableDurationMs, UD_REVISION_LABEL, type SubsetCondition, type UdCondition, type UnitedDeploymentSpecLike } from './types.js';

/** `"true"` on a reserved pod, `"false"` on one that is not (OpenKruise's ReservedPodLabelKey). */
export const RESERVED_POD_LABEL = 'apps.kruise.io/united-deployment-reserved-pod';
/** Appended to status.labelSelector: the scale subresource counts only pods not reserved. */
export const RESERVED_STATUS_SELECTOR = `,${RESERVED_POD_LABEL}=false`;

export function reservesUnschedulablePods(spec: UnitedDeploymentSpecLike): boolean {
  const s = spec.topology?.scheduleStrategy;
  return s?.type === 'Adaptive' && s.adaptive?.reserveUnschedulablePods === true;
}

export type SubsetReservation = {
  /** Reserved pods found (the subset counts as unschedulable). */
  unschedulable: boolean;
  /** Its Schedulable condition was False when read: pods created now are reserved at once. */
  marked: boolean;
  reservedPods: number;
  /** Old-revision pods reserved because the update has lasted too long. */
  updateTimeoutPods: number;
  condition: SubsetCondition;
  /** Pods whose reserved label must be written. */
  labels: { pod: string; reserved: boolean }[];
  wakeInMs?: number;
};

const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function setCondition(old: SubsetCondition | undefined, status: string, reason: string, message: string, now: number): SubsetCondition {
  if (old && old.status === status && old.reason === reason) return old;
  return { type: SCHEDULABLE, status, reason, message, lastTransitionTime: rfc3339(now) };
}

/** IsPodMarkedAsReserved: [reserved, labelled]. */
function markedReserved(pod: Pod): [boolean, boolean] {
  const v = pod.metadata.labels?.[RESERVED_POD_LABEL];
  return [v === 'true', v !== undefined];
}

/** CheckPodReallyInReservedStatus: whether the pod is reserved now, and when to look again (ms). */
function reservedNow(pod: Pod, updatedRevision: string, updated: UdCondition | undefined, criticalMs: number, readyForMs: number, now: number): { reserved: boolean; afterMs?: number; updateTimeout?: boolean } {
  const revision = pod.metadata.labels?.[UD_REVISION_LABEL];
  const [reserved] = markedReserved(pod);
  if (reserved) {
    if (pod.status?.phase === 'Running' && revision === updatedRevision) {
      const ready = podCondition(pod, 'Ready');
      if (ready?.status === 'True') {
        const out = timeOf(ready.lastTransitionTime as string | undefined) + readyForMs;
        return out < now ? { reserved: false } : { reserved: true, afterMs: out - now };
      }
    }
    return { reserved: true, afterMs: readyForMs };
  }
  if (revision === updatedRevision) {
    const t = pendingTimeout(pod, criticalMs, now);
    return t.timedOut ? { reserved: true, afterMs: readyForMs } : { reserved: false, ...(t.afterMs !== undefined ? { afterMs: t.afterMs } : {}) };
  }
  // An old-revision pod: reserved once the update has lasted longer than rescheduleCriticalSeconds.
  if (pod.metadata.deletionTimestamp || !updated?.lastTransitionTime) return { reserved: false };
  const deadline = timeOf(updated.lastTransitionTime) + criticalMs;
  return deadline < now ? { reserved: true, afterMs: readyForMs, updateTimeout: true } : { reserved: false, afterMs: deadline - now };
}

/**
 * One subset's reservation state from its pods and its stored Schedulable condition (`old`);
 * `updated` is the UnitedDeployment's UnitedDeploymentUpdated condition.
 */
export function subsetReservation(spec: UnitedDeploymentSpecLike, pods: readonly Pod[], updatedRevision: string, old: SubsetCondition | undefined, updated: UdCondition | undefined, now: number): SubsetReservation {
  const marked = old?.status === 'False';
  const critical = rescheduleCriticalMs(spec);
  const readyFor = unschedulableDurationMs(spec);
  let reservedPods = 0;
  let updateTimeoutPods = 0;
  const labels: SubsetReservation['labels'] = [];
  const wakes: number[] = [];
  for (const pod of pods) {
    const name = pod.metadata.name ?? '';
    const [wasReserved, labelled] = markedReserved(pod);
    if (marked && !labelled) {
      // Created while the subset is marked: reserved until it proves itself.
      reservedPods++;
      labels.push({ pod: name, reserved: true });
      continue;
    }
    const r = reservedNow(pod, updatedRevision, updated, critical, readyFor, now);
    if (r.reserved) reservedPods++;
    if (r.updateTimeout) updateTimeoutPods++;
    if (r.afterMs !== undefined && r.afterMs > 0) wakes.push(r.afterMs);
    if (r.reserved !== wasReserved || !labelled) labels.push({ pod: name, reserved: r.reserved });
  }
  const unschedulable = reservedPods > 0;
  const condition = unschedulable
    ? setCondition(old, 'False', 'reschedule', 'reserved pods found', now)
    : setCondition(old, 'True', 'reschedule', 'no reserved pods', now);
  return { unschedulable, marked, reservedPods, updateTimeoutPods, condition, labels, ...(wakes.length ? { wakeInMs: Math.min(...wakes) } : {}) };
}

/**
 * A subset just recovered (no reserved pods, still marked) and given more replicas is marked
 * again, so the pods it creates are reserved until ready and their substitutes are not removed
 * too early.
 */
export function afterAllocation(r: SubsetReservation, currentReplicas: number, nextReplicas: number, now: number): SubsetCondition {
  if (!r.unschedulable && r.marked && nextReplicas > currentReplicas) return setCondition(r.condition, 'False', 'reschedule', 'subset just recovered scaled up', now);
  return r.condition;
}

/** What the reservation allocator knows of an existing subset. */
export type ReservedSubset = { replicas: number; reservedPods: number; unschedulable: boolean; marked: boolean };

const MAX_INT32 = 2147483647;

/**
 * allocateByMinMaxMapAndReservation: minimums first in topology order, then up to each maximum (an
 * unschedulable subset: up to its current replicas). Replicas given beyond what an unschedulable
 * subset can run (its replicas less its reserved pods) are handed out again to later subsets:
 * those become the temporary pods.
 */
export function allocateWithReservation(
  replicas: number,
  names: readonly string[],
  min: ReadonlyMap<string, number>,
  max: ReadonlyMap<string, number>,
  existing: ReadonlyMap<string, ReservedSubset>,
): Record<string, number> {
  const records = new Map(names.map((n) => {
    const s = existing.get(n);
    const allocatable = !s || (!s.unschedulable && !s.marked);
    return [n, { maxAllocatable: allocatable ? MAX_INT32 : s.replicas - s.reservedPods, allocated: 0 }];
  }));
  const allocate = (name: string, to: number, rest: number): number => {
    const r = records.get(name)!;
    let add = Math.min(to - r.allocated, rest);
    r.allocated += add;
    r.maxAllocatable -= add;
    if (r.maxAllocatable < 0) {
      add += r.maxAllocatable;
      return Math.max(0, add);
    }
    return add;
  };
  const out = () => Object.fromEntries([...records].map(([n, r]) => [n, r.allocated]));
  let rest = replicas;
  for (const n of names) {
    rest -= allocate(n, min.get(n) ?? 0, rest);
    if (rest <= 0) return out();
  }
  for (const n of names) {
    const s = existing.get(n);
    rest -= allocate(n, !s || !s.unschedulable ? (max.get(n) ?? 0) : s.replicas, rest);
    if (rest <= 0) return out();
  }
  return out();
}

/** Where a subset workload keeps maxUnavailable (Deployment, CloneSet); others have none to set. */
function maxUnavailablePath(kind: string | undefined): [string, string] | undefined {
  if (kind === 'Deployment') return ['strategy', 'rollingUpdate'];
  if (kind === 'CloneSet') return ['updateStrategy', ''];
  return undefined;
}

export function maxUnavailableOf(w: { kind?: string; spec: Record<string, unknown> }): unknown {
  const path = maxUnavailablePath(w.kind);
  if (!path) return undefined;
  const outer = w.spec[path[0]] as Record<string, unknown> | undefined;
  const inner = path[1] ? (outer?.[path[1]] as Record<string, unknown> | undefined) : outer;
  return inner?.maxUnavailable;
}

/** SetMaxUnavailable: a copy of the workload with maxUnavailable set (an unschedulable subset may lose every pod not ready). */
export function withMaxUnavailable<W extends { kind?: string; spec: Record<string, unknown> }>(w: W, value: number): W {
  const path = maxUnavailablePath(w.kind);
  if (!path) return w;
  const outer = { ...((w.spec[path[0]] as Record<string, unknown> | undefined) ?? {}) };
  if (path[1]) outer[path[1]] = { ...((outer[path[1]] as Record<string, unknown> | undefined) ?? {}), maxUnavailable: value };
  else outer.maxUnavailable = value;
  return { ...w, spec: { ...w.spec, [path[0]]: outer } };
}
