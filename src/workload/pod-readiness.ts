// The `KruisePodReady` readiness gate (pkg/util/podreadiness, pkg/controller/podreadiness): pods
// OpenKruise's workloads create carry the gate; its condition is True until some component asks
// for the pod to be taken out of service, recording why as a JSON list of {userAgent, key} in the
// condition's message, and True again once every such key is removed. Lifecycle hooks with
// `markPodNotReady` use it (keys preDeleteHook / preUpdateHook). Pure: returns the conditions to
// write, or undefined when nothing changes.
import { hasReadinessGate, recomputeReady, setCondition, withReadinessGate, type SpecWithGates } from './pod-conditions.js';
import { podCondition, rfc3339, type Pod, type PodCondition } from './pods.js';

export const KRUISE_POD_READY = 'KruisePodReady';

export type NotReadyKey = { userAgent: string; key: string };
export const PRE_DELETE_HOOK_KEY: NotReadyKey = { userAgent: 'Lifecycle', key: 'preDeleteHook' };
export const PRE_UPDATE_HOOK_KEY: NotReadyKey = { userAgent: 'Lifecycle', key: 'preUpdateHook' };

export const withKruisePodReadinessGate = <S extends SpecWithGates>(spec: S): S => withReadinessGate(spec, KRUISE_POD_READY);

function messagesOf(condition: PodCondition | undefined): NotReadyKey[] {
  if (!condition?.message) return [];
  try {
    const parsed: unknown = JSON.parse(condition.message);
    return Array.isArray(parsed) ? parsed.filter((m): m is NotReadyKey => typeof m?.userAgent === 'string' && typeof m?.key === 'string') : [];
  } catch {
    return [];
  }
}

const same = (a: NotReadyKey, b: NotReadyKey) => a.userAgent === b.userAgent && a.key === b.key;

/** The pod's KruisePodReady condition set True, when it has the gate and no condition yet. */
export function initialKruisePodReady(pod: Pod, conditions: PodCondition[], now: Date): PodCondition[] | undefined {
  if (!hasReadinessGate(pod, KRUISE_POD_READY) || conditions.some((c) => c.type === KRUISE_POD_READY)) return undefined;
  return [...conditions, { type: KRUISE_POD_READY, status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(now) }];
}

/** AddNotReadyKey: KruisePodReady False with `key` recorded, Ready recomputed. */
export function addNotReadyKey(pod: Pod, key: NotReadyKey, now: Date): PodCondition[] | undefined {
  if (!hasReadinessGate(pod, KRUISE_POD_READY)) return undefined;
  const current = podCondition(pod, KRUISE_POD_READY);
  const messages = messagesOf(current);
  if (current?.status === 'False' && messages.some((m) => same(m, key))) return undefined;
  const next: PodCondition = { type: KRUISE_POD_READY, status: 'False', message: JSON.stringify([...messages.filter((m) => !same(m, key)), key]), lastProbeTime: null, lastTransitionTime: rfc3339(now) };
  const conditions = (pod.status?.conditions ?? []).filter((c) => c.type !== KRUISE_POD_READY);
  return recomputeReady(pod, [...conditions, next], now);
}

/** RemoveNotReadyKey: `key` dropped; True again when no key is left. */
export function removeNotReadyKey(pod: Pod, key: NotReadyKey, now: Date): PodCondition[] | undefined {
  if (!hasReadinessGate(pod, KRUISE_POD_READY)) return undefined;
  const current = podCondition(pod, KRUISE_POD_READY);
  const messages = messagesOf(current);
  if (!current || !messages.some((m) => same(m, key))) return undefined;
  const left = messages.filter((m) => !same(m, key));
  const next: PodCondition = { type: KRUISE_POD_READY, status: left.length ? 'False' : 'True', message: left.length ? JSON.stringify(left) : '', lastProbeTime: null, lastTransitionTime: rfc3339(now) };
  return setCondition((pod.status?.conditions ?? []).filter((c) => c.type !== KRUISE_POD_READY), next);
}
