// A pod's state brought up to date (refreshPodState in OpenKruise's stateful_set_control.go):
// carry on its in-place update (grace period, completion, InPlaceUpdateReady), set KruisePodReady
// on a new pod, and move its lifecycle on —
//   PreparingNormal → Normal (no preNormal hook, or all of it on the pod);
//   PreparingUpdate → Updated / Normal when the pod turns out to be at the update revision (#1156);
//   Updating → Updated (inPlaceUpdate hook not all back) or Normal, once the update completed;
//   Updated → Normal once the inPlaceUpdate hook is all back on.
// One write at most; the write that completes an in-place update carries the lifecycle move
// (pods/status takes labels). Pure.
import type { StatusWrite } from '../../reconcile/types.js';
import { inPlaceUpdateStep, type InPlaceUpdateStepOptions } from '../../workload/inplace-update-step.js';
import { applyInPlaceAction } from '../../workload/inplace-update-writes.js';
import { lifecycleState, nextLifecycleState, withLifecycleState, type LifecycleState } from '../../workload/lifecycle.js';
import { statusWrite } from '../../workload/pod-conditions.js';
import { initialKruisePodReady, PRE_UPDATE_HOOK_KEY, removeNotReadyKey } from '../../workload/pod-readiness.js';
import { afterStatusWrite, metadataOnlyChange } from '../../workload/pod-status-writes.js';
import type { Pod } from '../../workload/pods.js';
import { REVISION_HASH_LABEL } from '../types.js';
import { availability, inPlaceWriter, isHealthy, isUpdated, lifecycleOf, rollingUpdateOf, updatePod, wakeIn, writePodStatus, type StsRun } from './run.js';
import { isPodInPlaceUpdateCompleted } from '../../workload/inplace-update-completion.js';

export const inPlaceOptions = (onStart?: (pod: Pod) => Pod): InPlaceUpdateStepOptions => ({
  revisionLabels: (r) => ({ [REVISION_HASH_LABEL]: r }),
  ...(onStart ? { onStart } : {}),
});

export const gracePeriodOf = (run: StsRun): number => rollingUpdateOf(run.set)?.inPlaceUpdateStrategy?.gracePeriodSeconds ?? 0;

const nextState = (run: StsRun, pod: Pod, inPlaceCompleted: boolean): LifecycleState | undefined =>
  nextLifecycleState(pod, lifecycleOf(run.set), { updated: isUpdated(run, pod), inPlaceCompleted, normalWithoutHook: true });

/** `write` carrying the lifecycle move that follows it when that is labels and annotations only. */
function withLifecycleMove(run: StsRun, pod: Pod, write: StatusWrite): StatusWrite {
  if (lifecycleOf(run.set)?.inPlaceUpdate?.markPodNotReady) return write;
  const after = afterStatusWrite(pod, write);
  const next = nextState(run, after, true);
  if (!next) return write;
  const metadata = metadataOnlyChange(after, withLifecycleState(after, next, run.now));
  return metadata ? { ...write, metadata, reason: `${write.reason}; lifecycle ${lifecycleState(pod)} → ${next}` } : write;
}

/** Plans the pod's refresh write, if any; true when one was planned. */
export function refreshPod(run: StsRun, pod: Pod): boolean {
  const action = inPlaceUpdateStep(pod, undefined, pod.metadata.labels?.[REVISION_HASH_LABEL] ?? '', run.now, gracePeriodOf(run), inPlaceOptions());
  switch (action.type) {
    case 'set-ready': {
      const conditions = initialKruisePodReady(pod, action.write.status.conditions as NonNullable<NonNullable<Pod['status']>['conditions']>, run.now);
      const write = withLifecycleMove(run, pod, conditions ? { ...action.write, status: { conditions } } : action.write);
      writePodStatus(run, pod, write);
      const after = afterStatusWrite(pod, write);
      if (isHealthy(after) && isPodInPlaceUpdateCompleted(after) && availability(run, after).available) run.readied.add(pod.metadata.name);
      return true;
    }
    case 'set-not-ready':
    case 'update-pod':
      return applyInPlaceAction(pod, action, inPlaceWriter(run));
    case 'wait-grace':
      wakeIn(run, action.until.getTime() - run.now.getTime());
      return false;
    case 'wait-completion':
    case 'invalid':
      return false;
    case 'done':
      break;
  }
  const initial = initialKruisePodReady(pod, pod.status?.conditions ?? [], run.now);
  if (initial) {
    writePodStatus(run, pod, withLifecycleMove(run, pod, statusWrite(pod, initial, `pod ${pod.metadata.name} is new: KruisePodReady=True`)));
    return true;
  }
  const next = nextState(run, pod, true);
  if (!next) return false;
  const ready = lifecycleOf(run.set)?.inPlaceUpdate?.markPodNotReady && (next === 'Updated' || next === 'Normal') ? removeNotReadyKey(pod, PRE_UPDATE_HOOK_KEY, run.now) : undefined;
  if (ready) writePodStatus(run, pod, statusWrite(pod, ready, `pod ${pod.metadata.name} finished its in-place update: KruisePodReady back to True`));
  else updatePod(run, pod, withLifecycleState(pod, next, run.now), `pod ${pod.metadata.name} lifecycle ${lifecycleState(pod)} → ${next}`);
  return true;
}
