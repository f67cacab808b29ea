// Updating a CloneSet's pods (OpenKruise's cloneset_update.go): after refresh.ts found nothing to
// write, the diffs say how many pods move to the update revision (or, with partition rollback,
// back to the current one). Candidates are pods not at the target revision, not PreparingDelete,
// not in a grace period; they are ordered (not-ready first, then priorityStrategy, then
// scatterStrategy, PreparingUpdate pods first) and limited by maxUnavailable. Each is updated:
//   in place (InPlaceIfPossible / InPlaceOnly, when only images and template metadata differ),
//     through its inPlaceUpdate hook (PreparingUpdate) when it has one, asking the PUB first;
//   else by recreation: the pod is labelled apps.kruise.io/specified-delete and scaling replaces
//     it (within maxSurge / maxUnavailable), as OpenKruise does.
// Pure.
import type { UpdatePriorityStrategy, UpdateScatterTerm } from '../../api/apps/pub.js';
import { readInPlaceUpdateGrace } from '../../workload/inplace-update-grace.js';
import { inPlaceUpdateStep, type InPlaceUpdateStepOptions } from '../../workload/inplace-update-step.js';
import { planInPlaceUpdate } from '../../workload/inplace-update-writes.js';
import { inPlaceUpdateSpec, type PodTemplate } from '../../workload/inplace-update.js';
import { inPlaceHookGate } from '../../workload/inplace-update-hook.js';
import { lifecycleState, withLifecycleState } from '../../workload/lifecycle.js';
import { activePodsLess, byLess, expandScatterTerms, scatter, sortByPriority } from '../../workload/order.js';
import type { Pod } from '../../workload/pods.js';
import { POD_TEMPLATE_HASH_LABEL, REVISION_HASH_LABEL, SPECIFIED_DELETE_LABEL, shortHash } from '../types.js';
import { diffsOf } from './scale.js';
import { event, inPlaceWriter, isAtRevision, isAvailable, lifecycleOf, revisionLabel, untouched, updatePod, vctForbidsInPlace, wakeIn, writePodStatus, type CloneSetRun } from './run.js';
import { templateOfRevision } from '../../workload/template-revision.js';

/** A PUB refused an in-place update: look again soon. */
export const UPDATE_BUDGET_RETRY_MS = 2_000;

export function inPlaceOptions(run: CloneSetRun, onStart?: (pod: Pod) => Pod): InPlaceUpdateStepOptions {
  return {
    isAtRevision,
    revisionLabels: (r) => ({ [REVISION_HASH_LABEL]: revisionLabel(run, r), [POD_TEMPLATE_HASH_LABEL]: shortHash(r) }),
    ...(onStart ? { onStart } : {}),
  };
}

function sortCandidates(run: CloneSetRun, candidates: Pod[]): Pod[] {
  const strategy = run.cs.spec.updateStrategy ?? {};
  const pods = run.pods;
  let indexes = candidates.map((p) => pods.indexOf(p)).sort(byLess((i, j) => activePodsLess(pods[i]!, pods[j]!)));
  if (strategy.priorityStrategy) indexes = sortByPriority(strategy.priorityStrategy as UpdatePriorityStrategy, pods, indexes);
  const terms = (strategy.scatterStrategy as UpdateScatterTerm[] | undefined) ?? [];
  if (terms.length) indexes = scatter(expandScatterTerms(terms, pods), pods, indexes);
  const preparing = (i: number) => lifecycleState(pods[i]!) === 'PreparingUpdate';
  return indexes.sort((a, b) => Number(preparing(b)) - Number(preparing(a))).map((i) => pods[i]!);
}

/** limitUpdateIndexes: no more than updateMaxUnavailable pods unavailable, at the target or overall. */
function limitCandidates(run: CloneSetRun, sorted: Pod[], updateNum: number, maxUnavailable: number, target: string, available: (p: Pod) => boolean): Pod[] {
  const wanted = sorted.slice(0, Math.abs(updateNum));
  let unavailable = 0;
  let targetUnavailable = 0;
  for (const p of run.pods) {
    if (available(p)) continue;
    unavailable++;
    if (isAtRevision(p, target)) targetUnavailable++;
  }
  let n = 0;
  for (const pod of wanted) {
    if (targetUnavailable + n >= maxUnavailable) break;
    if (available(pod)) {
      if (unavailable >= maxUnavailable) break;
      unavailable++;
    }
    n++;
  }
  return wanted.slice(0, n);
}

function recreate(run: CloneSetRun, pod: Pod, target: string): void {
  if (pod.metadata.labels?.[SPECIFIED_DELETE_LABEL] === 'true') return;
  const labels = { ...(pod.metadata.labels ?? {}), [SPECIFIED_DELETE_LABEL]: 'true' };
  updatePod(run, pod, { ...pod, metadata: { ...pod.metadata, labels } }, `pod ${pod.metadata.name} is recreated for revision ${target}`);
  event(run, 'Normal', 'SuccessfulUpdatePodReCreate', `successfully patch pod ${pod.metadata.name} specified-delete for update(revision ${target})`);
}

/** Plans the pod's next update step; 'in-place' when that step starts its in-place update. */
function updateOne(run: CloneSetRun, pod: Pod, target: string, afterStatus = false): 'in-place' | undefined {
  const { cs } = run;
  const type = cs.spec.updateStrategy?.type ?? 'ReCreate';
  const lifecycle = lifecycleOf(run);
  const fromRevision = [...run.revisions.values()].find((r) => isAtRevision(pod, r.metadata.name));
  const toRevision = run.revisions.get(target);
  const from = templateOfRevision(fromRevision);
  const to = templateOfRevision(toRevision);
  const inPlace = type !== 'ReCreate' && from && to && !vctForbidsInPlace(run, fromRevision, toRevision);
  const spec = inPlace ? inPlaceUpdateSpec(from as PodTemplate, to as PodTemplate) : undefined;
  if (spec?.kind === 'in-place') {
    const gate = inPlaceHookGate(pod, lifecycle?.inPlaceUpdate, run.now, { rearmWithoutHook: false });
    // A start in room that this run's own writes free sends nothing before those writes land.
    if (afterStatus && gate.type !== 'proceed') return;
    switch (gate.type) {
      case 'hold-status':
        return void writePodStatus(run, pod, gate.write);
      case 'hold-update':
        return void updatePod(run, pod, gate.pod, gate.reason);
      case 'wait':
        return;
      case 'refuse':
        return void event(run, 'Warning', 'FailedUpdatePodInPlace', gate.message);
      case 'proceed':
        break;
    }
    if (run.gates.PodUnavailableBudgetUpdateGate) {
      const verdict = run.budget.requestUpdate(pod);
      if (!verdict.allowed) {
        wakeIn(run, UPDATE_BUDGET_RETRY_MS);
        return;
      }
    }
    const grace = cs.spec.updateStrategy?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0;
    const step = (p: Pod) => inPlaceUpdateStep(p, spec, target, run.now, grace, inPlaceOptions(run, (q) => withLifecycleState(q, 'Updating', run.now)));
    // Out of service first, then the update itself, chained on the version that write produces.
    return planInPlaceUpdate(pod, step, inPlaceWriter(run, afterStatus)).updated ? 'in-place' : undefined;
  }
  if (afterStatus) return;
  if (type === 'InPlaceOnly') {
    event(run, 'Warning', 'FailedUpdatePodInPlace', `find Pod ${pod.metadata.name} update strategy is InPlaceOnly but can not update in-place`);
    return;
  }
  recreate(run, pod, target);
}

export function planUpdates(run: CloneSetRun): void {
  const strategy = run.cs.spec.updateStrategy ?? {};
  if (strategy.paused) return;
  const diffs = diffsOf(run);
  if (diffs.updateNum === 0) return;
  const target = diffs.updateNum > 0 ? run.updateRevision : run.currentRevision;
  const candidates = run.pods.filter((pod) => {
    const waiting = diffs.updateNum > 0 ? !isAtRevision(pod, run.updateRevision) : isAtRevision(pod, run.updateRevision);
    if (!waiting) return false;
    const state = lifecycleState(pod);
    if (state === 'PreparingDelete') return false;
    if (state === 'Updated') return true;
    return !readInPlaceUpdateGrace(pod.metadata.annotations);
  });
  const sorted = sortCandidates(run, candidates);
  const chosen = limitCandidates(run, sorted, diffs.updateNum, diffs.updateMaxUnavailable, target, (p) => isAvailable(run, p));
  // Once this run's writes that make pods available again land: the extra room goes to in-place
  // updates sent after those writes (afterStatus).
  const more = run.readied.size ? limitCandidates(run, sorted, diffs.updateNum, diffs.updateMaxUnavailable, target, (p) => isAvailable(run, p) || run.readied.has(p.metadata.name)).slice(chosen.length) : [];
  const inPlace = [
    ...chosen.filter((pod) => untouched(run, pod) && updateOne(run, pod, target) === 'in-place'),
    ...more.filter((pod) => untouched(run, pod) && updateOne(run, pod, target, true) === 'in-place'),
  ].map((p) => p.metadata.name);
  // One Event per run, not per pod (OpenKruise's message when it is one pod): a 1,000-pod rollout
  // does not write 1,000 Events.
  if (inPlace.length === 1) event(run, 'Normal', 'SuccessfulUpdatePodInPlace', `successfully update pod ${inPlace[0]} in-place(revision ${target})`);
  else if (inPlace.length > 1) event(run, 'Normal', 'SuccessfulUpdatePodInPlace', `successfully update pods ${inPlace.join(', ')} in-place(revision ${target})`);
}
