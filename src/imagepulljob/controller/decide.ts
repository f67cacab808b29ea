// The ImagePullJob controller's decision, per job (OpenKruise's Reconcile, with pull pods in
// place of NodeImage entries). A finished job stops its pods still waiting on a pull and waits
// for its TTL, then goes. A running one: the start time; each target node's state from its pull
// pods (attempts.ts), or succeeded with no pod when its kubelet lists the image (node-images.ts): succeeded, failed (its last attempt failed and backoffLimit retries are
// spent), or pulling (an attempt under way, or the next one created now); older attempts still
// waiting are deleted. Past the active deadline the job completes with every unfinished node
// failed. Otherwise nodes without a pod get one while fewer than `parallelism` pull, and an
// Always job completes once no node is left pulling. Every wait is a wake-up: a pull's timeout,
// the deadline, the TTL. Pure.
import type { ImagePullJobStatus } from '../../api/apps/imagepulljob.js';
import type { KubeObject } from '../../kube/http.js';
import type { EventNote, Plan, Write } from '../../reconcile/types.js';
import { emptyPlan } from '../../reconcile/types.js';
import { rfc3339, type Pod } from '../../workload/pods.js';
import { DEFAULT_BACKOFF_LIMIT, imagePullJobRef, type StoredImagePullJob } from '../types.js';
import { attemptOf, attemptState, isTerminalPod } from './attempts.js';
import type { ImagePullJobObserved } from './observe.js';
import { DEFAULT_HELPER, newPullPod, pullPodName, pullTimeoutSeconds, type PullHelper } from './pull-pod.js';
import { DEADLINE_MESSAGE, activeDeadlineAt, isNever, statusChanged, statusMessage, ttlDeadlineAt } from './status.js';
import { targetNodes } from './targets.js';
import { nodeListsImage } from './node-images.js';

/** After a run that wrote pods, come back this soon in case no event follows (a write that failed). */
export const WAITING_REQUEUE_MS = 3_000;

export type ImagePullJobDecideOptions = { helper?: PullHelper };

type JobRun = { job: StoredImagePullJob; now: Date; plan: Plan; helper: PullHelper; wakes: number[] };

const podRef = (pod: Pod) => ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace });

function note(run: JobRun, message: string): EventNote {
  return { regarding: { ...imagePullJobRef(run.job), ...(run.job.metadata.uid ? { uid: run.job.metadata.uid } : {}) }, type: 'Warning', reason: 'PullImageFailed', message };
}

function deletePod(run: JobRun, pod: Pod, why: string): void {
  const w: Write = { op: 'delete', target: podRef(pod), ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}), reason: `ImagePullJob ${run.job.metadata.name}: ${why}` };
  run.plan.writes.push(w);
}

/** Pods that would keep a kubelet busy (pending or running, not being deleted). */
const lingering = (pods: readonly Pod[]) => pods.filter((p) => !isTerminalPod(p) && !p.metadata.deletionTimestamp);

function decideFinished(run: JobRun, pods: readonly Pod[], completionTime: string): void {
  for (const pod of lingering(pods)) deletePod(run, pod, `pod ${pod.metadata.name} is not needed: the job has finished`);
  const at = ttlDeadlineAt(run.job, completionTime);
  if (at === undefined) return;
  const now = run.now.getTime();
  if (now < at) return void run.wakes.push(at - now);
  const { job } = run;
  run.plan.writes.push({ op: 'delete', target: imagePullJobRef(job), ...(job.metadata.uid ? { preconditions: { uid: job.metadata.uid } } : {}), propagationPolicy: 'Background', reason: `ImagePullJob ${job.metadata.name}: ttlSecondsAfterFinished has passed` });
}

type NodePull = { state: 'succeeded' | 'failed' | 'pulling' | 'new'; node: string };

/** One node: its state, with the writes that move it on (a retry, older attempts stopped). */
function decideNode(run: JobRun, node: string, pods: readonly Pod[], taken: Set<string>, present: boolean): NodePull {
  const { job, now } = run;
  const timeout = pullTimeoutSeconds(job);
  const backoffLimit = job.spec.pullPolicy?.backoffLimit ?? DEFAULT_BACKOFF_LIMIT;
  // The kubelet lists the image already: nothing to pull (unless the job asks to pull Always).
  if (!pods.length) return { state: present ? 'succeeded' : 'new', node };
  if (pods.some((p) => attemptState(p, timeout, now.getTime()).state === 'succeeded')) return { state: 'succeeded', node };
  const last = Math.max(...pods.map(attemptOf));
  for (const pod of lingering(pods).filter((p) => attemptOf(p) < last)) deletePod(run, pod, `attempt ${attemptOf(pod)} on ${node} was superseded`);
  const latest = pods.find((p) => attemptOf(p) === last && !p.metadata.deletionTimestamp);
  const state = latest ? attemptState(latest, timeout, now.getTime()) : ({ state: 'failed', why: 'its pod was deleted' } as const);
  if (state.state === 'pulling') {
    run.wakes.push(state.timeoutAt - now.getTime());
    return { state: 'pulling', node };
  }
  if (state.state === 'succeeded') return { state: 'succeeded', node };
  if (last >= backoffLimit) {
    // Narrated once: on the run that first counts the node failed.
    if (!(job.status?.failedNodes ?? []).includes(node)) run.plan.events.push(note(run, `Node ${node}: attempt ${last} failed (${state.why}); no retries left`));
    return { state: 'failed', node };
  }
  // Retry: the next attempt, then the failed one stops (its kubelet would keep backing off).
  const attempt = last + 1;
  const name = pullPodName(job, node, attempt, taken);
  taken.add(name);
  run.plan.writes.push({ op: 'create', object: newPullPod(job, node, attempt, name, run.helper) as unknown as KubeObject, reason: `ImagePullJob ${job.metadata.name}: attempt ${last} on ${node} failed (${state.why}); attempt ${attempt} of ${backoffLimit + 1}`, event: note(run, `Node ${node}: attempt ${last} failed (${state.why}); retrying, attempt ${attempt} of ${backoffLimit + 1}`) });
  if (latest && !isTerminalPod(latest)) deletePod(run, latest, `attempt ${last} on ${node} failed (${state.why})`);
  run.wakes.push(timeout * 1000);
  return { state: 'pulling', node };
}

function parallelismOf(job: StoredImagePullJob): number {
  const p = job.spec.parallelism;
  if (p === undefined || p === null) return 1;
  const n = typeof p === 'number' ? p : Number(p);
  return Number.isFinite(n) && n >= 0 ? Math.trunc(n) : 1;
}

function decideJob(run: JobRun, pods: readonly Pod[], selected: readonly Pod[], o: ImagePullJobObserved): void {
  const { job, now, plan } = run;
  const stored: Partial<ImagePullJobStatus> = job.status ?? {};
  if (stored.completionTime) return decideFinished(run, pods, stored.completionTime);
  const startTime = stored.startTime ?? rfc3339(now);
  const targets = targetNodes(job, o.nodes, selected);
  const byNode = new Map<string, Pod[]>();
  for (const pod of pods) {
    const node = pod.spec.nodeName ?? '';
    byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }
  const taken = new Set(pods.map((p) => p.metadata.name));
  const nodes = new Map(o.nodes.map((n) => [n.metadata.name, n]));
  const present = (node: string) => job.spec.imagePullPolicy !== 'Always' && !!job.spec.image && nodeListsImage(nodes.get(node)!, job.spec.image);
  const pulls = targets.map((node) => decideNode(run, node, byNode.get(node) ?? [], taken, present(node)));
  const of = (s: NodePull['state']) => pulls.filter((p) => p.state === s).map((p) => p.node);
  const succeeded = of('succeeded');
  const failed = of('failed');
  const pulling = of('pulling');
  const fresh = of('new');
  let status: ImagePullJobStatus = { startTime, desired: targets.length };

  const deadlineAt = activeDeadlineAt(job, startTime);
  const unfinished = pulling.length + fresh.length > 0;
  if (deadlineAt !== undefined && unfinished && now.getTime() >= deadlineAt) {
    // OpenKruise: the job completes, every node not done counted failed; its pods stop.
    plan.writes.length = 0;
    for (const pod of lingering(pods)) deletePod(run, pod, 'the job exceeded activeDeadlineSeconds');
    const allFailed = [...failed, ...pulling, ...fresh].sort();
    status = { ...status, completionTime: rfc3339(now), active: 0, succeeded: succeeded.length, failed: allFailed.length, failedNodes: allFailed, message: DEADLINE_MESSAGE };
  } else {
    const room = Math.max(parallelismOf(job) - pulling.length, 0);
    for (const node of fresh.slice(0, room)) {
      const name = pullPodName(job, node, 0, taken);
      taken.add(name);
      plan.writes.push({
        op: 'create',
        object: newPullPod(job, node, 0, name, run.helper) as unknown as KubeObject,
        reason: `ImagePullJob ${job.metadata.name}: pull ${job.spec.image} on ${node}`,
        slowStart: { group: `imagepulljob/${job.metadata.uid ?? job.metadata.name}`, unit: name },
      });
      pulling.push(node);
    }
    status = { ...status, active: pulling.length, succeeded: succeeded.length, failed: failed.length, failedNodes: failed };
    if (!isNever(job) && pulling.length === 0 && fresh.length === 0) {
      status.completionTime = rfc3339(now);
    }
    if (deadlineAt !== undefined && unfinished) run.wakes.push(Math.max(deadlineAt - now.getTime(), 0));
    if (plan.writes.length) run.wakes.push(WAITING_REQUEUE_MS);
  }
  status.message ??= statusMessage(status);
  if (status.completionTime) {
    const at = ttlDeadlineAt(job, status.completionTime);
    if (at !== undefined) run.wakes.push(Math.max(at - now.getTime(), 0));
  }
  if (statusChanged(job.status, status)) {
    plan.status.push({
      target: imagePullJobRef(job),
      status: { ...status },
      ...(job.metadata.resourceVersion ? { resourceVersion: job.metadata.resourceVersion } : {}),
      reason: `ImagePullJob ${job.metadata.name}: ${status.message}; ${status.active ?? 0} active, ${status.succeeded} succeeded, ${status.failed} failed of ${status.desired}`,
    });
  }
}

export function decideImagePullJobs(o: ImagePullJobObserved, now: Date, opts: ImagePullJobDecideOptions = {}): Plan {
  const plan = emptyPlan();
  const wakes: number[] = [];
  for (const job of o.jobs) {
    const run: JobRun = { job, now, plan: emptyPlan(), helper: opts.helper ?? DEFAULT_HELPER, wakes };
    decideJob(run, o.podsByJob.get(job.metadata.uid ?? '') ?? [], o.selectedPods.get(job.metadata.uid ?? '') ?? [], o);
    plan.writes.push(...run.plan.writes);
    plan.status.push(...run.plan.status);
    plan.events.push(...run.plan.events);
  }
  if (wakes.length) plan.requeueAfterMs = Math.max(Math.min(...wakes), 0);
  return plan;
}
