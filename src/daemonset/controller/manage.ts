// Placing a DaemonSet's pods (OpenKruise's manage, podsShouldBeOnNode and syncNodes): a pod for
// every node that should run one and has none; on nodes that may keep running one, failed pods and
// pods in PreparingDelete go, and extra pods go (oldest kept; with maxSurge, the node's oldest new
// and oldest old pod are kept, and the old one goes once the new one is available or the old one
// is not ready); every pod goes from nodes that must not run one, and unscheduled pods pinned to
// nodes that no longer exist (pods pinned to no node at all are left alone, as upstream does). Creates go in slow-start batches, creates and deletes each capped
// at burstReplicas; a pod whose preDelete hook is on it moves to PreparingDelete instead of going.
// Pure.
import { kruiseScaledValue } from '../../kube/intstr.js';
import { isPodHooked, lifecycleState, withLifecycleState } from '../../workload/lifecycle.js';
import { statusWrite } from '../../workload/pod-conditions.js';
import { addNotReadyKey, PRE_DELETE_HOOK_KEY } from '../../workload/pod-readiness.js';
import { podAvailability, type Pod } from '../../workload/pods.js';
import { DEFAULT_BURST_REPLICAS, type StoredDaemonSet as DaemonSet } from '../types.js';
import { daemonPodName, newDaemonPod } from './new-pod.js';
import { podOrder } from './placement.js';
import { nodesToCreateOn } from './progressive-create.js';
import { event, eventNote, isAvailable, isReady, isUpdated, podRef, untouched, updatePod, wakeIn, writePodStatus, type DaemonSetRun } from './run.js';

export const isPreDeleting = (pod: Pod | undefined): boolean => pod !== undefined && lifecycleState(pod) === 'PreparingDelete';

/** surgeCount / unavailableCount: maxSurge and maxUnavailable of `total` nodes (rounded up); 0 unless RollingUpdate. */
export function rollingCounts(ds: DaemonSet, total: number): { maxSurge: number; maxUnavailable: number } {
  const rolling = ds.spec.updateStrategy?.type === 'RollingUpdate' ? ds.spec.updateStrategy.rollingUpdate : undefined;
  const scaled = (v: unknown) => {
    if (v === undefined || v === null) return 0;
    const n = kruiseScaledValue(v as number | string, total, true);
    return typeof n === 'number' ? n : 0;
  };
  return { maxSurge: scaled(rolling?.maxSurge), maxUnavailable: scaled(rolling?.maxUnavailable) };
}

export const allowSurge = (ds: DaemonSet): boolean => rollingCounts(ds, 1).maxSurge > 0;

/** getBurstReplicas: burstReplicas of the recorded desiredNumberScheduled, rounded down. */
function burstReplicas(ds: DaemonSet): number {
  const n = kruiseScaledValue(ds.spec.burstReplicas ?? DEFAULT_BURST_REPLICAS, ds.status?.desiredNumberScheduled ?? 0, false);
  return typeof n === 'number' ? n : DEFAULT_BURST_REPLICAS;
}

type NodeDecision = { create: boolean; remove: Pod[] };

/** podsShouldBeOnNode. */
function decideNode(run: DaemonSetRun, node: string): NodeDecision {
  const { shouldRun, shouldContinueRunning } = run.eligibility.get(node) ?? { shouldRun: false, shouldContinueRunning: false };
  const pods = run.podsByNode.get(node);
  const remove: Pod[] = [];
  if (shouldRun && !pods) return { create: true, remove };
  if (!pods) return { create: false, remove };
  if (!shouldContinueRunning) return { create: false, remove: pods.filter((p) => !p.metadata.deletionTimestamp) };
  const running: Pod[] = [];
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (pod.status?.phase === 'Failed') {
      event(run, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${node}, will try to kill it`);
      remove.push(pod);
    } else if (isPreDeleting(pod)) remove.push(pod);
    else running.push(pod);
  }
  running.sort(podOrder);
  if (!allowSurge(run.ds)) return { create: false, remove: [...remove, ...running.slice(1)] };
  if (running.length === 0) return { create: shouldRun, remove };
  let oldestNew: Pod | undefined;
  let oldestOld: Pod | undefined;
  for (const pod of running) {
    if (isUpdated(run, pod)) {
      if (!oldestNew) oldestNew = pod;
      else remove.push(pod);
    } else if (!oldestOld) oldestOld = pod;
    else remove.push(pod);
  }
  if (oldestNew && oldestOld) {
    if (!isReady(oldestOld) || isAvailable(run, oldestNew)) remove.push(oldestOld);
    else {
      const at = podAvailability(oldestNew, run.ds.spec.minReadySeconds ?? 0, run.now.getTime()).at;
      if (at !== undefined) wakeIn(run, at - run.now.getTime());
    }
  }
  return { create: false, remove };
}

/** Pods to delete: hooked ones move to PreparingDelete (KruisePodReady False first with markPodNotReady); the rest are deleted. */
export function deletePods(run: DaemonSetRun, pods: readonly Pod[], why: (p: Pod) => string): void {
  const hook = run.ds.spec.lifecycle?.preDelete;
  for (const pod of pods.slice(0, burstReplicas(run.ds))) {
    if (!untouched(run, pod)) continue;
    if (hook && isPodHooked(hook, pod)) {
      const notReady = hook.markPodNotReady ? addNotReadyKey(pod, PRE_DELETE_HOOK_KEY, run.now) : undefined;
      if (notReady) writePodStatus(run, pod, statusWrite(pod, notReady, `pod ${pod.metadata.name} waits in its preDelete hook: KruisePodReady=False`));
      else if (!isPreDeleting(pod)) updatePod(run, pod, withLifecycleState(pod, 'PreparingDelete', run.now), `pod ${pod.metadata.name} waits in its preDelete hook (PreparingDelete)`);
      continue;
    }
    run.touched.add(pod.metadata.name);
    run.plan.writes.push({
      op: 'delete', target: podRef(pod), ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}),
      reason: `DaemonSet ${run.ds.metadata.name}: ${why(pod)}`,
      event: eventNote(run, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`),
    });
  }
}

/** Creates a pod on each node, in slow-start batches, at most burstReplicas. */
export function createPods(run: DaemonSetRun, nodes: readonly string[], why: string): void {
  const taken = new Set(run.podNames);
  for (const node of [...nodes].sort().slice(0, burstReplicas(run.ds))) {
    const name = daemonPodName(run.ds, node, run.hash, taken);
    taken.add(name);
    run.plan.writes.push({
      op: 'create', object: newDaemonPod(run.ds, node, run.hash, name) as never, slowStart: { group: 'create-pods', unit: node },
      reason: `DaemonSet ${run.ds.metadata.name}: ${why} on node ${node}`,
      event: eventNote(run, 'Normal', 'SuccessfulCreate', `Created pod: ${name}`),
    });
  }
}

/** manage: true when it planned any write (then, as in OpenKruise, nothing is updated this run). */
export function planPlacement(run: DaemonSetRun): boolean {
  const before = run.plan.writes.length + run.plan.status.length;
  const create: string[] = [];
  const remove: { pod: Pod; why: string }[] = [];
  for (const node of new Set([...run.nodes.keys(), ...run.podsByNode.keys()])) {
    if (!run.nodes.has(node)) continue;
    const d = decideNode(run, node);
    if (d.create) create.push(node);
    const eligible = run.eligibility.get(node);
    for (const pod of d.remove) remove.push({ pod, why: eligible?.shouldContinueRunning ? `pod ${pod.metadata.name} is not needed on node ${node}` : `node ${node} must not run the pod: ${eligible?.reason ?? 'not eligible'}` });
  }
  // getUnscheduledPodsWithoutNode: pinned to a node that no longer exists and never bound.
  for (const [node, pods] of run.podsByNode) {
    if (run.nodes.has(node)) continue;
    for (const pod of pods) if (!pod.spec.nodeName && !pod.metadata.deletionTimestamp) remove.push({ pod, why: `node ${node} of pod ${pod.metadata.name} is gone` });
  }
  let desired = 0;
  let updated = 0;
  for (const node of run.nodes.keys()) {
    if (run.eligibility.get(node)?.shouldRun) desired += 1;
    if ((run.podsByNode.get(node) ?? []).some((p) => !p.metadata.deletionTimestamp && isUpdated(run, p))) updated += 1;
  }
  createPods(run, nodesToCreateOn(run.ds, create, { desired, updated }), 'a daemon pod');
  const reasons = new Map(remove.map((r) => [r.pod, r.why]));
  deletePods(run, remove.map((r) => r.pod), (p) => reasons.get(p) ?? 'not needed');
  return run.plan.writes.length + run.plan.status.length > before;
}
