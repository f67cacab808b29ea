// The BroadcastJob controller's decision, per job (OpenKruise's Reconcile): a finished job only
// waits for its TTL and then goes, pods first; otherwise the start time is set, the pods counted,
// the nodes placed (placement.ts), and then, in OpenKruise's order: a failed phase only refreshes
// the counts; paused stops everything but the status; a failed pod pauses (Pause) or fails
// (FailFast) the job; so does the active deadline; a failed job loses its running pods. A running
// job deletes pods on nodes they no longer fit, creates pods on the remaining nodes within
// parallelism, and completes once every desired node's pod has ended. Pure.
import { scaledValue } from '../../kube/intstr.js';
import type { KubeObject } from '../../kube/http.js';
import type { EventNote, Plan, Write } from '../../reconcile/types.js';
import { emptyPlan } from '../../reconcile/types.js';
import type { Node } from '../../workload/nodes.js';
import { isActivePod, rfc3339, type Pod } from '../../workload/pods.js';
import { UNLIMITED_PARALLELISM } from '../defaults.js';
import type { BroadcastJobStatus } from '../../api/apps/broadcastjob.js';
import { broadcastJobRef, type StoredBroadcastJob } from '../types.js';
import type { BroadcastJobObserved } from './observe.js';
import { placeJob } from './placement.js';
import { jobPodName, newJobPod, podsByState } from './pods.js';
import { PHASE, activeDeadlineAt, finished, isFinished, isNever, statusChanged, ttlDeadlineAt } from './status.js';

/** After a run that wrote pods, come back this soon in case no event follows (a write that failed). */
export const WAITING_REQUEUE_MS = 3_000;
/** While an expired job's pods are being deleted: the job goes once they have (deletions send no status event). */
export const TERMINATING_REQUEUE_MS = 1_000;

type JobRun = { job: StoredBroadcastJob; now: Date; plan: Plan };

const podRef = (pod: Pod) => ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace });

function note(run: JobRun, type: EventNote['type'], reason: string, message: string): EventNote {
  return { regarding: { ...broadcastJobRef(run.job), ...(run.job.metadata.uid ? { uid: run.job.metadata.uid } : {}) }, type, reason, message };
}

function deletePod(run: JobRun, pod: Pod, why: string, narrate = true): void {
  const w: Write = { op: 'delete', target: podRef(pod), ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}), reason: `BroadcastJob ${run.job.metadata.name}: ${why}` };
  if (narrate) w.event = note(run, 'Normal', 'SuccessfulDelete', `Delete pod: ${pod.metadata.name}`);
  run.plan.writes.push(w);
}

/** A finished job: nothing, until its TTL has passed; then its pods go, and then the job (no GC needed). */
function decideFinished(run: JobRun, pods: readonly Pod[]): number | undefined {
  const at = ttlDeadlineAt(run.job);
  if (at === undefined) return undefined;
  const now = run.now.getTime();
  if (now < at) return at - now;
  const live = pods.filter((p) => !p.metadata.deletionTimestamp);
  for (const pod of live) deletePod(run, pod, 'ttlSecondsAfterFinished has passed: its pods go before it', false);
  if (live.length) return TERMINATING_REQUEUE_MS;
  const { job } = run;
  run.plan.writes.push({ op: 'delete', target: broadcastJobRef(job), ...(job.metadata.uid ? { preconditions: { uid: job.metadata.uid } } : {}), reason: `BroadcastJob ${job.metadata.name}: ttlSecondsAfterFinished has passed` });
  return undefined;
}

function ttlWake(job: StoredBroadcastJob): number | undefined {
  const seconds = job.spec.completionPolicy?.ttlSecondsAfterFinished;
  return seconds === undefined || seconds === null ? undefined : seconds * 1000;
}

function decideJob(run: JobRun, pods: readonly Pod[], nodes: readonly Node[]): number | undefined {
  const { job, now, plan } = run;
  if (isFinished(job)) return decideFinished(run, pods);
  const stored = job.status ?? {};
  const startTime = stored.startTime ?? rfc3339(now);
  const byState = podsByState(pods, job.spec.failurePolicy?.restartLimit ?? 0);
  const placement = placeJob(job, pods, nodes);
  for (const d of placement.duplicates) plan.events.push(note(run, 'Warning', 'DuplicatePodCreatedOnSameNode', `Duplicated pod ${d.pod.metadata.name} found on same node ${d.node}`));
  let active = byState.active.length;
  let failed = byState.failed.length;
  const succeeded = byState.succeeded.length;
  const desired = placement.desired.size;
  let status: BroadcastJobStatus = { ...stored, startTime, phase: stored.phase || PHASE.running, active, failed, succeeded, desired };
  const deadlineAt = activeDeadlineAt(job, startTime);
  const untilDeadline = deadlineAt === undefined ? undefined : Math.max(deadlineAt - now.getTime(), 0);
  const writeStatus = (): void => {
    if (!statusChanged(job.status, status)) return;
    plan.status.push({
      target: broadcastJobRef(job),
      status: { ...status },
      ...(job.metadata.resourceVersion ? { resourceVersion: job.metadata.resourceVersion } : {}),
      reason: `BroadcastJob ${job.metadata.name}: ${status.phase}, ${status.active} active, ${status.succeeded} succeeded, ${status.failed} failed of ${status.desired}`,
    });
  };

  if (status.phase === PHASE.failed) {
    writeStatus();
    return undefined;
  }
  const failurePolicy = job.spec.failurePolicy?.type || 'FailFast';
  if (job.spec.paused && (status.phase === PHASE.running || status.phase === PHASE.paused)) {
    status.phase = PHASE.paused;
    writeStatus();
    return untilDeadline;
  }
  // OpenKruise pauses in memory and resumes on the next pass, only to pause again while a failed
  // pod remains (a Continue and a Paused event every pass); here the job simply stays paused.
  if (failed > 0 && failurePolicy === 'Pause') {
    if (status.phase !== PHASE.paused) plan.events.push(note(run, 'Warning', 'Paused', 'job is paused, due to failed pod'));
    status.phase = PHASE.paused;
    writeStatus();
    return untilDeadline;
  }
  if (status.phase === PHASE.paused) {
    plan.events.push(note(run, 'Normal', 'Continue', 'continue to process job'));
    status.phase = PHASE.running;
  }

  let failure: { reason: string; message: string } | undefined;
  if (failed > 0 && failurePolicy === 'FailFast') failure = { reason: 'failed pod is found', message: 'failure policy is FailurePolicyTypeFailFast and failed pod is found' };
  else if (untilDeadline === 0) failure = { reason: 'DeadlineExceeded', message: `Job ${job.metadata.namespace}/${job.metadata.name} was active longer than specified deadline` };
  if (failure) {
    // The active pods go (counted as failed, as OpenKruise counts them). A pod past its restart
    // limit is already failed (filterPods) and stays, with its logs, as OpenKruise's deleteJobPods
    // leaves it.
    for (const pod of byState.active) deletePod(run, pod, `the job failed (${failure.reason})`);
    failed += active;
    active = 0;
    status = finished({ ...status, phase: PHASE.failed, active, failed }, 'Failed', failure.message, now);
    plan.events.push(note(run, 'Warning', failure.reason, `${failure.message}: ${succeeded} pods succeeded, ${failed} pods failed`));
    writeStatus();
    return ttlWake(job);
  }

  for (const { pod, reason } of placement.misfits) {
    deletePod(run, pod, `pod ${pod.metadata.name} no longer fits its node: ${reason}`);
    if (byState.active.includes(pod)) active -= 1;
  }
  const limit = scaledValue(job.spec.parallelism ?? UNLIMITED_PARALLELISM, desired, true);
  if (typeof limit === 'number' && active > limit) {
    plan.events.push(note(run, 'Warning', 'TooManyActivePods', 'Number of active pods exceed parallelism limit'));
  } else if (typeof limit === 'number') {
    const taken = new Set(pods.map((p) => p.metadata.name));
    for (const node of placement.rest.slice(0, Math.max(limit - active, 0))) {
      const name = jobPodName(job, node.metadata.name, taken);
      taken.add(name);
      plan.writes.push({
        op: 'create',
        object: newJobPod(job, node.metadata.name, name) as unknown as KubeObject,
        reason: `BroadcastJob ${job.metadata.name}: node ${node.metadata.name} has no pod yet`,
        slowStart: { group: `broadcastjob/${job.metadata.uid ?? job.metadata.name}`, unit: name },
        event: note(run, 'Normal', 'SuccessfulCreate', `Created pod: ${name}`),
        failureEvent: note(run, 'Warning', 'FailedCreate', 'Error creating: '),
      });
      active += 1;
    }
  }
  status.active = active;
  const wrotePods = plan.writes.length > 0;
  const complete = !isNever(job) && desired > 0 && [...placement.desired.values()].every((p) => p !== undefined && !isActivePod(p));
  if (complete) {
    status = finished({ ...status, phase: PHASE.completed }, 'Complete', `Job completed, ${succeeded} pods succeeded, ${failed} pods failed`, now);
    plan.events.push(note(run, 'Normal', 'JobComplete', `Job ${job.metadata.namespace}/${job.metadata.name} is completed, ${succeeded} pods succeeded, ${failed} pods failed`));
  }
  writeStatus();
  const wakes = complete ? [ttlWake(job)] : [untilDeadline, wrotePods ? WAITING_REQUEUE_MS : undefined];
  const due = wakes.filter((w): w is number => w !== undefined);
  return due.length ? Math.min(...due) : undefined;
}

export function decideBroadcastJobs(o: BroadcastJobObserved, now: Date): Plan {
  const plan = emptyPlan();
  let requeue: number | undefined;
  for (const job of o.jobs) {
    const run: JobRun = { job, now, plan: emptyPlan() };
    const after = decideJob(run, o.podsByJob.get(job.metadata.uid ?? '') ?? [], o.nodes);
    plan.writes.push(...run.plan.writes);
    plan.status.push(...run.plan.status);
    plan.events.push(...run.plan.events);
    if (after !== undefined) requeue = Math.min(requeue ?? Infinity, after);
  }
  if (requeue !== undefined) plan.requeueAfterMs = requeue;
  return plan;
}
