// One CloneSet's decision in progress: what was observed, the revisions in play, and the plan
// being written. Scaling (scale.ts), refreshing pod states (refresh.ts) and updating (update.ts)
// share it; like OpenKruise, a run that scales does not update, and each pod gets at most one
// write per run (every write carries the pod's resourceVersion, so a second would conflict).
import type { KubeObject } from '../../kube/http.js';
import type { FeatureGates } from '../../reconcile/feature-gates.js';
import type { EventNote, Plan, StatusWrite } from '../../reconcile/types.js';
export { afterStatusWrite, metadataOnlyChange } from '../../workload/pod-status-writes.js';
import type { DisruptionBudget } from '../../workload/disruption.js';
import type { InPlaceUpdateAction } from '../../workload/inplace-update-step.js';
import { applyInPlaceAction, type InPlaceWriter } from '../../workload/inplace-update-writes.js';
import type { Lifecycle } from '../../workload/lifecycle.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { SPECIFIED_DELETE_LABEL, cloneSetRef, shortHash, type StoredCloneSet } from '../types.js';
import { isCloneSetPodAvailable } from './availability.js';
import { vctAllowsInPlace } from '../vct-hash.js';
import type { Pvc } from './observe.js';

export type CloneSetRun = {
  cs: StoredCloneSet;
  /** Active pods (not terminating), including those in PreparingDelete. */
  pods: Pod[];
  pvcs: Pvc[];
  /** Instance ids of every pod owned, terminating ones included. */
  ownedIds: ReadonlySet<string>;
  revisions: ReadonlyMap<string, ControllerRevision>;
  updateRevision: string;
  currentRevision: string;
  now: Date;
  gates: FeatureGates;
  budget: DisruptionBudget;
  /** Node labels by name, when the template has topologySpreadConstraints. */
  nodeLabels?: ReadonlyMap<string, Record<string, string>>;
  plan: Plan;
  /** Readiness writes refresh held back for pods that may be starting an in-place update. */
  deferredReady: Map<string, StatusWrite>;
  /** Pods written this run (by name). */
  touched: Set<string>;
  /** Pods this run's status writes make available again (by name). */
  readied: Set<string>;
  /** The earliest wake-up asked for (ms from now). */
  wakeMs?: number;
};

export const podRef = (pod: Pod) => ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace });

export const lifecycleOf = (run: CloneSetRun): Lifecycle | undefined => run.cs.spec.lifecycle as Lifecycle | undefined;

/** EqualToRevisionHash: the full revision name or just its hash. */
export const isAtRevision = (pod: Pod, revision: string): boolean => {
  const label = pod.metadata.labels?.['controller-revision-hash'] ?? '';
  return label === revision || shortHash(label) === shortHash(revision);
};

export const isUpdated = (run: CloneSetRun, pod: Pod): boolean => isAtRevision(pod, run.updateRevision);

/** What pods at `revision` carry in controller-revision-hash (just the hash with CloneSetShortHash). */
export const revisionLabel = (run: CloneSetRun, revision: string): string => (run.gates.CloneSetShortHash ? shortHash(revision) : revision);

export const isSpecifiedDelete = (cs: StoredCloneSet, pod: Pod): boolean =>
  pod.metadata.labels?.[SPECIFIED_DELETE_LABEL] === 'true' || (cs.spec.scaleStrategy?.podsToDelete ?? []).includes(pod.metadata.name);

export const isAvailable = (run: CloneSetRun, pod: Pod): boolean => isCloneSetPodAvailable(pod, run.cs.spec.minReadySeconds ?? 0, run.now.getTime());
/** isPodReady in OpenKruise's scaling: available with minReadySeconds 0. */
export const isReady = (run: CloneSetRun, pod: Pod): boolean => isCloneSetPodAvailable(pod, 0, run.now.getTime());

/**
 * With RecreatePodWhenChangeVCTInCloneSetGate, a change of volume-claim-template hash between the
 * revisions rules out an in-place update, unless the strategy is InPlaceOnly (GetUpdateOptions'
 * IgnoreVolumeClaimTemplatesHashDiff).
 */
export function vctForbidsInPlace(run: CloneSetRun, from: ControllerRevision | undefined, to: ControllerRevision | undefined): boolean {
  if (!run.gates.RecreatePodWhenChangeVCTInCloneSetGate || run.cs.spec.updateStrategy?.type === 'InPlaceOnly') return false;
  return !vctAllowsInPlace(from, to);
}

export function wakeIn(run: CloneSetRun, ms: number): void {
  run.wakeMs = Math.min(run.wakeMs ?? Infinity, Math.max(ms, 0));
}

/** An Event about the CloneSet (not yet in the plan: e.g. to narrate one write). */
export function eventNote(run: CloneSetRun, type: EventNote['type'], reason: string, message: string): EventNote {
  return { regarding: { ...cloneSetRef(run.cs), ...(run.cs.metadata.uid ? { uid: run.cs.metadata.uid } : {}) }, type, reason, message };
}

export function event(run: CloneSetRun, type: EventNote['type'], reason: string, message: string): void {
  run.plan.events.push(eventNote(run, type, reason, message));
}

/** Replace `pod` with `next` (the observed resourceVersion is the precondition). */
export function updatePod(run: CloneSetRun, pod: Pod, next: Pod, reason: string): void {
  run.touched.add(pod.metadata.name);
  run.plan.writes.push({ op: 'update', object: next as unknown as KubeObject, reason: `CloneSet ${run.cs.metadata.name}: ${reason}` });
}

export function writePodStatus(run: CloneSetRun, pod: Pod, write: StatusWrite): void {
  run.touched.add(pod.metadata.name);
  run.plan.status.push(write);
}

export const untouched = (run: CloneSetRun, pod: Pod): boolean => !run.touched.has(pod.metadata.name);

/** The run as the shared in-place planner writes to it (workload/inplace-update-writes.ts). */
/** `afterStatus`: its status writes go only once this run's other status writes landed. */
export const inPlaceWriter = (run: CloneSetRun, afterStatus = false): InPlaceWriter => ({
  writeStatus: (pod, w) => writePodStatus(run, pod, { ...(w.then ? { ...w, then: { ...w.then, reason: `CloneSet ${run.cs.metadata.name}: ${w.then.reason}` } } : w), ...(afterStatus ? { afterStatus } : {}) }),
  updatePod: (pod, next, reason) => updatePod(run, pod, next, reason),
  wakeAt: (at) => wakeIn(run, at.getTime() - run.now.getTime()),
});

/** Plans the write an in-place update step asks for (and its wake-up); false when it asks none. */
export const applyInPlaceWrite = (run: CloneSetRun, pod: Pod, action: InPlaceUpdateAction): boolean => applyInPlaceAction(pod, action, inPlaceWriter(run));
