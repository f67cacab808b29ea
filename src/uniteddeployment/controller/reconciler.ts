// The UnitedDeployment reconciler: observe (six LISTs) → decide (pure) → the runtime applies the
// plan. Triggers: a change to a subset workload (created, scaled, its status moved) runs the
// UnitedDeployment that controls it; a pod of theirs marked unschedulable runs it too, so Adaptive
// scheduling counts the wait with a wake-up (requeueAfterMs), never a poll. Wake-ups: a pending
// pod's rescheduleCriticalSeconds deadline, the end of a subset's unschedulable spell.
import type { KubeObject } from '../../kube/http.js';
import type { Reconciler, Trigger } from '../../reconcile/types.js';
import { SUBSET_NAME_LABEL, TEMPLATE_KINDS, UD_API_VERSION, UD_KIND, type Meta } from '../types.js';
import { decideUnitedDeployments } from './decide.js';
import { observeUnitedDeployments, type UnitedDeploymentObserved } from './observe.js';

type Target = { namespace?: string; name: string };

/** The UnitedDeployment that controls a subset workload, if one does. */
export function owningUnitedDeployment(child: KubeObject): Target[] {
  const meta = child.metadata as Meta | undefined;
  const owner = meta?.ownerReferences?.find((o) => o.controller);
  if (!owner?.name || owner.kind !== UD_KIND || owner.apiVersion?.split('/')[0] !== 'apps.kruise.io') return [];
  return [{ ...(meta?.namespace ? { namespace: meta.namespace } : {}), name: owner.name }];
}

type PodStatus = { phase?: string; conditions?: { type?: string; status?: string; reason?: string }[] };

/**
 * Only pods the scheduler has given up on for now concern the UnitedDeployment directly (Adaptive
 * counts their wait): every other pod change (created, ready, gone) moves its workload's status,
 * whose own event runs the UnitedDeployment.
 */
function unschedulable(pod: KubeObject): boolean {
  const status = pod.status as PodStatus | undefined;
  return status?.phase === 'Pending' && (status.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');
}

/**
 * The UnitedDeployment of a subset's pod. Pods carry no UnitedDeployment name, only the subset
 * label; their controller is the subset workload `<ud>-<subset>-<suffix>` (a Deployment's: its
 * ReplicaSet `<ud>-<subset>-<suffix>-<hash>`), so the name is what precedes `-<subset>-`. A wrong
 * guess costs one run that finds no UnitedDeployment.
 */
export function unitedDeploymentOfPod(pod: KubeObject): Target[] {
  if (!unschedulable(pod)) return [];
  const meta = pod.metadata as Meta | undefined;
  const subset = meta?.labels?.[SUBSET_NAME_LABEL];
  const owner = meta?.ownerReferences?.find((o) => o.controller)?.name;
  if (!subset || !owner) return [];
  const at = owner.lastIndexOf(`-${subset}-`);
  if (at <= 0) return [];
  return [{ ...(meta?.namespace ? { namespace: meta.namespace } : {}), name: owner.slice(0, at) }];
}

const triggers: Trigger[] = [
  ...Object.values(TEMPLATE_KINDS).map((k) => ({ apiVersion: k.apiVersion, kind: k.kind, objectsOf: owningUnitedDeployment })),
  { apiVersion: 'v1', kind: 'Pod', objectsOf: unitedDeploymentOfPod },
];

export const unitedDeploymentReconciler: Reconciler<UnitedDeploymentObserved> = {
  kind: UD_KIND,
  apiVersion: UD_API_VERSION,
  observe: (kube, scope) => observeUnitedDeployments(kube, scope),
  decide: (observed, now) => decideUnitedDeployments(observed, now),
  triggers,
};
