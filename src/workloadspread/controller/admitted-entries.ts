// Every creation and deletion the edge admitted shows in status at least once, as OpenKruise's
// webhook writes it there (creatingPods/deletingPods) before its controller reconciles: a run that
// already sees the pod created or gone drops the entry from the ledger, and would otherwise do so
// before anyone could read it. The entry appears in this run's status and goes at the next run.
// Room (missingReplicas, replicas) stays the resynced ledger's. Pure.
import type { WorkloadSpreadLedger } from '../ledger.js';
import type { WorkloadSpreadSubsetStatus } from '../types.js';
import { iso } from './subsets.js';

type Versioned = Record<string, WorkloadSpreadSubsetStatus[]>;
const MAPS = ['creatingPods', 'deletingPods'] as const;

const keysOf = (m: unknown): Set<string> => new Set(m && typeof m === 'object' ? Object.keys(m) : []);

/**
 * `versioned` (the resynced ledger as status shows it) with the entries `held` (the ledger before
 * this run's resync) has that `shown` (the status as read) has not shown yet. Answers whether any
 * was added.
 */
export function withAdmittedEntries(versioned: Versioned, held: WorkloadSpreadLedger | undefined, shown: Versioned | undefined): { versioned: Versioned; added: boolean } {
  let added = false;
  const out: Versioned = { ...versioned };
  for (const [version, subsets] of Object.entries(held?.versions ?? {})) {
    for (const subset of subsets) {
      const seen = shown?.[version]?.find((s) => s.name === subset.name);
      for (const k of MAPS) {
        const target = out[version]?.find((s) => s.name === subset.name);
        if (!target) continue;
        const already = new Set([...keysOf(seen?.[k]), ...keysOf(target[k])]);
        const unshown = Object.entries(subset[k]).filter(([pod]) => !already.has(pod));
        if (!unshown.length) continue;
        added = true;
        const merged = { ...(target[k] as Record<string, unknown> | undefined), ...Object.fromEntries(unshown.map(([pod, at]) => [pod, iso(at)])) };
        out[version] = out[version]!.map((s) => (s.name === subset.name ? ({ ...s, [k]: merged } as WorkloadSpreadSubsetStatus) : s));
      }
    }
  }
  return { versioned: out, added };
}
