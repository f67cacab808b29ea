// The rolling update (rollingUpdateStatefulsetPods in OpenKruise's stateful_set_control.go), once
// scaling let the run through and no pod state needed refreshing:
//   - unavailable pods are counted over every replica, wherever it is in the update order
//     (unhealthy, terminating, in-place update not finished, not yet available for
//     minReadySeconds: kruise PR#1480);
//   - pods labelled apps.kruise.io/specified-delete are deleted within maxUnavailable, whatever
//     the partition;
//   - pods to update: from the highest ordinal down to the partition (replicas − partition pods),
//     or with unorderedUpdate updated ones first then by priorityStrategy;
//   - each is updated in place (InPlaceIfPossible / InPlaceOnly, when only images and template
//     metadata differ; through its inPlaceUpdate hook; asking the PUBs) or deleted to be recreated
//     at the update revision, while fewer than maxUnavailable pods are unavailable.
// Pure.
import type { UpdatePriorityStrategy } from '../../api/apps/pub.js';
import { isPodInPlaceUpdateCompleted } from '../../workload/inplace-update-completion.js';
import { inPlaceUpdateStep } from '../../workload/inplace-update-step.js';
import { planInPlaceUpdate } from '../../workload/inplace-update-writes.js';
import { inPlaceUpdateSpec, type PodTemplate } from '../../workload/inplace-update.js';
import { inPlaceHookGate } from '../../workload/inplace-update-hook.js';
import { lifecycleState, withLifecycleState } from '../../workload/lifecycle.js';
import { sortByPriority } from '../../workload/order.js';
import type { Pod } from '../../workload/pods.js';
import { SPECIFIED_DELETE_LABEL } from '../types.js';
import { deleteOrPrepare } from './delete.js';
import { templateOfRevision } from '../../workload/template-revision.js';
import { gracePeriodOf, inPlaceOptions } from './refresh.js';
import type { Slot } from './replicas.js';
import {
  availability,
  event,
  isCreated,
  isHealthy,
  isTerminating,
  inPlaceWriter,
  isUpdated,
  lifecycleOf,
  maxUnavailableOf,
  podRevision,
  replicasOf,
  rollingUpdateOf,
  untouched,
  updatePod,
  wakeIn,
  writePodStatus,
  type StsRun,
} from './run.js';

/** A PUB refused an in-place update: look again soon. */
export const UPDATE_BUDGET_RETRY_MS = 2_000;

/** The unavailable pods the update counts (by name). */
function unavailablePods(run: StsRun, slots: readonly Slot[]): Set<string> {
  const out = new Set<string>();
  for (const { pod } of slots) {
    if (!isHealthy(pod) || !isPodInPlaceUpdateCompleted(pod)) {
      out.add(pod.metadata.name);
      continue;
    }
    const a = availability(run, pod);
    if (!a.available) {
      out.add(pod.metadata.name);
      if (a.waitMs > 0) wakeIn(run, a.waitMs);
    }
  }
  return out;
}

/** sortPodsToUpdate: slot indexes in update order, at most replicas − partition of them. */
export function updateOrder(run: StsRun, slots: readonly Slot[]): number[] {
  const ru = rollingUpdateOf(run.set);
  const partition = ru?.partition ?? 0;
  const maxUpdate = replicasOf(run.set) - partition;
  if (maxUpdate <= 0) return [];
  if (!ru?.unorderedUpdate) {
    // Ordinal order from the highest down, stopping at the partition (positions count reserved ordinals too).
    const out: number[] = [];
    for (let i = slots.length - 1; i >= 0 && out.length < maxUpdate; i--) {
      if (slots[i]!.ordinal - run.range.start >= partition) out.push(i);
    }
    return out;
  }
  const done: number[] = [];
  const waiting: number[] = [];
  for (let i = slots.length - 1; i >= 0; i--) {
    const pod = slots[i]!.pod;
    (isTerminating(pod) || isUpdated(run, pod) ? done : waiting).push(i);
  }
  const pods = slots.map((s) => s.pod);
  const sorted = sortByPriority(ru.unorderedUpdate.priorityStrategy as UpdatePriorityStrategy | undefined, pods, waiting);
  return [...done, ...sorted].slice(0, maxUpdate);
}

/** inPlaceUpdatePod: plans the pod's next in-place step; false when it cannot be updated in place. */
function updateInPlace(run: StsRun, pod: Pod, afterStatus = false): 'in-place' | 'waiting' | false {
  const policy = rollingUpdateOf(run.set)?.podUpdatePolicy ?? 'ReCreate';
  if (policy !== 'InPlaceIfPossible' && policy !== 'InPlaceOnly') return false;
  const from = templateOfRevision(run.revisions.get(podRevision(pod)));
  const to = templateOfRevision(run.revisions.get(run.updateRevision));
  const spec = from && to ? inPlaceUpdateSpec(from as PodTemplate, to as PodTemplate) : undefined;
  if (spec?.kind !== 'in-place') {
    if (policy === 'InPlaceOnly') {
      event(run, 'Warning', 'FailedUpdatePodInPlace', `find strategy is InPlaceOnly but Pod ${pod.metadata.name} can not update in-place`);
      return 'waiting';
    }
    return false;
  }
  const gate = inPlaceHookGate(pod, lifecycleOf(run.set)?.inPlaceUpdate, run.now, { rearmWithoutHook: true });
  // A start in room that this run's own writes free sends nothing before those writes land.
  if (afterStatus && gate.type !== 'proceed') return 'waiting';
  switch (gate.type) {
    case 'hold-status':
      writePodStatus(run, pod, gate.write);
      return 'waiting';
    case 'hold-update':
      updatePod(run, pod, gate.pod, gate.reason);
      return 'waiting';
    case 'wait':
      return 'waiting';
    case 'refuse':
      event(run, 'Warning', 'FailedUpdatePodInPlace', gate.message);
      return 'waiting';
    case 'proceed':
      break;
  }
  if (run.gates.PodUnavailableBudgetUpdateGate) {
    const verdict = run.budget.requestUpdate(pod);
    if (!verdict.allowed) {
      wakeIn(run, UPDATE_BUDGET_RETRY_MS);
      return 'waiting';
    }
  }
  const onStart = lifecycleState(pod) ? (q: Pod) => withLifecycleState(q, 'Updating', run.now) : undefined;
  const step = (p: Pod) => inPlaceUpdateStep(p, spec, run.updateRevision, run.now, gracePeriodOf(run), inPlaceOptions(onStart));
  // Out of service first, then the update itself, chained on the version that write produces.
  return planInPlaceUpdate(pod, step, inPlaceWriter(run, afterStatus)).updated ? 'in-place' : 'waiting';
}

export function planRollingUpdate(run: StsRun, slots: readonly Slot[]): void {
  const ru = rollingUpdateOf(run.set);
  if (ru?.paused) return;
  const maxUnavailable = maxUnavailableOf(ru?.maxUnavailable, replicasOf(run.set));
  const unavailable = unavailablePods(run, slots);
  const blocked = (pod: Pod) => unavailable.size >= maxUnavailable && !unavailable.has(pod.metadata.name);
  // Once this run's writes that make pods available again land: the room between the two goes to
  // in-place updates sent after those writes (afterStatus).
  const unavailableAfter = new Set([...unavailable].filter((name) => !run.readied.has(name)));
  const blockedAfter = (pod: Pod) => unavailableAfter.size >= maxUnavailable && !unavailableAfter.has(pod.metadata.name);
  const mark = (name: string) => {
    unavailable.add(name);
    unavailableAfter.add(name);
  };

  const specified = new Set<string>();
  for (let i = slots.length - 1; i >= 0; i--) {
    const pod = slots[i]!.pod;
    if (!isCreated(pod) || pod.metadata.labels?.[SPECIFIED_DELETE_LABEL] !== 'true' || blocked(pod)) continue;
    specified.add(pod.metadata.name);
    if (!isTerminating(pod)) deleteOrPrepare(run, pod, `pod ${pod.metadata.name} is marked ${SPECIFIED_DELETE_LABEL}`);
    mark(pod.metadata.name);
  }

  const inPlace: string[] = [];
  for (const i of updateOrder(run, slots)) {
    const pod = slots[i]!.pod;
    if (isUpdated(run, pod) || !isCreated(pod)) continue;
    if (blockedAfter(pod)) return void inPlaceEvent(run, inPlace);
    const later = blocked(pod);
    if (!specified.has(pod.metadata.name) && !isTerminating(pod) && untouched(run, pod)) {
      const r = updateInPlace(run, pod, later);
      if (r === 'in-place') inPlace.push(pod.metadata.name);
      else if (r === false && later) return void inPlaceEvent(run, inPlace);
      else if (r === false) deleteOrPrepare(run, pod, `pod ${pod.metadata.name} is recreated at revision ${run.updateRevision}`);
    }
    mark(pod.metadata.name);
  }
  inPlaceEvent(run, inPlace);
}

/** One Event per run, not per pod (OpenKruise's message when it is one pod). */
function inPlaceEvent(run: StsRun, names: readonly string[]): void {
  if (names.length === 1) event(run, 'Normal', 'SuccessfulUpdatePodInPlace', `successfully update pod ${names[0]} in-place(revision ${run.updateRevision})`);
  else if (names.length > 1) event(run, 'Normal', 'SuccessfulUpdatePodInPlace', `successfully update pods ${names.join(', ')} in-place(revision ${run.updateRevision})`);
}
