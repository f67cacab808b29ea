// When a CloneSet counts a pod available (IsPodAvailable in cloneset_sync_utils.go and
// IsPodUpdateReady in cloneset_core.go): in no lifecycle state or Normal, Running, Ready for
// minReadySeconds, and not in the middle of an in-place update (InPlaceUpdateReady not False). Pure.
import { INPLACE_UPDATE_READY } from '../../workload/inplace-update-state.js';
import { lifecycleState } from '../../workload/lifecycle.js';
import { podAvailability, podCondition, type Pod } from '../../workload/pods.js';

export function isCloneSetPodAvailable(pod: Pod, minReadySeconds: number, now: number): boolean {
  const state = lifecycleState(pod);
  if (state !== '' && state !== 'Normal') return false;
  if (pod.status?.phase !== 'Running') return false;
  if (!podAvailability(pod, minReadySeconds, now).available) return false;
  const inPlace = podCondition(pod, INPLACE_UPDATE_READY);
  return !inPlace || inPlace.status === 'True';
}
