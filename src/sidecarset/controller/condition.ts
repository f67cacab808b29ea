// The pod condition `SidecarSetUpgradable` (../shared/SEMANTICS.md §2.4.8): its message is a JSON map
// SidecarSet → whether that set can update the pod in place; the condition is True
// ("AllSidecarsetUpgradable") when every set can, else False ("UpdateImmutableField").
// OpenKruise: updatePodSidecarSetUpgradableCondition in pkg/controller/sidecarset/sidecarset_processor.go.
//
// OpenKruise strategic-merges the one condition into pods/status. Our runtime writes status with a
// merge patch, which replaces the whole `conditions` list, so the write carries the full list and
// the pod's resourceVersion: a kubelet update in between makes it a conflict, never a loss. Pure.
import type { StatusWrite } from '../../reconcile/types.js';
import { goJSON } from '../../kube/go-json.js';
import { podCondition, rfc3339, type Pod, type PodCondition } from '../../workload/pods.js';

export const SIDECARSET_UPGRADABLE = 'SidecarSetUpgradable';

/** GetMessageKvFromCondition: the per-set map, or undefined when the message is not a JSON object. */
export function upgradableKv(pod: Pod): Record<string, unknown> | undefined {
  const message = podCondition(pod, SIDECARSET_UPGRADABLE)?.message;
  if (!message) return {};
  try {
    const v: unknown = JSON.parse(message);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The status write recording, per SidecarSet, whether it can update the pod in place; undefined
 * when nothing changes (or the message is unreadable: OpenKruise then gives up on the pod too).
 */
export function upgradableConditionWrite(pod: Pod, upgradable: Readonly<Record<string, boolean>>, now: Date): StatusWrite | undefined {
  const kv = upgradableKv(pod);
  if (!kv) return undefined;
  Object.assign(kv, upgradable);
  const all = Object.values(kv).every((v) => v !== false);
  const old = podCondition(pod, SIDECARSET_UPGRADABLE);
  const status = all ? 'True' : 'False';
  const next: PodCondition = {
    type: SIDECARSET_UPGRADABLE,
    status,
    reason: all ? 'AllSidecarsetUpgradable' : 'UpdateImmutableField',
    message: goJSON(kv),
    lastProbeTime: old?.lastProbeTime ?? null,
    lastTransitionTime: old && old.status === status ? (old.lastTransitionTime ?? null) : rfc3339(now),
  };
  if (
    old &&
    old.status === next.status &&
    (old.reason ?? '') === next.reason &&
    (old.message ?? '') === next.message &&
    (old.lastTransitionTime ?? null) === next.lastTransitionTime
  ) {
    return undefined;
  }
  const conditions = [...(pod.status?.conditions ?? []).filter((c) => c.type !== SIDECARSET_UPGRADABLE)];
  const at = (pod.status?.conditions ?? []).findIndex((c) => c.type === SIDECARSET_UPGRADABLE);
  if (at >= 0) conditions.splice(at, 0, next);
  else conditions.push(next);
  return {
    target: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace },
    status: { conditions },
    ...(pod.metadata.resourceVersion ? { resourceVersion: pod.metadata.resourceVersion } : {}),
    reason: Object.entries(upgradable)
      .map(([set, ok]) => `SidecarSet ${set} ${ok ? 'can' : 'cannot'} update the pod's sidecars in place`)
      .join('; '),
  };
}
