// The EphemeralJob controller's decisions (OpenKruise: ephemeraljob_controller.go Reconcile), per
// job: a finished job waits out ttlSecondsAfterFinished (default 1800), then is deleted; a running
// one gets its start time, its status from its target pods, and — unless paused or just finished
// — its containers injected into the next pods, parallelism at a time. Wake-ups: the active
// deadline and the TTL (times the spec names), and a short one while containers run, for runs
// that no pod watch wakes (the Lambda). Pure.
import type { V1Pod } from '@kubernetes/client-node';
import { emptyPlan, type Plan } from '../../reconcile/types.js';
import { rfc3339, timeOf } from '../../workload/pods.js';
import { ephemeralJobRef, type StoredEphemeralJob } from '../types.js';
import { busyPods, injectWrite, podsToInject, podsWithout, type SubresourceShape } from './inject.js';
import type { EphemeralJobObserved } from './observe.js';
import { targetPods } from './select.js';
import { computeStatus, statusChanged } from './status.js';

/** OpenKruise's ttlSecondsAfterFinished when the spec has none. */
export const DEFAULT_TTL_SECONDS = 1800;
/** While containers run, look again this often when no pod watch says they ended (the Lambda). */
export const RUNNING_RECHECK_MS = 5000;

type Run = { job: StoredEphemeralJob; now: Date; plan: Plan; scheduled: number[]; rechecks: number[] };

const why = (job: StoredEphemeralJob, text: string) => `EphemeralJob ${job.metadata.name}: ${text}`;

/** A finished job: deleted once its TTL has passed, else woken then. */
function decideFinished(run: Run, completionTime: string): void {
  const { job, now } = run;
  const ttl = job.spec.ttlSecondsAfterFinished ?? DEFAULT_TTL_SECONDS;
  const left = timeOf(completionTime) + ttl * 1000 - now.getTime();
  if (left > 0) {
    run.scheduled.push(left);
    return;
  }
  run.plan.writes.push({
    op: 'delete', target: ephemeralJobRef(job), ...(job.metadata.uid ? { preconditions: { uid: job.metadata.uid } } : {}),
    propagationPolicy: 'Background', reason: why(job, 'ttlSecondsAfterFinished has passed'),
  });
}

function decideJob(run: Run, pods: readonly V1Pod[], shape: SubresourceShape): void {
  const { job, now, plan } = run;
  if (job.status?.completionTime) return decideFinished(run, job.status.completionTime);
  const startTime = job.status?.startTime ?? rfc3339(now);
  const started = { ...job, status: { ...job.status, startTime } } as StoredEphemeralJob;
  const deadline = job.spec.activeDeadlineSeconds;
  if (deadline !== undefined && deadline !== null) {
    const left = timeOf(startTime) + deadline * 1000 - now.getTime();
    if (left > 0) run.scheduled.push(left);
  }
  const targets = targetPods(started, pods);
  const status = computeStatus(started, targets, now);
  if (status.completionTime) {
    // Finished by this run: the TTL counts from now.
    run.scheduled.push((job.spec.ttlSecondsAfterFinished ?? DEFAULT_TTL_SECONDS) * 1000);
  } else if (status.phase !== 'Paused') {
    for (const pod of podsToInject(started, targets)) {
      const ref = ephemeralJobRef(job);
      plan.writes.push({
        ...injectWrite(job, pod, shape),
        slowStart: { group: `ephemeraljob/${job.metadata.uid ?? job.metadata.name}`, unit: pod.metadata?.name ?? '' },
        failureEvent: {
          regarding: { ...ref, ...(job.metadata.uid ? { uid: job.metadata.uid } : {}) }, type: 'Warning', reason: 'CreateFailed',
          message: `failed to create ephemeral container in pod ${pod.metadata?.namespace}/${pod.metadata?.name}: `,
        },
      });
    }
    if (busyPods(started, targets) > 0 || podsWithout(started, targets).length > 0) run.rechecks.push(RUNNING_RECHECK_MS);
  }
  if (statusChanged(job.status, status)) {
    plan.status.push({
      target: ephemeralJobRef(job),
      status: { ...status },
      ...(job.metadata.resourceVersion ? { resourceVersion: job.metadata.resourceVersion } : {}),
      reason: why(job, `${status.phase}: ${status.match} matched, ${status.succeeded} succeeded, ${status.failed} failed, ${status.running} running, ${status.waiting} waiting`),
    });
  }
}

export function decideEphemeralJobs(o: EphemeralJobObserved, now: Date): Plan {
  const plan = emptyPlan();
  const run = { now, plan, scheduled: [] as number[], rechecks: [] as number[] };
  for (const job of o.jobs) decideJob({ ...run, job }, o.podsByNamespace.get(job.metadata.namespace) ?? [], o.shape);
  if (run.scheduled.length) plan.scheduledAfterMs = Math.max(Math.min(...run.scheduled), 0);
  if (run.rechecks.length) plan.requeueAfterMs = Math.min(...run.rechecks);
  return plan;
}
