// What the controller counts from the pods it listed (../shared/SEMANTICS.md §3.5): per subset the active
// replicas and room, the Schedulable condition under the Adaptive strategy (with the pods stuck
// unschedulable past rescheduleCriticalSeconds, to delete), and per version the bases the ledger
// is resynced with. Pure.
import type { SubsetBase } from '../ledger-resync.js';
import { scaledLimit } from '../subset-state.js';
import { MAX_SCHEDULED_FAILED_MS, type Pod, type WorkloadSpread, type WorkloadSpreadSubsetCondition, type WorkloadSpreadSubsetStatus } from '../types.js';
import { podVersion } from '../workloads.js';
import { isPodActive, podKey, subsetOfPod, unschedulableDeadline } from './pods.js';

export type SubsetCounts = {
  subsetStatuses: WorkloadSpreadSubsetStatus[];
  /** Per version key: the bases to resync the ledger with. */
  versions: Record<string, SubsetBase[]>;
  /** Bases for a version with no pods. */
  initial: SubsetBase[];
  /** Every listed pod by name and by generated uid: true when active. */
  pods: Record<string, boolean>;
  /** Pods unschedulable past rescheduleCriticalSeconds, to delete so the workload recreates them elsewhere. */
  unschedulablePods: Pod[];
  /** When a pending pod times out or an unschedulable subset recovers (ms), if ever. */
  wakeAt?: number;
};

export const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
const timeOf = (t: unknown) => (t instanceof Date ? t.getTime() : typeof t === 'string' ? Date.parse(t) : Number.NaN);

/** Schedulable with `status`; an unchanged status keeps its transition time. */
function schedulable(status: 'True' | 'False', old: WorkloadSpreadSubsetCondition | undefined, now: number): WorkloadSpreadSubsetCondition {
  if (old?.status === status) return { ...old, type: 'Schedulable', status };
  return { type: 'Schedulable', status, lastTransitionTime: iso(now) as unknown as WorkloadSpreadSubsetCondition['lastTransitionTime'] };
}

export function rescheduleCriticalMs(ws: WorkloadSpread): number {
  const strategy = ws.spec.scheduleStrategy;
  const seconds = strategy?.type === 'Adaptive' ? strategy.adaptive?.rescheduleCriticalSeconds ?? 0 : 0;
  return seconds * 1000;
}

/** `recoverAfterMs`: how long a subset stays unschedulable (OpenKruise MaxScheduledFailedDuration). */
export function countSubsets(ws: WorkloadSpread, pods: readonly Pod[], workloadReplicas: number, now: number, recoverAfterMs = MAX_SCHEDULED_FAILED_MS): SubsetCounts {
  const subsets = ws.spec.subsets ?? [];
  const oldStatuses = new Map((ws.status?.subsetStatuses ?? []).map((s) => [s.name, s]));
  const critical = rescheduleCriticalMs(ws);
  const bySubset = new Map<string, Pod[]>(subsets.map((s) => [s.name, []]));
  for (const pod of pods) {
    const name = subsetOfPod(pod, ws);
    if (name) bySubset.get(name)!.push(pod);
  }
  const unschedulablePods: Pod[] = [];
  let wakeAt: number | undefined;
  const wake = (at: number) => (wakeAt = Math.min(wakeAt ?? Infinity, at));

  const conditions = new Map<string, WorkloadSpreadSubsetCondition[] | undefined>();
  const subsetStatuses = subsets.map((s, i): WorkloadSpreadSubsetStatus => {
    const members = bySubset.get(s.name)!;
    const active = members.filter(isPodActive).length;
    const max = scaledLimit(s.maxReplicas ?? null, workloadReplicas);
    const old = oldStatuses.get(s.name)?.conditions?.find((c) => c.type === 'Schedulable');
    let condition: WorkloadSpreadSubsetCondition | undefined;
    if (critical > 0 && i === subsets.length - 1) condition = schedulable('True', old, now); // the last subset is never given up on
    else if (critical > 0) {
      const stuck = members.filter((p) => {
        const deadline = unschedulableDeadline(p, critical);
        if (deadline !== undefined && deadline >= now) wake(deadline + 1);
        return deadline !== undefined && deadline < now;
      });
      unschedulablePods.push(...stuck);
      if (stuck.length) condition = schedulable('False', old, now);
      else if (old?.status !== 'False') condition = schedulable('True', old, now);
      else {
        // Unschedulable subsets are retried after recoverAfterMs.
        const recoverAt = timeOf(old.lastTransitionTime) + recoverAfterMs;
        if (!(recoverAt >= now)) condition = schedulable('True', old, now);
        else {
          condition = old;
          wake(recoverAt + 1);
        }
      }
    }
    conditions.set(s.name, condition ? [condition] : undefined);
    return {
      name: s.name,
      replicas: active,
      missingReplicas: max < 0 ? -1 : Math.max(0, max - active),
      ...(condition ? { conditions: [condition] } : {}),
    };
  });

  const versions: Record<string, SubsetBase[]> = {};
  const base = (name: string, replicas: number): SubsetBase => {
    const s = subsets.find((x) => x.name === name)!;
    const c = conditions.get(name);
    return { name, maxReplicas: s.maxReplicas ?? null, replicas, ...(c ? { conditions: c } : {}) };
  };
  for (const pod of pods) {
    const version = podVersion(pod);
    versions[version] ??= subsets.map((s) => base(s.name, 0));
    const name = subsetOfPod(pod, ws);
    if (name && isPodActive(pod)) versions[version].find((b) => b.name === name)!.replicas++;
  }
  return {
    subsetStatuses,
    versions,
    initial: subsets.map((s) => base(s.name, 0)),
    // Creations are recorded under the generated uid (unnamed pods), deletions under the name.
    pods: Object.fromEntries(pods.flatMap((p) => [...new Set([podKey(p), p.metadata?.name ?? ''])].filter(Boolean).map((k) => [k, isPodActive(p)]))),
    unschedulablePods,
    ...(wakeAt === undefined ? {} : { wakeAt }),
  };
}
