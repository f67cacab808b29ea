// The `InPlaceUpdateReady` readiness gate and condition (apis/apps/pub/inplace_update.go;
// pkg/util/inplaceupdate/inplace_update.go InjectReadinessGate / updateCondition / Refresh;
// pkg/util/pods.go SetPodCondition / SetPodReadyCondition).
//
// Pods are created with the gate, so the kubelet keeps them NotReady while the condition is not
// True. An in-place update first sets the condition False (reason `StartInPlaceUpdate`) and, in the
// same status write, recomputes `Ready` the way the kubelet would, so endpoints drop the pod at
// once; once the update completes the condition goes back to True, again with `Ready` recomputed.
// OpenKruise sets only the condition there and leaves `Ready` to the kubelet's next status sync;
// recomputing it (True only when ContainersReady is already True and every gate is True) puts the
// pod back in service one kubelet round trip sooner, and the kubelet stays the authority: its next
// sync writes what its probes say, and our write carries the version it judged. Our runtime writes status with a merge patch, which replaces the whole `conditions`
// list, so each write carries the full list and the pod's resourceVersion: OpenKruise sets True
// only on the pod version it checked, never retrying on conflict (kruise#2274). Pure.
import type { StatusWrite } from '../reconcile/types.js';
import { INPLACE_UPDATE_READY } from './inplace-update-state.js';
import { hasReadinessGate, recomputeReady, setCondition, statusWrite, withReadinessGate, type SpecWithGates } from './pod-conditions.js';
import { podCondition, rfc3339, type Pod, type PodCondition } from './pods.js';

/** The pod spec with the InPlaceUpdateReady gate appended, unless it has it already. */
export const withInPlaceUpdateReadinessGate = <S extends SpecWithGates>(spec: S): S => withReadinessGate(spec, INPLACE_UPDATE_READY);

export const hasInPlaceUpdateReadinessGate = (pod: Pod): boolean => hasReadinessGate(pod, INPLACE_UPDATE_READY);

/**
 * InPlaceUpdateReady=False (reason StartInPlaceUpdate) with `Ready` recomputed; undefined when
 * the pod has no gate (OpenKruise leaves such pods' readiness alone) or the condition is False.
 */
export function inPlaceUpdateNotReadyWrite(pod: Pod, now: Date): StatusWrite | undefined {
  if (!hasInPlaceUpdateReadinessGate(pod)) return undefined;
  if (podCondition(pod, INPLACE_UPDATE_READY)?.status === 'False') return undefined;
  const next: PodCondition = { type: INPLACE_UPDATE_READY, status: 'False', reason: 'StartInPlaceUpdate', lastProbeTime: null, lastTransitionTime: rfc3339(now) };
  const conditions = recomputeReady(pod, setCondition(pod.status?.conditions ?? [], next), now);
  return statusWrite(pod, conditions, `in-place update of pod ${pod.metadata.name} starts: ${INPLACE_UPDATE_READY}=False takes it out of service`);
}

/** InPlaceUpdateReady=True with `Ready` recomputed; undefined when the pod has no gate or the condition is True already. */
export function inPlaceUpdateReadyWrite(pod: Pod, now: Date): StatusWrite | undefined {
  if (!hasInPlaceUpdateReadinessGate(pod)) return undefined;
  if (podCondition(pod, INPLACE_UPDATE_READY)?.status === 'True') return undefined;
  const next: PodCondition = { type: INPLACE_UPDATE_READY, status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(now) };
  return statusWrite(pod, recomputeReady(pod, setCondition(pod.status?.conditions ?? [], next), now), `pod ${pod.metadata.name} has no in-place update in progress: ${INPLACE_UPDATE_READY}=True`);
}
