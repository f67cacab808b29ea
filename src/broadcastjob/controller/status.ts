// A BroadcastJob's status and how it ends (OpenKruise's finishJob, IsJobFinished, pastActiveDeadline,
// pastTTLDeadline): conditions Complete/Failed with the condition type as the reason, the
// completion time, and the phases running, paused, completed and failed. Pure.
import { rfc3339, timeOf } from '../../workload/pods.js';
import type { BroadcastJobCondition, BroadcastJobStatus } from '../../api/apps/broadcastjob.js';
import type { StoredBroadcastJob } from '../types.js';

export const PHASE = { running: 'running', paused: 'paused', completed: 'completed', failed: 'failed' } as const;

export const isNever = (job: StoredBroadcastJob): boolean => job.spec.completionPolicy?.type === 'Never';

/** IsJobFinished: a Complete or Failed condition is True (a Never job never finishes). */
export function isFinished(job: StoredBroadcastJob): boolean {
  if (isNever(job)) return false;
  return (job.status?.conditions ?? []).some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/** When the job's active deadline falls (ms), if it has one: Always only, from status.startTime. */
export function activeDeadlineAt(job: StoredBroadcastJob, startTime: string): number | undefined {
  const seconds = job.spec.completionPolicy?.activeDeadlineSeconds;
  if (isNever(job) || seconds === undefined || seconds === null) return undefined;
  return timeOf(startTime) + seconds * 1000;
}

/** When a finished job is to be deleted (ms), if it has a TTL and a completion time. */
export function ttlDeadlineAt(job: StoredBroadcastJob): number | undefined {
  const seconds = job.spec.completionPolicy?.ttlSecondsAfterFinished;
  const done = job.status?.completionTime;
  if (seconds === undefined || seconds === null || !done) return undefined;
  return timeOf(done) + seconds * 1000;
}

/** finishJob: the status with the condition appended and the completion time set. */
export function finished(status: BroadcastJobStatus, type: 'Complete' | 'Failed', message: string, now: Date): BroadcastJobStatus {
  const at = rfc3339(now);
  const condition: BroadcastJobCondition = { type, status: 'True', lastProbeTime: at, lastTransitionTime: at, reason: type, message };
  return { ...status, conditions: [...(status.conditions ?? []), condition], completionTime: at };
}

const FIELDS = ['startTime', 'completionTime', 'active', 'succeeded', 'failed', 'desired', 'phase'] as const;

/** Whether `next` says anything the stored status does not. */
export function statusChanged(stored: BroadcastJobStatus | undefined, next: BroadcastJobStatus): boolean {
  const s = stored ?? {};
  if (FIELDS.some((k) => (s[k] ?? undefined) !== (next[k] ?? undefined))) return true;
  return JSON.stringify(s.conditions ?? []) !== JSON.stringify(next.conditions ?? []);
}
