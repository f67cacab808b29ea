// The per-version subset accounting WorkloadSpread keeps (../shared/SEMANTICS.md §3.3–3.5), as the edge
// ledger holds it and the controller writes it back to status.versionedSubsetStatuses.
//
// Exact accounting: a subset keeps its limit, the active pods the controller last counted, and
// the webhook's entries since; room is derived, never decremented in place:
//   missingReplicas = max(0, limit − replicas − |creatingPods| + |deletingPods|), −1 if unlimited.
// OpenKruise instead adjusts a clamped counter, so a deletion from a subset that is over its limit
// hands out room that is not there; deriving it avoids that overfill.
import type { WorkloadSpreadSubsetCondition } from './types.js';

/** maxReplicas as written in spec: an int, a "N%" string, or null for no limit. */
export type Limit = number | string | null;

export type SubsetAccount = {
  name: string;
  maxReplicas: Limit;
  /** Active pods in the subset when the controller last counted. */
  replicas: number;
  conditions?: WorkloadSpreadSubsetCondition[];
  /** Pod key (name, or the generated uid of an unnamed pod) → when the webhook placed it (ms). */
  creatingPods: Record<string, number>;
  /** Pod name → when the webhook saw its deletion or eviction (ms). */
  deletingPods: Record<string, number>;
};

/** Workload replicas that percentages refer to, with when they were observed (the freshest wins). */
export type ObservedReplicas = { value: number; observedAt: number };

/** OpenKruise's GetScaledValueFromIntOrPercent with rounding up; anything unparseable counts as 0. */
export function scaledLimit(limit: Limit, workloadReplicas: number): number {
  if (limit === null) return -1;
  if (typeof limit === 'number') return limit;
  const m = /^(-?\d+)%$/.exec(limit);
  return m ? Math.ceil((Number(m[1]) * workloadReplicas) / 100) : 0;
}

/** Room left: >0 room, 0 full, −1 unlimited. */
export function missingReplicas(s: SubsetAccount, workloadReplicas: number): number {
  const max = scaledLimit(s.maxReplicas, workloadReplicas);
  if (max < 0) return -1;
  const used = s.replicas + Object.keys(s.creatingPods).length - Object.keys(s.deletingPods).length;
  return Math.max(0, max - used);
}

export function isSchedulable(s: { conditions?: readonly { type?: string; status?: string }[] | null }): boolean {
  return !(s.conditions ?? []).some((c) => c.type === 'Schedulable' && c.status === 'False');
}

/** The subset a pod key is already recorded in (created or deleted), if any. */
export function recordedSubset(subsets: readonly SubsetAccount[], key: string): SubsetAccount | undefined {
  if (!key) return undefined;
  return subsets.find((s) => Object.hasOwn(s.creatingPods, key) || Object.hasOwn(s.deletingPods, key));
}

/** The first subset in status order that is schedulable and has room (§3.3). */
export function firstSubsetWithRoom(subsets: readonly SubsetAccount[], workloadReplicas: number): SubsetAccount | undefined {
  return subsets.find((s) => {
    if (!isSchedulable(s)) return false;
    const missing = missingReplicas(s, workloadReplicas);
    return missing > 0 || missing === -1;
  });
}

/** Subsets as §3.3 initialises them from spec: no pods, no entries. */
export function subsetsFromSpec(subsets: readonly { name: string; maxReplicas?: number | string | null }[]): SubsetAccount[] {
  return subsets.map((s) => ({ name: s.name, maxReplicas: s.maxReplicas ?? null, replicas: 0, creatingPods: {}, deletingPods: {} }));
}
