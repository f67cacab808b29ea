// Scaling a CloneSet (OpenKruise's cloneset_scale.go), one step per run, the first that has work:
//   1. pods in PreparingDelete no longer needed for replicas go back to PreparingNormal;
//   2. create pods (the diffs say how many, and how many at the current revision), reusing the
//      instance ids of PVCs left by deleted pods;
//   3. delete pods in PreparingDelete whose preDelete hook is gone;
//   4. delete pods asked for (podsToDelete, the specified-delete label): not-ready ones at once,
//      ready ones within deleteReadyLimit (maxUnavailable, plus maxSurge pods already created);
//   5. scale in: old-revision pods first, in the scale-down order, within deleteReadyLimit.
// A pod with a preDelete hook goes to PreparingDelete instead of being deleted. Deleting a pod
// deletes its PVCs; PVCs left without any pod are deleted once no pod is to be created. Returns
// whether the step wrote anything (then updating waits). Pure.
import { lifecycleMarksPodNotReady, isPodHooked, lifecycleState, withLifecycleState } from '../../workload/lifecycle.js';
import { scaleDownLess, sameNodeRanks, spreadConstraintRanks } from '../../workload/order.js';
import { addNotReadyKey, PRE_DELETE_HOOK_KEY } from '../../workload/pod-readiness.js';
import { statusWrite } from '../../workload/pod-conditions.js';
import type { Pod } from '../../workload/pods.js';
import { INSTANCE_ID_LABEL, shortHash } from '../types.js';
import { expectationDiffs, type ExpectationDiffs } from './diffs.js';
import { newInstanceIds } from './instance-id.js';
import { asKubeObject, claimsFor, newPod, type Template } from './new-pod.js';
import { spreadTopologyKeys, type Pvc } from './observe.js';
import { event, eventNote, isAvailable, isReady, isSpecifiedDelete, isUpdated, lifecycleOf, podRef, revisionLabel, untouched, updatePod, wakeIn, writePodStatus, type CloneSetRun } from './run.js';
import { templateOfRevision } from '../../workload/template-revision.js';

/** A PUB refused a deletion: look again soon (a budget frees up as pods become available). */
export const BUDGET_RETRY_MS = 2_000;

const idOf = (o: { metadata: { labels?: Record<string, string> } }) => o.metadata.labels?.[INSTANCE_ID_LABEL] ?? '';

export function diffsOf(run: CloneSetRun, isUpdatedPod: (p: Pod) => boolean = (p) => isUpdated(run, p)): ExpectationDiffs {
  return expectationDiffs(run.cs, run.pods, run.currentRevision, run.updateRevision, {
    isUpdated: isUpdatedPod,
    isAvailable: (p) => isAvailable(run, p),
    isSpecifiedDelete: (p) => isSpecifiedDelete(run.cs, p),
    partitionRollback: run.gates.CloneSetPartitionRollback,
    excludePreparingDelete: Boolean(run.cs.spec.scaleStrategy?.excludePreparingDelete),
  });
}

function deletePvc(run: CloneSetRun, pvc: Pvc, why: string): void {
  const target = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: pvc.metadata.name, namespace: pvc.metadata.namespace };
  run.plan.writes.push({ op: 'delete', target, ...(pvc.metadata.uid ? { preconditions: { uid: pvc.metadata.uid } } : {}), reason: `CloneSet ${run.cs.metadata.name}: ${why}` });
}

/** Deletes `pods` (or moves hooked ones to PreparingDelete); true if anything was written. */
export function deletePods(run: CloneSetRun, pods: readonly Pod[], why: (p: Pod) => string): boolean {
  const preDelete = lifecycleOf(run)?.preDelete;
  let wrote = false;
  for (const pod of pods) {
    if (!untouched(run, pod)) continue;
    if (preDelete && isPodHooked(preDelete, pod)) {
      const notReady = preDelete.markPodNotReady ? addNotReadyKey(pod, PRE_DELETE_HOOK_KEY, run.now) : undefined;
      if (notReady) {
        writePodStatus(run, pod, statusWrite(pod, notReady, `pod ${pod.metadata.name} waits in its preDelete hook: KruisePodReady=False`));
        wrote = true;
      } else if (lifecycleState(pod) !== 'PreparingDelete') {
        updatePod(run, pod, withLifecycleState(pod, 'PreparingDelete', run.now), `${why(pod)}: pod ${pod.metadata.name} waits in its preDelete hook (PreparingDelete)`);
        wrote = true;
      }
      continue;
    }
    const verdict = run.budget.requestDelete?.(pod) ?? { allowed: true };
    if (!verdict.allowed) {
      event(run, 'Warning', 'PodUnavailableBudgetBlocked', `not deleting pod ${pod.metadata.name}: ${verdict.reason}`);
      wakeIn(run, BUDGET_RETRY_MS);
      continue;
    }
    run.touched.add(pod.metadata.name);
    run.plan.writes.push({
      op: 'delete', target: podRef(pod), ...(pod.metadata.uid ? { preconditions: { uid: pod.metadata.uid } } : {}), reason: `CloneSet ${run.cs.metadata.name}: ${why(pod)}`,
      event: eventNote(run, 'Normal', 'SuccessfulDelete', `succeed to delete pod ${pod.metadata.name}`),
    });
    for (const pvc of run.pvcs.filter((c) => idOf(c) === idOf(pod))) deletePvc(run, pvc, `the PVC of deleted pod ${pod.metadata.name}`);
    wrote = true;
  }
  return wrote;
}

/** Not-ready pods always; ready ones while `limit.left` lasts. */
function withinReadyLimit(run: CloneSetRun, pods: readonly Pod[], limit: { left: number }): Pod[] {
  return pods.filter((p) => {
    if (!isReady(run, p)) return true;
    if (limit.left <= 0) return false;
    limit.left--;
    return true;
  });
}

function managePreparingDelete(run: CloneSetRun, preDeleting: readonly Pod[], numToDelete: number): boolean {
  if (lifecycleMarksPodNotReady(lifecycleOf(run))) return false;
  let diff = (run.cs.spec.replicas ?? 1) - run.pods.length + numToDelete;
  let wrote = false;
  for (const pod of preDeleting) {
    if (diff <= 0) break;
    if (isSpecifiedDelete(run.cs, pod)) continue;
    updatePod(run, pod, withLifecycleState(pod, 'PreparingNormal', run.now), `replicas need pod ${pod.metadata.name} again: its deletion is cancelled (PreparingNormal)`);
    wrote = true;
    diff--;
  }
  return wrote;
}

function createPods(run: CloneSetRun, count: number, oldCount: number): boolean {
  const { cs } = run;
  const podIds = new Set(run.pods.map(idOf));
  // PVCs without a pod keep their id for the next pod, so a recreated pod gets its volumes back.
  const reusable = cs.spec.scaleStrategy?.disablePVCReuse ? [] : [...new Set(run.pvcs.map(idOf).filter((id) => id && !podIds.has(id)))].sort();
  // Never the id of a pod still terminating, or of a name asked to be deleted; and a fresh series
  // for every version of the CloneSet, so a deleted pod's name does not come straight back.
  const asked = (cs.spec.scaleStrategy?.podsToDelete ?? []).filter((n) => n.startsWith(`${cs.metadata.name}-`)).map((n) => n.slice(cs.metadata.name.length + 1));
  const used = new Set([...podIds, ...run.ownedIds, ...run.pvcs.map(idOf), ...asked]);
  const seed = `${cs.metadata.uid ?? cs.metadata.name}/${cs.metadata.resourceVersion ?? ''}`;
  const ids = [...reusable.slice(0, count), ...newInstanceIds(seed, used, Math.max(count - reusable.length, 0))];
  const existing = new Set(run.pvcs.map((c) => c.metadata.name));
  const current = templateOfRevision(run.revisions.get(run.currentRevision));
  const update = templateOfRevision(run.revisions.get(run.updateRevision)) ?? (cs.spec.template as Template | undefined) ?? {};
  ids.forEach((id, i) => {
    const atCurrent = i < oldCount && current !== undefined;
    const revision = atCurrent ? run.currentRevision : run.updateRevision;
    const pod = newPod(cs, id, { label: revisionLabel(run, revision), hash: shortHash(revision), template: atCurrent ? current : update }, run.now);
    // Slow start, as OpenKruise creates: batches of 1, 2, 4, … pods, each after its PVCs; a
    // failure (a quota, an admission webhook) stops the rest until the next run.
    const slowStart = { group: 'create-pods', unit: id };
    for (const claim of claimsFor(cs, id).filter((c) => !existing.has(c.metadata.name))) {
      run.plan.writes.push({ op: 'create', object: asKubeObject(claim), slowStart, reason: `CloneSet ${cs.metadata.name}: volume ${claim.metadata.name} of pod ${pod.metadata.name}` });
    }
    run.plan.writes.push({
      op: 'create', object: asKubeObject(pod), slowStart, reason: `CloneSet ${cs.metadata.name}: scale out to ${cs.spec.replicas ?? 1} (revision ${revision})`,
      event: eventNote(run, 'Normal', 'SuccessfulCreate', `succeed to create pod ${pod.metadata.name}`),
    });
  });
  return ids.length > 0;
}

/**
 * The claims a live pod mounts that do not exist: its PVC create failed while the pod's went
 * through (they go out concurrently). The pod would stay Pending for good; OpenKruise leaves it so.
 */
function createMissingPvcs(run: CloneSetRun): boolean {
  const existing = new Set(run.pvcs.map((c) => c.metadata.name));
  let wrote = false;
  for (const pod of run.pods) {
    for (const claim of claimsFor(run.cs, idOf(pod)).filter((c) => !existing.has(c.metadata.name))) {
      run.plan.writes.push({ op: 'create', object: asKubeObject(claim), reason: `CloneSet ${run.cs.metadata.name}: volume ${claim.metadata.name} of pod ${pod.metadata.name} is missing` });
      wrote = true;
    }
  }
  return wrote;
}

/** PVCs whose pod is gone, when they are not to be reused. */
function cleanupPvcs(run: CloneSetRun): boolean {
  if (!run.cs.spec.scaleStrategy?.disablePVCReuse) return false;
  const podIds = new Set(run.pods.map(idOf));
  const orphans: Pvc[] = run.pvcs.filter((c) => !podIds.has(idOf(c)) && !c.metadata.deletionTimestamp);
  for (const pvc of orphans) deletePvc(run, pvc, `PVC ${pvc.metadata.name} outlived its pod (disablePVCReuse)`);
  return orphans.length > 0;
}

/**
 * PVCs of no pod at all (not even a terminating one) when no pod is to be created that could take
 * them: a run stopped between deleting a pod and deleting its PVCs (the writes go out
 * concurrently), or between creating PVCs and their pod before replicas went down.
 */
function deleteLeftoverPvcs(run: CloneSetRun): boolean {
  const leftovers = run.pvcs.filter((c) => !run.ownedIds.has(idOf(c)) && !c.metadata.deletionTimestamp);
  for (const pvc of leftovers) deletePvc(run, pvc, `PVC ${pvc.metadata.name} has no pod and no pod is to be created`);
  return leftovers.length > 0;
}

function choosePodsToDelete(run: CloneSetRun, total: number, oldFirst: number): Pod[] {
  const keys = spreadTopologyKeys(run.cs);
  const choose = (pods: Pod[], n: number): Pod[] => {
    if (n >= pods.length) return pods;
    // Ranked among the pods to choose from, as OpenKruise ranks them.
    const ranks = keys.length ? spreadConstraintRanks(pods, keys, run.nodeLabels ?? new Map()) : sameNodeRanks(pods);
    const less = (a: Pod, b: Pod) => scaleDownLess(a, b, { rank: (p) => ranks.get(p) ?? 0, available: (p) => isAvailable(run, p) });
    return [...pods].sort((a, b) => (less(a, b) ? -1 : less(b, a) ? 1 : 0)).slice(0, n);
  };
  const updated = run.pods.filter((p) => isUpdated(run, p));
  const old = run.pods.filter((p) => !isUpdated(run, p));
  if (oldFirst >= total) return choose(old, total);
  if (oldFirst > 0) return [...choose(old, oldFirst), ...choose(updated, total - oldFirst)];
  return choose(updated, total);
}

export function planScale(run: CloneSetRun): boolean {
  const { cs } = run;
  const specified = run.pods.filter((p) => isSpecifiedDelete(cs, p));
  const preDeleting = run.pods.filter((p) => lifecycleState(p) === 'PreparingDelete');
  const numToDelete = new Set([...specified, ...preDeleting]).size;
  if (managePreparingDelete(run, preDeleting, numToDelete)) return true;
  if (cleanupPvcs(run)) return true;
  if (createMissingPvcs(run)) return true;

  const diffs = diffsOf(run, (p) => isUpdated(run, p) || (run.gates.PreparingUpdateAsUpdate && lifecycleState(p) === 'PreparingUpdate'));
  if (diffs.scaleUpNum > diffs.scaleUpLimit) {
    event(run, 'Warning', 'ScaleUpLimited', `scaleUp is limited because of scaleStrategy.maxUnavailable, limit: ${diffs.scaleUpLimit}`);
  }
  if (diffs.scaleUpNum > 0) return createPods(run, diffs.scaleUpLimit, diffs.scaleUpNumOldRevision);
  if (deleteLeftoverPvcs(run)) return true;

  if (preDeleting.length && deletePods(run, preDeleting, () => 'its preDelete hook is done')) return true;

  const limit = { left: diffs.deleteReadyLimit };
  const asked = specified.filter((p) => !preDeleting.includes(p));
  if (asked.length && deletePods(run, withinReadyLimit(run, asked, limit), () => 'asked to delete')) return true;

  if (diffs.scaleDownNum > 0 && numToDelete === 0) {
    return deletePods(run, withinReadyLimit(run, choosePodsToDelete(run, diffs.scaleDownNum, diffs.scaleDownNumOldRevision), limit), () => 'scale in');
  }
  return false;
}
