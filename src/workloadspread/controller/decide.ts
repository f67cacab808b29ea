// Pure: what the WorkloadSpread reconciler writes for what it observed (../shared/SEMANTICS.md §3.5):
// - status: subsetStatuses counted from pods (with Schedulable conditions under Adaptive) and
//   versionedSubsetStatuses as the edge ledger holds them after the resync, so the cluster shows
//   the edge's accounting; observedGeneration;
// - deletion of pods stuck unschedulable past rescheduleCriticalSeconds (Adaptive);
// - pod-deletion-cost annotations (Deployments, ReplicaSets, CloneSets);
// - a requeue for the next entry expiry, pending-pod deadline or subset recovery.
import { nextExpiry } from '../ledger-resync.js';
import type { WorkloadSpreadLedger } from '../ledger.js';
import { missingReplicas } from '../subset-state.js';
import { POD_DELETION_COST_ANNOTATION, WS_API_VERSION, WS_KIND, type WorkloadSpreadStatus, type WorkloadSpreadSubsetStatus } from '../types.js';
import { mapFieldPatch } from '../../kube/merge-patch.js';
import { emptyPlan, type Plan, type Write } from '../../reconcile/types.js';
import { deletionCosts, honoursDeletionCost } from './deletion-cost.js';
import type { SpreadObserved, WorkloadSpreadObserved } from './observe.js';
import { subsetOfPod } from './pods.js';
import { iso } from './subsets.js';
import { withAdmittedEntries } from './admitted-entries.js';

const MIN_REQUEUE_MS = 1000;

const isoTimes = (times: Record<string, number>) => Object.fromEntries(Object.entries(times).map(([k, t]) => [k, iso(t)]));

/** The ledger as status.versionedSubsetStatuses shows it (empty maps omitted, as Go's omitempty does). */
export function versionedStatuses(ledger: WorkloadSpreadLedger): Record<string, WorkloadSpreadSubsetStatus[]> {
  return Object.fromEntries(
    Object.entries(ledger.versions).map(([version, subsets]) => [
      version,
      subsets.map((s) => ({
        name: s.name,
        replicas: s.replicas,
        missingReplicas: missingReplicas(s, ledger.workloadReplicas.value),
        ...(s.conditions?.length ? { conditions: s.conditions } : {}),
        ...(Object.keys(s.creatingPods).length ? { creatingPods: isoTimes(s.creatingPods) } : {}),
        ...(Object.keys(s.deletingPods).length ? { deletingPods: isoTimes(s.deletingPods) } : {}),
      })) as WorkloadSpreadSubsetStatus[],
    ]),
  );
}

/** JSON with sorted keys and times normalised, to compare a status read back with one built here. */
function canonical(v: unknown): string {
  if (v instanceof Date) return JSON.stringify(iso(v.getTime()));
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.entries(v).filter(([, x]) => x !== undefined && x !== null).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Writes status when it changed; answers whether it shows admitted entries the ledger has confirmed already. */
function decideStatus(o: SpreadObserved, plan: Plan, now: number): boolean {
  const ws = o.ws;
  const shown = withAdmittedEntries(versionedStatuses(o.ledger), o.held, ws.status?.versionedSubsetStatuses as Record<string, WorkloadSpreadSubsetStatus[]> | undefined, now);
  const versioned = shown.versioned;
  // Empty maps are left out, as OpenKruise's omitempty writes them (subsets' creatingPods and
  // deletingPods in versionedStatuses, versionedSubsetStatuses itself here).
  const desired: WorkloadSpreadStatus = {
    ...(ws.metadata?.generation === undefined ? {} : { observedGeneration: ws.metadata.generation }),
    subsetStatuses: o.counts.subsetStatuses,
    ...(Object.keys(versioned).length ? { versionedSubsetStatuses: versioned } : {}),
  };
  if (canonical(desired) === canonical(ws.status ?? {})) return shown.added;
  // The status write is a merge patch: lists (a version's subsets) are replaced whole, so a
  // subset's emptied creatingPods goes with its old entry; map keys, versions no longer kept and
  // the whole map once empty must be nulled to go away.
  const { versionedSubsetStatuses: _, ...rest } = desired;
  const versions = mapFieldPatch(ws.status?.versionedSubsetStatuses, versioned);
  plan.status.push({
    target: { apiVersion: WS_API_VERSION, kind: WS_KIND, name: ws.metadata?.name ?? '', namespace: ws.metadata?.namespace ?? '' },
    status: { ...rest, ...(versions === undefined ? {} : { versionedSubsetStatuses: versions }) },
    ...(ws.metadata?.resourceVersion ? { resourceVersion: ws.metadata.resourceVersion } : {}),
    reason: `subset counts of workloadspread ${ws.metadata?.namespace}/${ws.metadata?.name} changed`,
  });
  return shown.added;
}

/** Returns whether some unschedulable pod waits for its subset to be marked first. */
function decidePods(o: SpreadObserved, plan: Plan): boolean {
  const ws = o.ws;
  const name = `workloadspread ${ws.metadata?.namespace}/${ws.metadata?.name}`;
  const deleted = new Set<string>();
  let waiting = false;
  for (const a of o.adoptions) {
    plan.writes.push({
      op: 'patch',
      target: { apiVersion: 'v1', kind: 'Pod', name: a.pod, namespace: ws.metadata?.namespace ?? '' },
      patch: a.patch,
      patchType: 'strategic',
      reason: `${name}: pod created before the workloadspread, matched to subset ${a.subset}`,
    });
  }
  for (const pod of o.counts.unschedulablePods) {
    // OpenKruise writes the condition before deleting; here the mark reaches the webhook with this
    // plan's ledger resync (applied after the writes) or status push, so the deletion waits a run.
    const subset = subsetOfPod(pod, ws);
    if (subset && !o.markedUnschedulable.includes(subset)) {
      waiting = true;
      continue;
    }
    const podName = pod.metadata?.name ?? '';
    deleted.add(podName);
    const uid = pod.metadata?.uid;
    const write: Write = {
      op: 'delete',
      target: { apiVersion: 'v1', kind: 'Pod', name: podName, namespace: pod.metadata?.namespace ?? '' },
      ...(uid ? { preconditions: { uid } } : {}),
      reason: `${name}: pod unschedulable for longer than rescheduleCriticalSeconds; the workload recreates it in another subset`,
    };
    plan.writes.push(write);
  }
  if (!honoursDeletionCost(ws)) return waiting;
  const costs = deletionCosts(ws, o.pods, o.workloadReplicas, o.latestVersion);
  for (const pod of o.pods) {
    const podName = pod.metadata?.name ?? '';
    const cost = costs.get(podName);
    if (cost === undefined || deleted.has(podName) || pod.metadata?.annotations?.[POD_DELETION_COST_ANNOTATION] === String(cost)) continue;
    plan.writes.push({
      op: 'patch',
      target: { apiVersion: 'v1', kind: 'Pod', name: podName, namespace: pod.metadata?.namespace ?? '' },
      patch: { metadata: { annotations: { [POD_DELETION_COST_ANNOTATION]: String(cost) } } },
      patchType: 'merge',
      reason: `${name}: scale-down order across subsets`,
    });
  }
  return waiting;
}

export function decideWorkloadSpreads(observed: WorkloadSpreadObserved, now: Date): Plan {
  const plan = emptyPlan();
  let wakeAt: number | undefined;
  for (const o of observed.spreads) {
    if (!o.supported) continue;
    // Entries shown once though confirmed go at the next run, a moment later.
    if (decideStatus(o, plan, observed.now)) wakeAt = Math.min(wakeAt ?? Infinity, observed.now + MIN_REQUEUE_MS);
    if (decidePods(o, plan)) wakeAt = Math.min(wakeAt ?? Infinity, observed.now + MIN_REQUEUE_MS);
    if (o.resync) {
      (plan.ledgers ??= []).push({ ...o.resync, op: 'resync', reason: 'bring the edge’s subset accounting in line with the pods observed' });
    }
    for (const at of [o.counts.wakeAt, nextExpiry(o.ledger)]) if (at !== undefined) wakeAt = Math.min(wakeAt ?? Infinity, at);
  }
  if (wakeAt !== undefined) plan.requeueAfterMs = Math.max(MIN_REQUEUE_MS, wakeAt - now.getTime());
  return plan;
}
