// One DaemonSet's decision in progress: what was observed (its nodes and their pods, the
// revisions), and the plan being written. Placement (manage.ts), in-place refresh (refresh.ts)
// and the rolling update (rolling.ts) share it; each pod gets at most one write per run (every
// write carries the pod's resourceVersion or uid, so a second one would conflict anyway).
import type { KubeObject } from '../../kube/http.js';
import type { EventNote, Plan, StatusWrite } from '../../reconcile/types.js';
import { INPLACE_UPDATE_READY } from '../../workload/inplace-update-state.js';
import type { InPlaceUpdateAction } from '../../workload/inplace-update-step.js';
import { applyInPlaceAction, type InPlaceWriter } from '../../workload/inplace-update-writes.js';
import type { Node } from '../../workload/nodes.js';
import { podAvailability, podCondition, type Pod } from '../../workload/pods.js';
import { hasInPlaceUpdateReadinessGate } from '../../workload/inplace-update-condition.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { REVISION_HASH_LABEL, TEMPLATE_GENERATION_ANNOTATION, TEMPLATE_GENERATION_LABEL, daemonSetRef, type StoredDaemonSet as DaemonSet } from '../types.js';
import type { NodeEligibility } from './placement.js';

export type DaemonSetRun = {
  ds: DaemonSet;
  /** Every node, by name. */
  nodes: ReadonlyMap<string, Node>;
  /** Whether each node should run the pod, and keep running one. */
  eligibility: ReadonlyMap<string, NodeEligibility>;
  /** The DaemonSet's pods (terminating ones included) by the node they are (or will be) on. */
  podsByNode: ReadonlyMap<string, Pod[]>;
  /** Pods bound to no node and pinned to none either. */
  unplaced: Pod[];
  /** Every pod name the DaemonSet holds, terminating ones included (new names avoid them). */
  podNames: ReadonlySet<string>;
  /** The current revision's hash (controller-revision-hash of updated pods). */
  hash: string;
  current: ControllerRevision;
  old: readonly ControllerRevision[];
  now: Date;
  plan: Plan;
  touched: Set<string>;
  /** Ready-again writes held back for pods that may be between the two writes that start an in-place update. */
  deferredReady: Map<string, StatusWrite>;
  /** Pods this run's status writes make available again (by name). */
  readied: Set<string>;
  wakeMs?: number;
};

export const podRef = (pod: Pod) => ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace });

/** The template generation the DaemonSet carries (deprecated.daemonset.template.generation), if any. */
export function templateGeneration(ds: DaemonSet): string | undefined {
  const v = ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
  return v !== undefined && /^-?\d+$/.test(v) ? String(BigInt(v)) : undefined;
}

/** util.IsPodUpdated: the pod carries the current hash, or the DaemonSet's template generation. */
export function isUpdated(run: DaemonSetRun, pod: Pod): boolean {
  const labels = pod.metadata.labels ?? {};
  const generation = templateGeneration(run.ds);
  return (run.hash !== '' && labels[REVISION_HASH_LABEL] === run.hash) || (generation !== undefined && labels[TEMPLATE_GENERATION_LABEL] === generation);
}

/** podutil.IsPodReady. */
export const isReady = (pod: Pod): boolean => podCondition(pod, 'Ready')?.status === 'True';

/** isDaemonPodAvailable: Ready for minReadySeconds, and not in the middle of an in-place update. */
export function isAvailable(run: DaemonSetRun, pod: Pod): boolean {
  if (!podAvailability(pod, run.ds.spec.minReadySeconds ?? 0, run.now.getTime()).available) return false;
  if (!hasInPlaceUpdateReadinessGate(pod)) return true;
  const c = podCondition(pod, INPLACE_UPDATE_READY);
  return !c || c.status === 'True';
}

/**
 * Available once this run's status writes land: available now, or made available by them. Pods
 * started in the room that frees go after those writes.
 */
export function availableOnceWritten(run: DaemonSetRun, pod: Pod): boolean {
  return isAvailable(run, pod) || run.readied.has(pod.metadata.name);
}

export function wakeIn(run: DaemonSetRun, ms: number): void {
  run.wakeMs = Math.min(run.wakeMs ?? Infinity, Math.max(ms, 0));
}

export function eventNote(run: DaemonSetRun, type: EventNote['type'], reason: string, message: string): EventNote {
  return { regarding: { ...daemonSetRef(run.ds), ...(run.ds.metadata.uid ? { uid: run.ds.metadata.uid } : {}) }, type, reason, message };
}

export function event(run: DaemonSetRun, type: EventNote['type'], reason: string, message: string): void {
  run.plan.events.push(eventNote(run, type, reason, message));
}

export const untouched = (run: DaemonSetRun, pod: Pod): boolean => !run.touched.has(pod.metadata.name);

export function updatePod(run: DaemonSetRun, pod: Pod, next: Pod, reason: string): void {
  run.touched.add(pod.metadata.name);
  run.plan.writes.push({ op: 'update', object: next as unknown as KubeObject, reason: `DaemonSet ${run.ds.metadata.name}: ${reason}` });
}

export function writePodStatus(run: DaemonSetRun, pod: Pod, write: StatusWrite): void {
  run.touched.add(pod.metadata.name);
  run.plan.status.push(write);
}

/**
 * The run as the shared in-place planner writes to it (workload/inplace-update-writes.ts);
 * `afterStatus`: its status writes go only once this run's other status writes landed.
 */
export const inPlaceWriter = (run: DaemonSetRun, afterStatus = false): InPlaceWriter => ({
  writeStatus: (pod, w) => writePodStatus(run, pod, { ...(w.then ? { ...w, then: { ...w.then, reason: `DaemonSet ${run.ds.metadata.name}: ${w.then.reason}` } } : w), ...(afterStatus ? { afterStatus } : {}) }),
  updatePod: (pod, next, reason) => updatePod(run, pod, next, reason),
  wakeAt: (at) => wakeIn(run, at.getTime() - run.now.getTime()),
});

/** Plans the write an in-place update step asks for (and its wake-up); false when it asks none. */
export const applyInPlaceWrite = (run: DaemonSetRun, pod: Pod, action: InPlaceUpdateAction): boolean => applyInPlaceAction(pod, action, inPlaceWriter(run));

