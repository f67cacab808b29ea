// The UnitedDeployment controller's decision, per UnitedDeployment (OpenKruise's Reconcile): the
// revision; the subset workloads found (by subset label and controller reference; duplicates and
// workloads of another kind deleted); under Adaptive, which subsets are unschedulable; the
// replicas split (replicas.ts) and the partitions; then the workloads to create, delete and update
// (a new revision, other replicas, partition or patch), and the status. Pure.
import type { Plan, Write } from '../../reconcile/types.js';
import { emptyPlan } from '../../reconcile/types.js';
import { matchesLabelSelector } from '../../kube/selectors.js';
import { timeOf, type Pod } from '../../workload/pods.js';
import { adaptiveState, SCHEDULABLE } from '../adaptive.js';
import { allocateReplicas, allocateReserving, type ExistingSubset } from '../replicas.js';
import { afterAllocation, maxUnavailableOf, RESERVED_POD_LABEL, reservesUnschedulablePods, subsetReservation, withMaxUnavailable, type ReservedSubset, type SubsetReservation } from '../reservation.js';
import { planRevisions } from '../revision.js';
import { desiredWorkload, patchString, subsetWorkloadName, updateReason, updatedWorkload, type SubsetUpdate } from '../subset-workload.js';
import {
  SUBSET_NAME_LABEL,
  TEMPLATE_KINDS,
  UD_API_VERSION,
  UD_KIND,
  isAdaptive,
  templateFieldOf,
  type TemplateField,
  type UnitedDeploymentLike,
  type Workload,
} from '../types.js';
import type { UnitedDeploymentObserved } from './observe.js';
import { statusChanged, unitedDeploymentStatus, type SubsetView } from './status.js';

/** OpenKruise's subset types, as its Events name them. */
const SUBSET_TYPE: Record<TemplateField, string> = {
  statefulSetTemplate: 'StatefulSet',
  advancedStatefulSetTemplate: 'AdvancedStatefulSet',
  cloneSetTemplate: 'CloneSet',
  deploymentTemplate: 'Deployment',
};

const refOf = (w: Workload) => ({ apiVersion: w.apiVersion ?? '', kind: w.kind ?? '', name: w.metadata.name ?? '', ...(w.metadata.namespace ? { namespace: w.metadata.namespace } : {}) });

function deleteWorkload(w: Workload, reason: string): Write {
  return { op: 'delete', target: refOf(w), ...(w.metadata.uid ? { preconditions: { uid: w.metadata.uid } } : {}), propagationPolicy: 'Background', reason };
}

/** The workload kept for a subset among several: the deterministic name first, then the oldest. */
function keeper(ud: UnitedDeploymentLike, subset: string, ws: readonly Workload[]): Workload {
  const named = ws.find((w) => w.metadata.name === subsetWorkloadName(ud, subset));
  if (named) return named;
  return [...ws].sort((a, b) => timeOf(a.metadata.creationTimestamp) - timeOf(b.metadata.creationTimestamp) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))[0]!;
}

const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The subset's stored Schedulable condition; under reservation a subset added to a UnitedDeployment
 * that has status already starts marked (OpenKruise's initStatus), so its first pods are reserved.
 */
function oldSchedulable(ud: UnitedDeploymentLike, subset: string, now: Date) {
  const statuses = ud.status?.subsetStatuses ?? [];
  const stored = statuses.find((x) => x.name === subset);
  if (stored) return stored.conditions?.find((c) => c.type === SCHEDULABLE);
  if (!statuses.length) return undefined;
  return { type: SCHEDULABLE, status: 'False', reason: 'created', message: 'newly-created subsets in reservation strategy', lastTransitionTime: rfc3339(now) };
}

const updatedCondition = (ud: UnitedDeploymentLike) => ud.status?.conditions?.find((c) => c.type === 'UnitedDeploymentUpdated');

function reservedLabel(ud: UnitedDeploymentLike, pod: string, reserved: boolean): Write {
  return {
    op: 'patch',
    target: { apiVersion: 'v1', kind: 'Pod', name: pod, ...(ud.metadata.namespace ? { namespace: ud.metadata.namespace } : {}) },
    patch: { metadata: { labels: { [RESERVED_POD_LABEL]: String(reserved) } } },
    patchType: 'strategic',
    reason: `UnitedDeployment ${ud.metadata.name}: pod ${reserved ? 'reserved (unschedulable; a temporary pod runs in its place)' : 'not reserved'}`,
  };
}

function decideOne(ud: UnitedDeploymentLike, o: UnitedDeploymentObserved, now: Date, plan: Plan): number | undefined {
  const field = templateFieldOf(ud.spec);
  if (!field) return undefined;
  const name = ud.metadata.name ?? '';
  const regarding = { apiVersion: UD_API_VERSION, kind: UD_KIND, name, namespace: ud.metadata.namespace, ...(ud.metadata.uid ? { uid: ud.metadata.uid } : {}) };
  const subsetType = SUBSET_TYPE[field];
  const kind = TEMPLATE_KINDS[field];
  const rev = planRevisions(ud, o.revisions);
  const updated = rev.updated;
  const current = ud.status?.currentRevision || updated;
  plan.writes.push(...rev.writes);

  const owned = (o.workloadsByOwner.get(ud.metadata.uid ?? '') ?? []).filter((w) => !w.metadata.deletionTimestamp);
  const others = owned.filter((w) => w.apiVersion !== kind.apiVersion || w.kind !== kind.kind);
  const groups = new Map<string, Workload[]>();
  for (const w of owned) {
    if (others.includes(w)) continue;
    const s = w.metadata.labels?.[SUBSET_NAME_LABEL] ?? '';
    groups.set(s, [...(groups.get(s) ?? []), w]);
  }
  const existing = new Map<string, Workload>();
  for (const [s, ws] of groups) {
    const keep = keeper(ud, s, ws);
    existing.set(s, keep);
    for (const w of ws) if (w !== keep) plan.writes.push(deleteWorkload(w, `duplicate workload of subset ${s}; ${keep.metadata.name} is kept`));
  }
  const podsOf = (subset: string): Pod[] =>
    o.pods.filter((p) => p.metadata.namespace === ud.metadata.namespace && p.metadata.labels?.[SUBSET_NAME_LABEL] === subset && matchesLabelSelector(ud.spec.selector, p.metadata.labels ?? {}));

  const subsets = ud.spec.topology?.subsets ?? [];
  const wakes: number[] = [];
  const adaptive = new Map<string, ReturnType<typeof adaptiveState>>();
  const known = new Map<string, ExistingSubset>();
  const reserving = reservesUnschedulablePods(ud.spec);
  const reservations = new Map<string, SubsetReservation>();
  const reserved = new Map<string, ReservedSubset>();
  for (const s of subsets) {
    const w = existing.get(s.name ?? '');
    if (!w) continue;
    const counts = { replicas: w.status?.replicas ?? 0, readyReplicas: w.status?.readyReplicas ?? 0 };
    let unschedulable = false;
    if (reserving) {
      const r = subsetReservation(ud.spec, podsOf(s.name ?? '').filter((p) => !p.metadata.deletionTimestamp), updated, oldSchedulable(ud, s.name ?? '', now), updatedCondition(ud), now.getTime());
      reservations.set(s.name ?? '', r);
      reserved.set(s.name ?? '', { replicas: w.spec.replicas ?? 0, reservedPods: r.reservedPods, unschedulable: r.unschedulable, marked: r.marked });
      if (r.wakeInMs !== undefined) wakes.push(r.wakeInMs);
      for (const l of r.labels) plan.writes.push(reservedLabel(ud, l.pod, l.reserved));
    } else if (isAdaptive(ud.spec)) {
      const old = ud.status?.subsetStatuses?.find((x) => x.name === s.name)?.conditions?.find((c) => c.type === SCHEDULABLE);
      const state = adaptiveState(ud.spec, counts, podsOf(s.name ?? ''), old, now.getTime());
      adaptive.set(s.name ?? '', state);
      unschedulable = state.unschedulable;
      if (state.wakeInMs !== undefined) wakes.push(state.wakeInMs);
    }
    known.set(s.name ?? '', { replicas: w.spec.replicas ?? 0, readyReplicas: counts.readyReplicas, unschedulable });
  }

  const allocation = reserving ? allocateReserving(ud.spec, reserved) : allocateReplicas(ud.spec, known);
  if ('error' in allocation) {
    plan.events.push({ regarding, type: 'Warning', reason: 'Failed SpecifySubsetReplicas', message: `Specified subset replicas is ineffective: ${allocation.error}` });
    return undefined;
  }
  const manual = (ud.spec.updateStrategy?.type ?? 'Manual') === 'Manual' ? (ud.spec.updateStrategy?.manualUpdate?.partitions ?? {}) : {};
  const next = new Map<string, SubsetUpdate>();
  for (const s of subsets) {
    const replicas = allocation.replicas[s.name ?? ''] ?? 0;
    next.set(s.name ?? '', { replicas, partition: Math.min(manual[s.name ?? ''] ?? 0, replicas), patch: patchString(s) });
  }

  const wanted = new Set(subsets.map((s) => s.name ?? ''));
  const creates = subsets.filter((s) => !existing.has(s.name ?? ''));
  for (const s of creates) {
    const w = desiredWorkload(ud, field, s, updated, next.get(s.name ?? '')!);
    plan.writes.push({ op: 'create', object: w, reason: `subset ${s.name} has no ${kind.kind}` });
  }
  if (creates.length) plan.events.push({ regarding, type: 'Normal', reason: 'SuccessfulUpdateSubset', message: `Create ${creates.length} Subset (${subsetType})` });
  const deletes = [...existing].filter(([s]) => !wanted.has(s));
  for (const [s, w] of deletes) plan.writes.push(deleteWorkload(w, `subset ${s} is no longer in the topology`));
  if (deletes.length) plan.events.push({ regarding, type: 'Normal', reason: 'SuccessfulUpdateSubset', message: `Delete ${deletes.length} Subset (${subsetType})` });
  for (const w of others) plan.writes.push(deleteWorkload(w, `the template is a ${kind.kind} now, not a ${w.kind}`));

  for (const s of subsets) {
    const w = existing.get(s.name ?? '');
    if (!w) continue;
    const update = next.get(s.name ?? '')!;
    const r = reservations.get(s.name ?? '');
    // An unschedulable subset may lose every pod that is not ready (OpenKruise's UpdateSubset).
    const maxUnavailable = r?.unschedulable ? (w.spec.replicas ?? 0) - (w.status?.readyReplicas ?? 0) + r.updateTimeoutPods : undefined;
    const why = updateReason(field, w, updated, update) ?? (maxUnavailable !== undefined && maxUnavailableOf(w) !== maxUnavailable ? `maxUnavailable ${String(maxUnavailableOf(w))} → ${maxUnavailable} (reserved pods)` : undefined);
    if (why) {
      const desired = updatedWorkload(w, desiredWorkload(ud, field, s, updated, update));
      plan.writes.push({ op: 'update', object: maxUnavailable === undefined ? desired : withMaxUnavailable(desired, maxUnavailable), reason: `subset ${s.name}: ${why}` });
    }
  }

  const views: SubsetView[] = subsets.map((s) => {
    const n = s.name ?? '';
    const state = adaptive.get(n);
    const w = existing.get(n);
    const r = reservations.get(n);
    const schedulable = r && w ? afterAllocation(r, w.spec.replicas ?? 0, next.get(n)!.replicas, now.getTime()) : reserving ? oldSchedulable(ud, n, now) : state?.condition;
    return {
      name: n, ...(w ? { workload: w } : {}), pods: podsOf(n), replicas: next.get(n)!.replicas, partition: next.get(n)!.partition,
      ...(schedulable ? { schedulable } : {}), ...(r?.reservedPods ? { reservedPods: r.reservedPods } : {}),
    };
  });
  const status = unitedDeploymentStatus({ ud, subsets: views, current, updated, collisionCount: rev.collisionCount, provisioned: creates.length + deletes.length + others.length > 0, now, reserving });
  if (statusChanged(ud.status, status)) {
    plan.status.push({
      target: { apiVersion: UD_API_VERSION, kind: UD_KIND, name, ...(ud.metadata.namespace ? { namespace: ud.metadata.namespace } : {}) },
      status,
      ...(ud.metadata.resourceVersion ? { resourceVersion: ud.metadata.resourceVersion } : {}),
      reason: `UnitedDeployment ${name}: ${String(status.readyReplicas)}/${String(status.replicas)} ready, ${String(status.updatedReplicas)} updated`,
    });
  }
  return wakes.length ? Math.min(...wakes) : undefined;
}

export function decideUnitedDeployments(o: UnitedDeploymentObserved, now: Date): Plan {
  const plan = emptyPlan();
  let requeue: number | undefined;
  for (const ud of o.uds) {
    const after = decideOne(ud, o, now, plan);
    if (after !== undefined) requeue = Math.min(requeue ?? Infinity, after);
  }
  if (requeue !== undefined) plan.requeueAfterMs = requeue;
  return plan;
}
