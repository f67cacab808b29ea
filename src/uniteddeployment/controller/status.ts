// A UnitedDeployment's status as OpenKruise computes it (calculateStatus, setUpdatedCondition,
// manageSubsets): the counts summed over the subset workloads (replicas and ready from their
// status; updated and updated-ready from their pods' apps.kruise.io/controller-revision-hash),
// the replicas and partition given to each subset, currentRevision moving to the updated revision
// once every pod is updated and ready, and the conditions. Pure.
import { mapFieldPatch } from '../../kube/merge-patch.js';
import { formatLabelSelector } from '../../kube/selectors.js';
import { isActivePod, isPodReadyCondition, type Pod } from '../../workload/pods.js';
import { RESERVED_STATUS_SELECTOR } from '../reservation.js';
import { UD_REVISION_LABEL, type SubsetCondition, type UdCondition, type UnitedDeploymentLike, type Workload } from '../types.js';

export type SubsetView = {
  name: string;
  workload?: Workload;
  pods: readonly Pod[];
  replicas: number;
  partition: number;
  schedulable?: SubsetCondition;
  /** Reserved pods (reservation mode): counted in reservedPods, not in replicas. */
  reservedPods?: number;
};

export type StatusInput = {
  ud: UnitedDeploymentLike;
  subsets: readonly SubsetView[];
  /** The revision named by status.currentRevision (or the updated one when there is none). */
  current: string;
  updated: string;
  collisionCount: number;
  provisioned: boolean;
  now: Date;
  /** Adaptive with reserveUnschedulablePods: reserved pods are left out of replicas and the label selector. */
  reserving?: boolean;
};

const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/** SetUnitedDeploymentCondition: no change when status and reason are the same; same status keeps its transition time. */
function setCondition(list: UdCondition[], next: UdCondition): UdCondition[] {
  const old = list.find((c) => c.type === next.type);
  if (old && old.status === next.status && old.reason === next.reason) return list;
  const stamped = old && old.status === next.status ? { ...next, lastTransitionTime: old.lastTransitionTime } : next;
  return [...list.filter((c) => c.type !== next.type), stamped];
}

function subsetFailure(w: Workload | undefined): string | undefined {
  if (w?.kind !== 'Deployment') return undefined;
  const c = w.status?.conditions?.find((x) => x.type === 'ReplicaFailure' && x.status === 'True');
  return c ? (c.message ?? '') : undefined;
}

export function unitedDeploymentStatus(input: StatusInput): Record<string, unknown> {
  const { ud, subsets, updated, now } = input;
  const t = rfc3339(now);
  let replicas = 0;
  let ready = 0;
  let updatedReplicas = 0;
  let updatedReady = 0;
  let reservedPods = 0;
  for (const s of subsets) {
    if (!s.workload) continue;
    replicas += (s.workload.status?.replicas ?? 0) - (s.reservedPods ?? 0);
    reservedPods += s.reservedPods ?? 0;
    ready += s.workload.status?.readyReplicas ?? 0;
    for (const p of s.pods) {
      if (p.metadata.labels?.[UD_REVISION_LABEL] !== updated || !isActivePod(p)) continue;
      updatedReplicas++;
      if (isPodReadyCondition(p)) updatedReady++;
    }
  }
  let current = ud.status?.currentRevision || input.current;
  if (current !== updated && updatedReady >= replicas) current = updated;

  let conditions: UdCondition[] = [...(ud.status?.conditions ?? [])];
  conditions = setCondition(
    conditions,
    input.current !== updated
      ? { type: 'UnitedDeploymentUpdated', status: 'False', lastTransitionTime: t, reason: 'UnitedDeploymentRevisionUpdating', message: `updating to revision ${updated}` }
      : { type: 'UnitedDeploymentUpdated', status: 'True', lastTransitionTime: t, reason: 'UnitedDeploymentRevisionUpdated', message: `updated to revision ${updated}` },
  );
  // OpenKruise's reason and message "" (omitempty: not written).
  if (input.provisioned) conditions = setCondition(conditions, { type: 'SubsetProvisioned', status: 'True', lastTransitionTime: t });
  conditions = setCondition(conditions, { type: 'SubsetUpdated', status: 'True', lastTransitionTime: t });
  const failure = subsets.map((s) => subsetFailure(s.workload)).find((m) => m !== undefined);
  conditions =
    failure === undefined
      ? conditions.filter((c) => c.type !== 'SubsetFailure')
      : setCondition(conditions, { type: 'SubsetFailure', status: 'True', lastTransitionTime: t, reason: 'Error', message: failure });

  const subsetReplicas = Object.fromEntries(subsets.map((s) => [s.name, s.replicas]));
  const partitions = Object.fromEntries(subsets.map((s) => [s.name, s.partition]));
  return {
    observedGeneration: ud.metadata.generation ?? 0,
    replicas,
    readyReplicas: ready,
    updatedReplicas,
    // omitempty: written when there are some, removed once there are none.
    ...(reservedPods > 0 ? { reservedPods } : ud.status?.reservedPods ? { reservedPods: null } : {}),
    updatedReadyReplicas: updatedReady,
    ...(input.collisionCount > 0 || ud.status?.collisionCount !== undefined ? { collisionCount: input.collisionCount } : {}),
    currentRevision: current,
    subsetReplicas: mapFieldPatch(ud.status?.subsetReplicas, subsetReplicas),
    subsetStatuses: subsets.map((s) => ({
      name: s.name,
      replicas: s.replicas,
      readyReplicas: s.workload?.status?.readyReplicas ?? 0,
      partition: s.partition,
      ...(s.reservedPods ? { reservedPods: s.reservedPods } : {}),
      ...(s.schedulable ? { conditions: [s.schedulable] } : {}),
    })),
    conditions,
    updateStatus: { updatedRevision: updated, currentPartitions: mapFieldPatch(ud.status?.updateStatus?.currentPartitions, partitions) },
    labelSelector: formatLabelSelector(ud.spec.selector) + (input.reserving ? RESERVED_STATUS_SELECTOR : ''),
  };
}

/** Keys sorted and nulls dropped: the stored status and the computed one compare as values. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().filter((k) => (v as Record<string, unknown>)[k] != null).map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
  }
  return v;
}

/** Whether writing `next` (a merge patch) would change the stored status. */
export function statusChanged(stored: unknown, next: Record<string, unknown>): boolean {
  const s = (stored ?? {}) as Record<string, unknown>;
  return Object.keys(next).some((k) => JSON.stringify(canonical(s[k])) !== JSON.stringify(canonical(next[k])));
}
