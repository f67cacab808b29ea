// Turning in-place update steps (inplace-update-step.ts) into a workload run's writes, the same
// for every workload: a step's single write, or the two writes that start an update in one run —
// InPlaceUpdateReady=False, then the pod update chained on the resourceVersion that write produces
// (StatusWrite.then). Pure: the writer records into the run's plan.
import type { KubeObject } from '../kube/http.js';
import type { StatusWrite } from '../reconcile/types.js';
import type { InPlaceUpdateAction } from './inplace-update-step.js';
import { afterStatusWrite } from './pod-status-writes.js';
import type { Pod } from './pods.js';

/** Where the writes go: a workload run's plan. */
export type InPlaceWriter = {
  writeStatus(pod: Pod, write: StatusWrite): void;
  updatePod(pod: Pod, next: Pod, reason: string): void;
  wakeAt(at: Date): void;
};

/** Plans the write a step asks for (and its wake-up); false when it asks none. */
export function applyInPlaceAction(pod: Pod, action: InPlaceUpdateAction, w: InPlaceWriter): boolean {
  switch (action.type) {
    case 'set-not-ready':
    case 'set-ready':
      w.writeStatus(pod, action.write);
      return true;
    case 'update-pod':
      w.updatePod(pod, action.pod, action.reason);
      if (action.wakeAt) w.wakeAt(action.wakeAt);
      return true;
    default:
      return false;
  }
}

/**
 * Plans the next step of `pod`'s update as `step` decides it; when that takes the pod out of
 * service, the update itself goes in the same run, chained on that write. `updated`: the pod
 * update (images, or the grace annotation) is planned.
 */
export function planInPlaceUpdate(pod: Pod, step: (p: Pod) => InPlaceUpdateAction, w: InPlaceWriter): { wrote: boolean; updated: boolean } {
  const action = step(pod);
  if (action.type === 'set-not-ready') {
    const next = step(afterStatusWrite(pod, action.write));
    if (next.type !== 'update-pod') return { wrote: applyInPlaceAction(pod, action, w), updated: false };
    w.writeStatus(pod, { ...action.write, then: { op: 'update', object: next.pod as unknown as KubeObject, reason: next.reason } });
    if (next.wakeAt) w.wakeAt(next.wakeAt);
    return { wrote: true, updated: true };
  }
  const wrote = applyInPlaceAction(pod, action, w);
  return { wrote, updated: wrote && action.type === 'update-pod' };
}
