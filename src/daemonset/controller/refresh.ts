// Carrying on in-place updates before any new one (OpenKruise's refreshUpdateStates, the shared
// engine's Refresh): a pod at its revision whose new images are reported gets InPlaceUpdateReady
// back to True; a new pod with the readiness gate gets it True for the first time. A pod whose
// condition is False while it is not at the current revision may be between the two writes that
// start an in-place update (a run killed in between): it is made ready again only if this run
// does not carry its update on (restoreReadiness). At most one write per pod.
//
// The write that sets InPlaceUpdateReady True recomputes `Ready` too (see
// ../../workload/inplace-update-condition.ts). Pure.
import { inPlaceUpdateStep } from '../../workload/inplace-update-step.js';
import { INPLACE_UPDATE_READY, readInPlaceUpdateState } from '../../workload/inplace-update-state.js';
import { podCondition, timeOf, type Pod } from '../../workload/pods.js';
import { afterStatusWrite } from '../../workload/pod-status-writes.js';
import { REVISION_HASH_LABEL } from '../types.js';
import { inPlaceOptions } from './rolling.js';
import { applyInPlaceWrite, isAvailable, isUpdated, untouched, wakeIn, writePodStatus, type DaemonSetRun } from './run.js';

/** InPlaceUpdateReady=False and no in-place update started since: between the two writes that start one. */
function startingInPlace(run: DaemonSetRun, pod: Pod): boolean {
  const condition = podCondition(pod, INPLACE_UPDATE_READY);
  if (condition?.status !== 'False') return false;
  const state = readInPlaceUpdateState(pod.metadata.annotations);
  const label = pod.metadata.labels?.[REVISION_HASH_LABEL];
  if (!state || state === 'invalid' || state.revision !== label) return true;
  const conditionAt = timeOf(condition.lastTransitionTime);
  const updateAt = timeOf(state.updateTimestamp);
  if (conditionAt !== updateAt) return conditionAt > updateAt;
  return !isUpdated(run, pod);
}

export function refreshPods(run: DaemonSetRun): void {
  for (const pods of run.podsByNode.values()) {
    for (const pod of pods) {
      if (pod.metadata.deletionTimestamp || !untouched(run, pod)) continue;
      const action = inPlaceUpdateStep(pod, undefined, pod.metadata.labels?.[REVISION_HASH_LABEL] ?? '', run.now, 0, inPlaceOptions);
      if (action.type === 'set-ready') {
        const write = action.write;
        if (startingInPlace(run, pod)) run.deferredReady.set(pod.metadata.name, write);
        else {
          writePodStatus(run, pod, write);
          if (isAvailable(run, afterStatusWrite(pod, write))) run.readied.add(pod.metadata.name);
        }
      } else if (action.type === 'wait-grace') wakeIn(run, action.until.getTime() - run.now.getTime());
      else applyInPlaceWrite(run, pod, action);
    }
  }
}

/** Pods left between the two writes that start an in-place update, and not updated this run: ready again. */
export function restoreReadiness(run: DaemonSetRun): void {
  for (const pods of run.podsByNode.values()) {
    for (const pod of pods) {
      const write = run.deferredReady.get(pod.metadata.name);
      if (write && untouched(run, pod)) writePodStatus(run, pod, write);
    }
  }
}
