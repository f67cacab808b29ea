// The inPlaceUpdate lifecycle hook in front of an in-place update (inPlaceUpdatePod in OpenKruise's
// CloneSet and Advanced StatefulSet controllers): from the pod's lifecycle state, whether the
// update goes ahead, waits for the user's controller, first parks the pod (PreparingUpdate, or
// KruisePodReady=False with markPodNotReady), or is refused in that state. Pure.
import type { StatusWrite } from '../reconcile/types.js';
import { isPodHooked, lifecycleState, withLifecycleState, type LifecycleHook } from './lifecycle.js';
import { statusWrite } from './pod-conditions.js';
import { addNotReadyKey, PRE_UPDATE_HOOK_KEY } from './pod-readiness.js';
import type { Pod } from './pods.js';

export type InPlaceHookGate =
  | { type: 'proceed' }
  | { type: 'wait' }
  | { type: 'hold-status'; write: StatusWrite }
  | { type: 'hold-update'; pod: Pod; reason: string }
  | { type: 'refuse'; message: string };

/**
 * `rearmWithoutHook`: an Updated pod goes back to PreparingUpdate even when the set has no hook
 * (the Advanced StatefulSet does; CloneSet updates such a pod at once).
 */
export function inPlaceHookGate(pod: Pod, hook: LifecycleHook | undefined, now: Date, opts: { rearmWithoutHook: boolean }): InPlaceHookGate {
  const name = pod.metadata.name;
  const park = (): InPlaceHookGate => ({ type: 'hold-update', pod: withLifecycleState(pod, 'PreparingUpdate', now, hook), reason: `pod ${name} waits in its inPlaceUpdate hook (PreparingUpdate)` });
  switch (lifecycleState(pod)) {
    case '':
    case 'PreparingNormal':
    case 'Normal': {
      if (!hook || !isPodHooked(hook, pod)) return { type: 'proceed' };
      const notReady = hook.markPodNotReady ? addNotReadyKey(pod, PRE_UPDATE_HOOK_KEY, now) : undefined;
      if (notReady) return { type: 'hold-status', write: statusWrite(pod, notReady, `pod ${name} waits in its inPlaceUpdate hook: KruisePodReady=False`) };
      return { type: 'hold-update', pod: withLifecycleState(pod, 'PreparingUpdate', now), reason: `pod ${name} waits in its inPlaceUpdate hook (PreparingUpdate)` };
    }
    case 'Updated':
      // The next update starts with the hook put back, so the user's controller sees it coming.
      return hook || opts.rearmWithoutHook ? park() : { type: 'proceed' };
    case 'PreparingUpdate':
      return hook && isPodHooked(hook, pod) ? { type: 'wait' } : { type: 'proceed' };
    case 'Updating':
      return { type: 'proceed' };
    default:
      return { type: 'refuse', message: `not allowed to in-place update pod ${name} in state ${lifecycleState(pod)}` };
  }
}
