// Pod lifecycle hooks as OpenKruise's workloads run them (apis/apps/pub/lifecycle.go,
// pkg/util/lifecycle): the state label `lifecycle.apps.kruise.io/state` with its timestamp
// annotation, and hooks (`labelsHandler` / `finalizersHandler`) that hold a pod in a Preparing*
// state while a user's controller still has its label or finalizer on the pod. Pure.
import type { Lifecycle, LifecycleHook, LifecycleStateType } from '../api/apps/pub.js';
import { rfc3339, type Pod } from './pods.js';

export const LIFECYCLE_STATE_LABEL = 'lifecycle.apps.kruise.io/state';
export const LIFECYCLE_TIMESTAMP_ANNOTATION = 'lifecycle.apps.kruise.io/timestamp';

export type LifecycleState = LifecycleStateType;
export type { Lifecycle, LifecycleHook };

/** The pod's state; '' for a pod without the label (created before lifecycle existed, or by hand). */
export const lifecycleState = (pod: Pod): LifecycleState | '' => (pod.metadata.labels?.[LIFECYCLE_STATE_LABEL] ?? '') as LifecycleState | '';

const finalizersOf = (pod: Pod): string[] => (pod.metadata.finalizers as string[] | undefined) ?? [];

/** IsPodHooked: any of the hook's labels or finalizers is on the pod. */
export function isPodHooked(hook: LifecycleHook | undefined, pod: Pod): boolean {
  if (!hook) return false;
  if ((hook.finalizersHandler ?? []).some((f) => finalizersOf(pod).includes(f))) return true;
  return Object.entries(hook.labelsHandler ?? {}).some(([k, v]) => pod.metadata.labels?.[k] === v);
}

/** IsPodAllHooked: every one of the hook's labels and finalizers is on the pod (false without a hook). */
export function isPodAllHooked(hook: LifecycleHook | undefined, pod: Pod): boolean {
  if (!hook) return false;
  if (!(hook.finalizersHandler ?? []).every((f) => finalizersOf(pod).includes(f))) return false;
  return Object.entries(hook.labelsHandler ?? {}).every(([k, v]) => pod.metadata.labels?.[k] === v);
}

/** Whether any hook asks to mark pods not ready while they wait (then PreparingDelete is final). */
export const lifecycleMarksPodNotReady = (lifecycle: Lifecycle | undefined): boolean =>
  Boolean(lifecycle?.preDelete?.markPodNotReady || lifecycle?.inPlaceUpdate?.markPodNotReady);

/**
 * The pod in `state`, stamped now. With `handler` (going back to PreparingUpdate after an
 * in-place update), the hook's labels and finalizers are put back on, as OpenKruise does, so the
 * user's controller sees the next update coming.
 */
export function withLifecycleState(pod: Pod, state: LifecycleState, now: Date, handler?: LifecycleHook): Pod {
  const labels = { ...(pod.metadata.labels ?? {}), ...(handler?.labelsHandler ?? {}), [LIFECYCLE_STATE_LABEL]: state };
  const annotations = { ...(pod.metadata.annotations ?? {}), [LIFECYCLE_TIMESTAMP_ANNOTATION]: rfc3339(now) };
  const extra = (handler?.finalizersHandler ?? []).filter((f) => !finalizersOf(pod).includes(f));
  return {
    ...pod,
    metadata: { ...pod.metadata, labels, annotations, ...(extra.length ? { finalizers: [...finalizersOf(pod), ...extra] } : {}) },
  };
}

/** What a pod's next lifecycle state depends on besides its labels. */
export type LifecycleFacts = {
  /** The pod is at the update revision. */
  updated: boolean;
  /** Its in-place update (if any) has completed. */
  inPlaceCompleted: boolean;
  /** With no preNormal hook, PreparingNormal may end (CloneSet: once scheduled; Advanced StatefulSet: at once). */
  normalWithoutHook: boolean;
};

/**
 * refreshPodState's lifecycle moves (OpenKruise's CloneSet and Advanced StatefulSet):
 *   PreparingNormal → Normal (no preNormal hook and `normalWithoutHook`, or all of the hook on the pod);
 *   PreparingUpdate → Updated / Normal when the pod turns out to be at the update revision (#1156);
 *   Updating → Updated (inPlaceUpdate hook not all back) or Normal, once the update completed;
 *   Updated → Normal once the inPlaceUpdate hook is all back on.
 */
export function nextLifecycleState(pod: Pod, lifecycle: Lifecycle | undefined, facts: LifecycleFacts): LifecycleState | undefined {
  const afterUpdate = (): LifecycleState => (lifecycle && !isPodAllHooked(lifecycle.inPlaceUpdate, pod) ? 'Updated' : 'Normal');
  switch (lifecycleState(pod)) {
    case 'PreparingNormal':
      return (lifecycle?.preNormal ? isPodAllHooked(lifecycle.preNormal, pod) : facts.normalWithoutHook) ? 'Normal' : undefined;
    case 'PreparingUpdate':
      return facts.updated ? afterUpdate() : undefined;
    case 'Updating':
      return facts.inPlaceCompleted ? afterUpdate() : undefined;
    case 'Updated':
      return !lifecycle?.inPlaceUpdate || isPodAllHooked(lifecycle.inPlaceUpdate, pod) ? 'Normal' : undefined;
    default:
      return undefined;
  }
}
