// The rolling update (OpenKruise's rollingUpdate, filterDaemonPodsToUpdate and inPlaceUpdatePods,
// after Kubernetes' DaemonSet controller). Nodes that may be updated: those with a new (or no,
// or a PreparingDelete) pod first, then the old-pod nodes `rollingUpdate.selector` matches (all of
// them without a selector), in descending name order, cut to `nodes − partition` (partition of
// the recorded desiredNumberScheduled, rounded down). Then:
// - maxSurge 0: old pods that are not available are replaced at once; others only while fewer
//   than maxUnavailable nodes are without an available new pod. A replaced pod is updated in place
//   under InPlaceIfPossible when it can be (it has the InPlaceUpdateReady gate and only images and
//   template metadata changed), else deleted (placement creates the new pod next run).
// - maxSurge > 0: a new pod is created beside an old one that is not available, and beside
//   available ones while fewer than maxSurge nodes have a new pod that is not available yet; the
//   old pod goes once its node's new pod is available. Placement (manage.ts) does that too, so
//   an old pod never outlives its available replacement (kruise#1012).
// Pure.
import { matchesLabelSelector } from '../../kube/selectors.js';
import { kruiseScaledValue } from '../../kube/intstr.js';
import { hasInPlaceUpdateReadinessGate } from '../../workload/inplace-update-condition.js';
import { inPlaceUpdateStep, type InPlaceUpdateStepOptions } from '../../workload/inplace-update-step.js';
import { planInPlaceUpdate } from '../../workload/inplace-update-writes.js';
import { templateOfRevision } from '../../workload/template-revision.js';
import { inPlaceUpdateSpec, type PodTemplate } from '../../workload/inplace-update.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { REVISION_HASH_LABEL } from '../types.js';
import { isInPlaceType } from './new-pod.js';
import { createPods, deletePods, isPreDeleting, rollingCounts } from './manage.js';
import { updatedPodsOnNode } from './placement.js';
import { availableOnceWritten, event, inPlaceWriter, isAvailable, isUpdated, untouched, type DaemonSetRun } from './run.js';
import { revisionHash } from '../revisions.js';

const nilOrPreDeleting = (p: Pod | undefined) => p === undefined || isPreDeleting(p);

/** The pod template a DaemonSet revision holds (`{"spec":{"template":{…,"$patch":"replace"}}}`). */
/** The template a revision holds, as the in-place diff reads it. */
const revisionTemplate = (rev: ControllerRevision | undefined): PodTemplate | undefined => templateOfRevision(rev) as PodTemplate | undefined;

export const inPlaceOptions: InPlaceUpdateStepOptions = {
  isAtRevision: (pod, hash) => pod.metadata.labels?.[REVISION_HASH_LABEL] === hash,
  revisionLabels: (hash) => ({ [REVISION_HASH_LABEL]: hash }),
};

/** The nodes whose pods the rollout may touch, in order (filterDaemonPodsNodeToUpdate). */
export function nodesToUpdate(run: DaemonSetRun, byNode: ReadonlyMap<string, Pod[]>): string[] {
  const rolling = run.ds.spec.updateStrategy?.rollingUpdate;
  const partitionValue = rolling?.partition !== undefined && rolling.partition !== null ? kruiseScaledValue(rolling.partition, run.ds.status?.desiredNumberScheduled ?? 0, false) : 0;
  const partition = typeof partitionValue === 'number' ? partitionValue : 0;
  const selector = rolling?.selector;
  const names = [...byNode.keys()].sort().reverse();
  const updated: string[] = [];
  const updating: string[] = [];
  const selected: string[] = [];
  const rest: string[] = [];
  for (const name of names) {
    const { newPod, oldPod, ok } = updatedPodsOnNode(byNode.get(name) ?? [], (p) => isUpdated(run, p));
    if (!ok || newPod) updated.push(name);
    else if (nilOrPreDeleting(oldPod)) updating.push(name);
    else if (selector && matchesLabelSelector(selector, run.nodes.get(name)?.metadata.labels ?? {})) selected.push(name);
    else rest.push(name);
  }
  const sorted = [...updated, ...updating, ...(selector ? selected : rest)];
  const maxUpdate = names.length - partition;
  return maxUpdate <= 0 ? [] : sorted.slice(0, maxUpdate);
}

/** Starts (or carries on) the pod's in-place update; false when it cannot be updated in place. */
function updateInPlace(run: DaemonSetRun, pod: Pod, afterStatus = false): boolean {
  if (!hasInPlaceUpdateReadinessGate(pod)) return false;
  const from = revisionTemplate(run.old.find((r) => revisionHash(r) === pod.metadata.labels?.[REVISION_HASH_LABEL]));
  const to = revisionTemplate(run.current);
  if (!from || !to) return false;
  const spec = inPlaceUpdateSpec(from, to);
  if (spec.kind !== 'in-place') return false;
  const step = (p: Pod) => inPlaceUpdateStep(p, spec, run.hash, run.now, 0, inPlaceOptions);
  // Out of service first, then the images, chained on the version that write produces.
  return planInPlaceUpdate(pod, step, inPlaceWriter(run, afterStatus)).wrote;
}

/** The rolling update's writes. */
export function planRollingUpdate(run: DaemonSetRun): void {
  const byNode = new Map<string, Pod[]>();
  for (const [node, pods] of run.podsByNode) if (run.nodes.has(node)) byNode.set(node, pods);
  let desired = 0;
  for (const [node, e] of run.eligibility) {
    if (!e.shouldRun) continue;
    desired++;
    if (!byNode.has(node)) byNode.set(node, []);
  }
  let { maxSurge, maxUnavailable } = rollingCounts(run.ds, desired);
  if (desired > 0 && maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  const nodes = nodesToUpdate(run, byNode);
  const find = (node: string) => updatedPodsOnNode(byNode.get(node) ?? [], (p) => isUpdated(run, p));

  if (maxSurge === 0) {
    // `unavailable` as observed; `unavailableAfter` once this run's ready-again writes land: the
    // room between the two goes to in-place updates sent after those writes (afterStatus).
    let unavailable = 0;
    let unavailableAfter = 0;
    const allowed: Pod[] = [];
    const candidates: Pod[] = [];
    for (const node of nodes) {
      const { newPod, oldPod, ok } = find(node);
      if (!ok) {
        unavailable++;
        unavailableAfter++;
        continue;
      }
      if ((nilOrPreDeleting(oldPod) && nilOrPreDeleting(newPod)) || (!nilOrPreDeleting(oldPod) && !nilOrPreDeleting(newPod))) {
        unavailable++;
        unavailableAfter++;
      } else if (newPod) {
        if (!isAvailable(run, newPod)) unavailable++;
        if (!availableOnceWritten(run, newPod)) unavailableAfter++;
        if (isPreDeleting(newPod)) {
          unavailable++;
          unavailableAfter++;
        }
      } else if (!isAvailable(run, oldPod!)) allowed.push(oldPod!);
      else if (unavailableAfter < maxUnavailable) candidates.push(oldPod!);
    }
    const room = Math.min(Math.max(maxUnavailable - unavailable, 0), candidates.length);
    const roomAfter = Math.min(Math.max(maxUnavailable - unavailableAfter, 0), candidates.length);
    const replace = [...allowed, ...candidates.slice(0, room)].filter((p) => untouched(run, p));
    const toDelete = isInPlaceType(run.ds) ? replace.filter((p) => !updateInPlace(run, p)) : replace;
    const later = isInPlaceType(run.ds) ? candidates.slice(room, roomAfter).filter((p) => untouched(run, p) && updateInPlace(run, p, true)) : [];
    const inPlace = [...replace.filter((p) => !toDelete.includes(p)), ...later].map((p) => p.metadata.name);
    if (inPlace.length === 1) event(run, 'Normal', 'SuccessfulUpdatePodInPlace', `successfully update pod ${inPlace[0]} in-place`);
    else if (inPlace.length > 1) event(run, 'Normal', 'SuccessfulUpdatePodInPlace', `successfully update pods ${inPlace.join(', ')} in-place`);
    deletePods(run, toDelete, (p) => `pod ${p.metadata.name} is replaced by revision ${run.hash}`);
    return;
  }

  let surging = 0;
  const oldToDelete: Pod[] = [];
  const allowedNodes: string[] = [];
  const candidateNodes: string[] = [];
  for (const node of nodes) {
    const { newPod, oldPod, ok } = find(node);
    if (!ok) {
      surging++;
      continue;
    }
    if (nilOrPreDeleting(oldPod)) continue;
    if (!newPod) {
      if (!isAvailable(run, oldPod!)) allowedNodes.push(node);
      else if (surging < maxSurge) candidateNodes.push(node);
      continue;
    }
    if (!isAvailable(run, newPod) || isPreDeleting(newPod)) {
      surging++;
      continue;
    }
    oldToDelete.push(oldPod!);
  }
  const room = Math.min(Math.max(maxSurge - surging, 0), candidateNodes.length);
  deletePods(run, oldToDelete, (p) => `pod ${p.metadata.name} is replaced by an available pod of revision ${run.hash}`);
  createPods(run, [...allowedNodes, ...candidateNodes.slice(0, room)], `a surge pod of revision ${run.hash}`);
}
