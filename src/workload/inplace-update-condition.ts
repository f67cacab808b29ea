// The `InPlaceUpdateReady` readiness gate and condition (apis/apps/pub/inplace_update.go;
// pkg/util/inplaceupdate/inplace_update.go InjectReadinessGate / updateCondition / Refresh;
// pkg/util/pods.go SetPodCondition / SetPodReadyCondition).
//
// Pods are created with the gate, so the kubelet keeps them NotReady while the condition is not
// True. An in-place update first sets the condition False (reason `StartInPlaceUpdate`) and, in the
// same status write, recomputes `Ready` the way the kubelet would, so endpoints drop the pod at
// once; once the update completes the condition goes back to True (the kubelet then makes the pod
// Ready). Our runtime writes status with a merge patch, which replaces the whole `conditions`
// list, so each write carries the full list and the pod's resourceVersion: OpenKruise sets True
// only on the pod version it checked, never retrying on conflict (kruise#2274). Pure.
import type { StatusWrite } from '../reconcile/types.js';
import { INPLACE_UPDATE_READY } from './inplace-update-state.js';
import { podCondition, rfc3339, type Pod, type PodCondition } from './pods.js';

type ReadinessGate = { conditionType: string };
type SpecWithGates = { readinessGates?: ReadinessGate[]; [k: string]: unknown };

/** The pod spec with the InPlaceUpdateReady gate appended, unless it has it already. */
export function withInPlaceUpdateReadinessGate<S extends SpecWithGates>(spec: S): S {
  const gates = spec.readinessGates ?? [];
  if (gates.some((g) => g.conditionType === INPLACE_UPDATE_READY)) return spec;
  return { ...spec, readinessGates: [...gates, { conditionType: INPLACE_UPDATE_READY }] };
}

export function hasInPlaceUpdateReadinessGate(pod: Pod): boolean {
  const gates = (pod.spec as SpecWithGates).readinessGates ?? [];
  return gates.some((g) => g.conditionType === INPLACE_UPDATE_READY);
}

/** SetPodCondition: replaced in place only when its status changes; appended when missing. */
function setCondition(conditions: PodCondition[], next: PodCondition): PodCondition[] {
  const at = conditions.findIndex((c) => c.type === next.type);
  if (at < 0) return [...conditions, next];
  if (conditions[at]!.status === next.status) return conditions;
  return conditions.map((c, i) => (i === at ? next : c));
}

/** SetPodReadyCondition: `Ready` as the kubelet derives it, when ContainersReady is True. */
function recomputeReady(pod: Pod, conditions: PodCondition[], now: Date): PodCondition[] {
  const find = (t: string) => conditions.find((c) => c.type === t);
  if (!find('Ready') || find('ContainersReady')?.status !== 'True') return conditions;
  const unready: string[] = [];
  for (const g of (pod.spec as SpecWithGates).readinessGates ?? []) {
    const c = find(g.conditionType);
    if (!c) unready.push(`corresponding condition of pod readiness gate "${g.conditionType}" does not exist.`);
    else if (c.status !== 'True') unready.push(`the status of pod readiness gate "${g.conditionType}" is not "True", but ${c.status}`);
  }
  const ready: PodCondition =
    unready.length === 0
      ? { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(now) }
      : { type: 'Ready', status: 'False', reason: 'ReadinessGatesNotReady', message: unready.join(', '), lastProbeTime: null, lastTransitionTime: null };
  return setCondition(conditions, ready);
}

function statusWrite(pod: Pod, conditions: PodCondition[], reason: string): StatusWrite {
  return {
    target: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace },
    status: { conditions },
    ...(pod.metadata.resourceVersion ? { resourceVersion: pod.metadata.resourceVersion } : {}),
    reason,
  };
}

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

/** InPlaceUpdateReady=True; undefined when the pod has no gate or the condition is True already. */
export function inPlaceUpdateReadyWrite(pod: Pod, now: Date): StatusWrite | undefined {
  if (!hasInPlaceUpdateReadinessGate(pod)) return undefined;
  if (podCondition(pod, INPLACE_UPDATE_READY)?.status === 'True') return undefined;
  const next: PodCondition = { type: INPLACE_UPDATE_READY, status: 'True', lastProbeTime: null, lastTransitionTime: rfc3339(now) };
  return statusWrite(pod, setCondition(pod.status?.conditions ?? [], next), `pod ${pod.metadata.name} has no in-place update in progress: ${INPLACE_UPDATE_READY}=True`);
}
