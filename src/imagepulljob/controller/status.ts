// An ImagePullJob's status as OpenKruise writes it (calculateStatus, formatStatusMessage), and when
// a finished one is to go. Pure.
import type { ImagePullJobStatus } from '../../api/apps/imagepulljob.js';
import { timeOf } from '../../workload/pods.js';
import type { StoredImagePullJob } from '../types.js';

export const isNever = (job: StoredImagePullJob): boolean => job.spec.completionPolicy?.type === 'Never';

export function statusMessage(s: ImagePullJobStatus): string {
  if (s.completionTime) return 'job has completed';
  if (!s.desired) return 'job is running, no progress';
  return `job is running, progress ${((100 * ((s.succeeded ?? 0) + (s.failed ?? 0))) / s.desired).toFixed(1)}%`;
}

export const DEADLINE_MESSAGE = 'job exceeds activeDeadlineSeconds';

/** When the active deadline falls (ms): Always jobs only, from the start time. */
export function activeDeadlineAt(job: StoredImagePullJob, startTime: string): number | undefined {
  const seconds = job.spec.completionPolicy?.activeDeadlineSeconds;
  if (isNever(job) || seconds === undefined || seconds === null) return undefined;
  return timeOf(startTime) + seconds * 1000;
}

/** When a finished job is to be deleted (ms), if it has a TTL. */
export function ttlDeadlineAt(job: StoredImagePullJob, completionTime: string): number | undefined {
  const seconds = job.spec.completionPolicy?.ttlSecondsAfterFinished;
  return seconds === undefined || seconds === null ? undefined : timeOf(completionTime) + seconds * 1000;
}

const FIELDS = ['startTime', 'completionTime', 'desired', 'active', 'succeeded', 'failed', 'message'] as const;

export function statusChanged(stored: ImagePullJobStatus | undefined, next: ImagePullJobStatus): boolean {
  const s: Partial<ImagePullJobStatus> = stored ?? {};
  if (FIELDS.some((k) => (s[k] ?? undefined) !== (next[k] ?? undefined))) return true;
  return JSON.stringify(s.failedNodes ?? []) !== JSON.stringify(next.failedNodes ?? []);
}
