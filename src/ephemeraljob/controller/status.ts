// EphemeralJob status as OpenKruise's calculateStatus computes it: each matched pod is classed by
// the states of the job's ephemeral containers in it, the counts give the phase, and the phase
// adds conditions (one per type, replaced in place). Pure: the clock comes in as `now`.
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import type { EphemeralJob, EphemeralJobConditionType, EphemeralJobStatus } from '../../api/apps/ephemeraljob.js';
import { rfc3339 } from '../../workload/pods.js';

type PodState = 'Succeeded' | 'Failed' | 'Running' | 'Pending' | 'Unknown';
type ContainerState = 'Succeeded' | 'Failed' | 'Running' | 'Waiting' | 'Unknown';
type Condition = NonNullable<EphemeralJobStatus['conditions']>[number];
type JobView = Pick<EphemeralJob, 'spec'> & { metadata: { name: string; namespace: string }; status?: Partial<EphemeralJobStatus> };

/** parseEphemeralContainerStatus: exit 0 after finishing succeeds; a non-zero exit or RunContainerError fails. */
export function containerState(status: V1ContainerStatus): ContainerState {
  const { terminated, running, waiting } = status.state ?? {};
  if (terminated) {
    if (terminated.finishedAt && terminated.exitCode === 0) return 'Succeeded';
    if (terminated.exitCode !== 0) return 'Failed';
  }
  if (running) return 'Running';
  if (waiting) return waiting.reason === 'RunContainerError' ? 'Failed' : 'Waiting';
  return 'Unknown';
}

/** parseEphemeralPodStatus: one failed container fails the pod; all succeeded → Succeeded; then Running, Pending. */
export function podState(containerNames: ReadonlySet<string>, pod: V1Pod): PodState {
  let waiting = 0;
  let running = 0;
  let succeeded = 0;
  for (const status of pod.status?.ephemeralContainerStatuses ?? []) {
    if (!containerNames.has(status.name)) continue;
    const state = containerState(status);
    if (state === 'Failed') return 'Failed';
    if (state === 'Waiting') waiting++;
    else if (state === 'Running') running++;
    else if (state === 'Succeeded') succeeded++;
  }
  if (succeeded > 0 && succeeded === containerNames.size) return 'Succeeded';
  if (running > 0) return 'Running';
  if (waiting > 0) return 'Pending';
  return 'Unknown';
}

function withCondition(conditions: Condition[], type: EphemeralJobConditionType, reason: string, message: string, now: string): Condition[] {
  const condition: Condition = { type, status: 'True', lastProbeTime: now, lastTransitionTime: now, reason, message };
  const at = conditions.findIndex((c) => c.type === type);
  if (at < 0) return [...conditions, condition];
  return conditions.map((c, i) => (i === at ? condition : c));
}

export function pastActiveDeadline(job: JobView, now: Date): boolean {
  const deadline = job.spec.activeDeadlineSeconds;
  const start = job.status?.startTime;
  if (deadline == null || !start) return false;
  return now.getTime() - Date.parse(start) >= deadline * 1000;
}

/** The job's status from its matched pods (OpenKruise's calculateStatus). */
export function computeStatus(job: JobView, pods: readonly V1Pod[], now: Date): EphemeralJobStatus {
  const stamp = rfc3339(now);
  const prior = job.status ?? {};
  // OpenKruise's Initialized message is "": left out, as the API server's merge patch of a list
  // turns an empty string into null, which the CRD's schema refuses.
  let conditions: Condition[] = prior.conditions ?? [{ type: 'Initialized', status: 'True', lastProbeTime: stamp, lastTransitionTime: stamp, reason: 'Initialized' }];
  const names = new Set((job.spec.template.ephemeralContainers ?? []).map((c) => c.name));
  const counts = { Succeeded: 0, Failed: 0, Running: 0, Pending: 0, Unknown: 0 };
  if (names.size > 0) for (const pod of pods) counts[podState(names, pod)]++;
  const status: EphemeralJobStatus = {
    ...prior,
    conditions,
    phase: 'Unknown',
    match: pods.length,
    succeeded: counts.Succeeded,
    failed: counts.Failed,
    running: counts.Running,
    waiting: counts.Pending,
  };
  const replicas = job.spec.replicas ?? status.match;
  if (status.match === 0) {
    status.phase = 'Waiting';
    conditions = withCondition(conditions, 'MatchedEmpty', 'MatchEmpty', 'job match no pods', stamp);
  } else if (status.succeeded === replicas && status.succeeded > 0) {
    status.completionTime = stamp;
    status.phase = 'Succeeded';
    conditions = withCondition(conditions, 'JobSucceeded', 'JobSucceeded', 'job success to run all tasks', stamp);
  } else if (status.running > 0) {
    status.phase = 'Running';
  } else if (status.failed === replicas) {
    status.completionTime = stamp;
    status.phase = 'Failed';
    conditions = withCondition(conditions, 'JobFailed', 'JobFailed', 'job failed to run all tasks', stamp);
  } else if (status.waiting === replicas) {
    status.phase = 'Waiting';
  }
  if (job.spec.paused) status.phase = 'Paused';
  const { namespace, name } = job.metadata;
  if (status.failed > 0) conditions = withCondition(conditions, 'JobFailed', 'CreateFailed', `EphemeralJob ${namespace}/${name} failed to create ephemeral container`, stamp);
  if ((status.phase === 'Waiting' || status.phase === 'Unknown' || status.phase === 'Running') && pastActiveDeadline(job, now)) {
    status.completionTime = stamp;
    status.phase = 'Failed';
    conditions = withCondition(conditions, 'JobFailed', 'DeadlineExceeded', `EphemeralJob ${namespace}/${name} was active longer than specified deadline`, stamp);
  }
  if (names.size === 0) {
    status.phase = 'Error';
    conditions = withCondition(conditions, 'JobError', 'Error', 'job spec invalid fields.', stamp);
  }
  status.conditions = conditions;
  return status;
}

const FIELDS = ['phase', 'match', 'succeeded', 'failed', 'running', 'waiting', 'startTime', 'completionTime'] as const;

/** The status as text, condition times left out, in one key order whatever order the server kept. */
const untimed = (s: Partial<EphemeralJobStatus> | undefined) =>
  JSON.stringify([FIELDS.map((k) => s?.[k] ?? null), (s?.conditions ?? []).map((c) => [c.type, c.status, c.reason ?? '', c.message ?? ''])]);

/**
 * Whether the status differs from the stored one, condition times aside: OpenKruise stamps a
 * condition anew each time it adds it, and writing that alone would make every run write.
 */
export function statusChanged(stored: Partial<EphemeralJobStatus> | undefined, next: EphemeralJobStatus): boolean {
  return untimed(stored) !== untimed(next);
}
