// Writing pod conditions the way OpenKruise's controllers do (pkg/util/pods.go SetPodCondition /
// SetPodReadyCondition): a condition replaced only when its status changes, `Ready` recomputed
// as the kubelet would from the readiness gates, and the status write that carries the whole
// `conditions` list with the pod's resourceVersion (a merge patch replaces the list). Pure.
import type { StatusWrite } from '../reconcile/types.js';
import { rfc3339, type Pod, type PodCondition } from './pods.js';

type ReadinessGate = { conditionType: string };
export type SpecWithGates = { readinessGates?: ReadinessGate[]; [k: string]: unknown };

export const hasReadinessGate = (pod: Pod, type: string): boolean => ((pod.spec as SpecWithGates).readinessGates ?? []).some((g) => g.conditionType === type);

/** The pod spec with a readiness gate appended, unless it has it already. */
export function withReadinessGate<S extends SpecWithGates>(spec: S, type: string): S {
  const gates = spec.readinessGates ?? [];
  if (gates.some((g) => g.conditionType === type)) return spec;
  return { ...spec, readinessGates: [...gates, { conditionType: type }] };
}

/** SetPodCondition: replaced in place only when its status changes; appended when missing. */
export function setCondition(conditions: PodCondition[], next: PodCondition): PodCondition[] {
  const at = conditions.findIndex((c) => c.type === next.type);
  if (at < 0) return [...conditions, next];
  if (conditions[at]!.status === next.status) return conditions;
  return conditions.map((c, i) => (i === at ? next : c));
}

/** SetPodReadyCondition: `Ready` as the kubelet derives it, when ContainersReady is True. */
export function recomputeReady(pod: Pod, conditions: PodCondition[], now: Date): PodCondition[] {
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

export function statusWrite(pod: Pod, conditions: PodCondition[], reason: string): StatusWrite {
  return {
    target: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace },
    status: { conditions },
    ...(pod.metadata.resourceVersion ? { resourceVersion: pod.metadata.resourceVersion } : {}),
    reason,
  };
}


/**
 * 0 (run again at once) when this run's status writes turn a pod Ready while other pods still wait
 * for their update: the availability that frees is spent by the very next run, rather than after
 * the loop's settle delay for its own writes or the kubelet's next report. Not when this run
 * spends that room itself already (writes sent after the others: `afterStatus`).
 */
export function readyAgainWakeMs(status: readonly StatusWrite[], othersWaiting: boolean): number | undefined {
  if (!othersWaiting || status.some((w) => w.afterStatus)) return undefined;
  const makesReady = (w: StatusWrite) => w.target.kind === 'Pod' && ((w.status['conditions'] as PodCondition[] | undefined) ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
  return status.some(makesReady) ? 0 : undefined;
}
