// Bringing each pod's state up to date before any update (refreshPodState in OpenKruise's
// cloneset_update.go): carry on in-place updates (grace periods, completion, InPlaceUpdateReady),
// set KruisePodReady on new pods, move lifecycle states on —
//   PreparingNormal → Normal once scheduled (or, with a preNormal hook, once all its labels and
//                     finalizers are on the pod);
//   PreparingUpdate → Normal / Updated when the pod turns out to be at the update revision;
//   Updating → Updated (inPlaceUpdate hook not all back on) or Normal, once the update completed;
//   Updated → Normal once the inPlaceUpdate hook is all back on —
// and label pods missing pod-template-hash. At most one write per pod: the write that completes
// an in-place update carries the lifecycle move after it. Returns whether anything was written. Pure.
import { inPlaceUpdateStep } from '../../workload/inplace-update-step.js';
import { INPLACE_UPDATE_READY, readInPlaceUpdateState } from '../../workload/inplace-update-state.js';
import { lifecycleState, nextLifecycleState, withLifecycleState, type LifecycleState } from '../../workload/lifecycle.js';
import { statusWrite } from '../../workload/pod-conditions.js';
import { initialKruisePodReady, PRE_UPDATE_HOOK_KEY, removeNotReadyKey } from '../../workload/pod-readiness.js';
import { podCondition, timeOf, type Pod } from '../../workload/pods.js';
import { POD_TEMPLATE_HASH_LABEL, REVISION_HASH_LABEL, shortHash } from '../types.js';
import type { StatusWrite } from '../../reconcile/types.js';
import { afterStatusWrite, applyInPlaceWrite, isAtRevision, isAvailable, isUpdated, lifecycleOf, metadataOnlyChange, untouched, updatePod, wakeIn, writePodStatus, type CloneSetRun } from './run.js';
import { inPlaceOptions } from './update.js';

const isScheduled = (pod: Pod) => Boolean(pod.spec.nodeName) || podCondition(pod, 'PodScheduled')?.status === 'True';

/** InPlaceUpdateReady=False and no in-place update started since: between the two writes that start one. */
function startingInPlace(run: CloneSetRun, pod: Pod): boolean {
  const condition = podCondition(pod, INPLACE_UPDATE_READY);
  if (condition?.status !== 'False') return false;
  const state = readInPlaceUpdateState(pod.metadata.annotations);
  if (!state || state === 'invalid' || !isAtRevision(pod, state.revision)) return true;
  // A state from an earlier update (a rollback starts at the revision the pod is at): the
  // condition went False after that update started.
  const conditionAt = timeOf(condition.lastTransitionTime);
  const updateAt = timeOf(state.updateTimestamp);
  if (conditionAt !== updateAt) return conditionAt > updateAt;
  // The same second: one run wrote both (the update chained on the status write) when the pod
  // is at the update revision; otherwise count it as starting, and restoreReadiness makes the
  // pod ready again unless this run updates it.
  return !isUpdated(run, pod);
}

/** The in-place step of a pod already at its revision; 'completed' when nothing is left to do. */
function carryOnInPlace(run: CloneSetRun, pod: Pod): 'wrote' | 'completed' | 'waiting' {
  const grace = run.cs.spec.updateStrategy?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0;
  const action = inPlaceUpdateStep(pod, undefined, pod.metadata.labels?.[REVISION_HASH_LABEL] ?? '', run.now, grace, inPlaceOptions(run));
  switch (action.type) {
    case 'set-ready': {
      // A pod not at the update revision may be between the two writes that start its in-place
      // update (InPlaceUpdateReady=False, then the images): the update step carries it on, and
      // it is only made ready again if this run does not update it (restoreReadiness).
      if (startingInPlace(run, pod)) {
        run.deferredReady.set(pod.metadata.name, action.write);
        return 'waiting';
      }
      // New pods: KruisePodReady goes True in the same write; and the lifecycle state the pod
      // moves to once its update is over rides along (pods/status accepts labels).
      const conditions = initialKruisePodReady(pod, action.write.status.conditions as NonNullable<NonNullable<Pod['status']>['conditions']>, run.now);
      const write = withLifecycleMove(run, pod, conditions ? { ...action.write, status: { conditions } } : action.write);
      writePodStatus(run, pod, write);
      if (isAvailable(run, afterStatusWrite(pod, write))) run.readied.add(pod.metadata.name);
      return 'wrote';
    }
    case 'set-not-ready':
    case 'update-pod':
      applyInPlaceWrite(run, pod, action);
      return 'wrote';
    case 'wait-grace':
      wakeIn(run, action.until.getTime() - run.now.getTime());
      return 'waiting';
    case 'wait-completion':
    case 'invalid':
      return 'waiting';
    case 'done':
      return 'completed';
  }
}

/**
 * `write` (making the pod's in-place update complete) carrying the lifecycle move that would
 * follow it, when that move is labels and annotations only (no hook finalizers, no
 * markPodNotReady condition): one pod write instead of two.
 */
function withLifecycleMove(run: CloneSetRun, pod: Pod, write: StatusWrite): StatusWrite {
  if (lifecycleOf(run)?.inPlaceUpdate?.markPodNotReady) return write;
  const after = afterStatusWrite(pod, write);
  const next = nextState(run, after, true);
  if (!next) return write;
  const metadata = metadataOnlyChange(after, withLifecycleState(after, next, run.now));
  if (!metadata) return write;
  return { ...write, metadata, reason: `${write.reason}; lifecycle ${lifecycleState(pod)} → ${next}` };
}

const nextState = (run: CloneSetRun, pod: Pod, inPlaceCompleted: boolean): LifecycleState | undefined =>
  nextLifecycleState(pod, lifecycleOf(run), { updated: isUpdated(run, pod), inPlaceCompleted, normalWithoutHook: isScheduled(pod) });

export function refreshPods(run: CloneSetRun): boolean {
  let wrote = false;
  for (const pod of run.pods) {
    if (!untouched(run, pod)) continue;
    const inPlace = carryOnInPlace(run, pod);
    if (inPlace === 'wrote') {
      wrote = true;
      continue;
    }
    const initial = initialKruisePodReady(pod, pod.status?.conditions ?? [], run.now);
    if (initial) {
      writePodStatus(run, pod, statusWrite(pod, initial, `pod ${pod.metadata.name} is new: KruisePodReady=True`));
      wrote = true;
      continue;
    }
    const next = nextState(run, pod, inPlace === 'completed');
    if (next) {
      // markPodNotReady: the pod is back in service once its update is over (the key goes first).
      const ready = lifecycleOf(run)?.inPlaceUpdate?.markPodNotReady && (next === 'Updated' || next === 'Normal') ? removeNotReadyKey(pod, PRE_UPDATE_HOOK_KEY, run.now) : undefined;
      if (ready) writePodStatus(run, pod, statusWrite(pod, ready, `pod ${pod.metadata.name} finished its in-place update: KruisePodReady back to True`));
      else updatePod(run, pod, withLifecycleState(pod, next, run.now), `pod ${pod.metadata.name} lifecycle ${lifecycleState(pod)} → ${next}`);
      wrote = true;
      continue;
    }
    if (!pod.metadata.labels?.[POD_TEMPLATE_HASH_LABEL]) {
      const labels = { ...(pod.metadata.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: shortHash(pod.metadata.labels?.[REVISION_HASH_LABEL] ?? '') };
      updatePod(run, pod, { ...pod, metadata: { ...pod.metadata, labels } }, `pod ${pod.metadata.name} gets its pod-template-hash label`);
      wrote = true;
    }
  }
  return wrote;
}

/** Pods left between the two writes that start an in-place update, and not updated this run: ready again. */
export function restoreReadiness(run: CloneSetRun): void {
  for (const pod of run.pods) {
    const write = run.deferredReady.get(pod.metadata.name);
    if (write && untouched(run, pod)) writePodStatus(run, pod, withLifecycleMove(run, pod, write));
  }
}
