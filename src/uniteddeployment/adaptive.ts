// The Adaptive schedule strategy (calculateSubsetsStatusForDefaultAdaptiveStrategy): a subset
// whose pods wait unschedulable (PodScheduled False, reason Unschedulable) for longer than
// rescheduleCriticalSeconds since their creation is marked unschedulable (its Schedulable
// condition False, reason "reschedule") for unschedulableDuration, counted from when it was
// marked; the allocator then leaves it only its ready pods and the rest move to later subsets.
// Every wait is a wake-up: the next pending pod's deadline, the end of the unschedulable spell.
// Pure.
import { podCondition, timeOf, type Pod } from '../workload/pods.js';
import { rescheduleCriticalMs, unschedulableDurationMs, type SubsetCondition, type UnitedDeploymentSpecLike as UnitedDeploymentSpec } from './types.js';

export const SCHEDULABLE = 'Schedulable';

export type AdaptiveState = { unschedulable: boolean; condition?: SubsetCondition; wakeInMs?: number };

/** GetTimeBeforePendingTimeout: whether a pod has waited unschedulable too long, else how long until it has. */
export function pendingTimeout(pod: Pod, timeoutMs: number, now: number): { timedOut: boolean; afterMs?: number } {
  if (pod.metadata.deletionTimestamp || pod.status?.phase !== 'Pending' || (pod.spec as { nodeName?: string }).nodeName) return { timedOut: false };
  const c = podCondition(pod, 'PodScheduled');
  if (!c || c.status !== 'False' || c.reason !== 'Unschedulable') return { timedOut: false };
  const deadline = timeOf(pod.metadata.creationTimestamp as string | undefined) + timeoutMs;
  return deadline < now ? { timedOut: true } : { timedOut: false, afterMs: deadline - now };
}

const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** SetCondition: a change of status or reason stamps a new transition time; otherwise the old one stays. */
function setCondition(old: SubsetCondition | undefined, status: string, reason: string, message: string, now: number): SubsetCondition {
  if (old && old.status === status && old.reason === reason) return old;
  return { type: SCHEDULABLE, status, reason, message, lastTransitionTime: rfc3339(now) };
}

/**
 * One subset's state. `workload` is its workload's status counts, `pods` its pods, `old` the
 * Schedulable condition stored in status.subsetStatuses.
 */
export function adaptiveState(
  spec: UnitedDeploymentSpec,
  workload: { replicas: number; readyReplicas: number },
  pods: readonly Pod[],
  old: SubsetCondition | undefined,
  now: number,
): AdaptiveState {
  let condition = old;
  let unschedulable = false;
  const wakes: number[] = [];
  const duration = unschedulableDurationMs(spec);
  if (old?.status === 'False') {
    const recoverAt = timeOf(old.lastTransitionTime) + duration;
    if (now < recoverAt) {
      unschedulable = true;
      wakes.push(recoverAt - now);
    } else {
      condition = setCondition(old, 'True', 'recover', `unschedulable subset recovered after ${(duration / 1000).toFixed(6)} seconds`, now);
    }
  }
  if (workload.readyReplicas < workload.replicas) {
    let pending = 0;
    for (const pod of pods) {
      const t = pendingTimeout(pod, rescheduleCriticalMs(spec), now);
      if (t.timedOut) pending++;
      if (t.afterMs !== undefined && t.afterMs > 0) wakes.push(t.afterMs);
    }
    if (pending > 0) {
      unschedulable = true;
      condition = setCondition(condition, 'False', 'reschedule', 'timeout pending pods found', now);
      wakes.push(duration);
    }
  }
  return { unschedulable, ...(condition ? { condition } : {}), ...(wakes.length ? { wakeInMs: Math.min(...wakes) } : {}) };
}
