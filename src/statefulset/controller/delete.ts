// Deleting a pod the StatefulSet way (deletePod in stateful_set_control.go): a pod with the
// preDelete hook goes to PreparingDelete (KruisePodReady=False first with markPodNotReady) and is
// deleted only once the user's controller took the hook off. Pure.
import type { Write } from '../../reconcile/types.js';
import { isPodHooked, lifecycleState, withLifecycleState } from '../../workload/lifecycle.js';
import { statusWrite } from '../../workload/pod-conditions.js';
import { addNotReadyKey, PRE_DELETE_HOOK_KEY } from '../../workload/pod-readiness.js';
import type { Pod } from '../../workload/pods.js';
import { deletePodWrite, lifecycleOf, untouched, updatePod, writePodStatus, type StsRun } from './run.js';

/** modified: a write was planned; deleting: that write deletes the pod. */
export type DeleteOutcome = { modified: boolean; deleting: boolean };

export function deleteOrPrepare(run: StsRun, pod: Pod, reason: string, slowStart?: Write['slowStart']): DeleteOutcome {
  if (!untouched(run, pod)) return { modified: false, deleting: false };
  const preDelete = lifecycleOf(run.set)?.preDelete;
  if (preDelete && isPodHooked(preDelete, pod)) {
    const notReady = preDelete.markPodNotReady ? addNotReadyKey(pod, PRE_DELETE_HOOK_KEY, run.now) : undefined;
    if (notReady) {
      writePodStatus(run, pod, statusWrite(pod, notReady, `pod ${pod.metadata.name} waits in its preDelete hook: KruisePodReady=False`));
      return { modified: true, deleting: false };
    }
    if (lifecycleState(pod) !== 'PreparingDelete') {
      updatePod(run, pod, withLifecycleState(pod, 'PreparingDelete', run.now), `${reason}: pod ${pod.metadata.name} waits in its preDelete hook (PreparingDelete)`);
      return { modified: true, deleting: false };
    }
    return { modified: false, deleting: false };
  }
  deletePodWrite(run, pod, reason, slowStart);
  return { modified: true, deleting: true };
}
