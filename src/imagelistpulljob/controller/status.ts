// An ImageListPullJob's status as OpenKruise computes it (calculateStatus): desired is the number
// of images; of the ImagePullJobs that have started, those with a pull running are active, those
// whose every node succeeded or failed are completed, those whose every node succeeded succeeded,
// and those with a failed node are listed (ImagePullJobs of images just removed from the list
// count until they are gone, as in OpenKruise). An Always job completes once all are completed.
// The failed list follows the ImagePullJobs' order as listed (OpenKruise's: Go's map order). Pure.
import { rfc3339 } from '../../workload/pods.js';
import type { FailedImageStatus, ImageListPullJobStatus } from '../../api/apps/imagelistpulljob.js';
import type { ChildImagePullJob, StoredImageListPullJob } from '../types.js';

export function listJobStatus(job: StoredImageListPullJob, children: Map<string, ChildImagePullJob>, now: Date): ImageListPullJobStatus {
  let active = 0;
  let completed = 0;
  let succeeded = 0;
  const failed: FailedImageStatus[] = [];
  for (const [image, child] of children) {
    const s = child.status;
    if (!s?.startTime) continue;
    const [desired, ok, bad] = [s.desired ?? 0, s.succeeded ?? 0, s.failed ?? 0];
    if ((s.active ?? 0) > 0) active++;
    if (bad > 0) {
      const name = child.metadata.name;
      failed.push({ imagePullJob: name, name: image, message: `Please check for details which nodes failed by 'kubectl get ImagePullJob ${name}'.` });
    }
    if (desired === ok + bad) completed++;
    if (desired === ok) succeeded++;
  }
  const desired = (job.spec.images ?? []).length;
  const status: ImageListPullJobStatus = {
    startTime: job.status?.startTime ?? rfc3339(now),
    desired,
    active,
    completed,
    succeeded,
    ...(failed.length ? { failedImageStatuses: failed } : {}),
  };
  if (job.spec.completionPolicy?.type !== 'Never' && desired === completed) status.completionTime = rfc3339(now);
  return status;
}

const FIELDS = ['startTime', 'completionTime', 'desired', 'active', 'completed', 'succeeded'] as const;

export function statusChanged(stored: ImageListPullJobStatus | undefined, next: ImageListPullJobStatus): boolean {
  const s: Partial<ImageListPullJobStatus> = stored ?? {};
  if (FIELDS.some((k) => (s[k] ?? undefined) !== (next[k] ?? undefined))) return true;
  return JSON.stringify(s.failedImageStatuses ?? []) !== JSON.stringify(next.failedImageStatuses ?? []);
}
