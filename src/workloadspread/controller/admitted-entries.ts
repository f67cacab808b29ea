// Every creation and deletion the edge admitted is readable in status for a moment, as
// OpenKruise's webhook writes it there (creatingPods/deletingPods) before its controller
// reconciles: a run that already sees the pod created or gone drops the entry from the ledger,
// and would otherwise do so before anyone could read it. Room (missingReplicas, replicas) stays
// the resynced ledger's. Pure.
import type { WorkloadSpreadLedger } from '../ledger.js';
import type { WorkloadSpreadSubsetStatus } from '../types.js';
import { iso } from './subsets.js';

/** How long after its admission an entry stays readable in status, confirmed or not. */
export const SHOWN_FOR_MS = 2_500;

type Versioned = Record<string, WorkloadSpreadSubsetStatus[]>;
type Times = Record<string, number>;
const MAPS = ['creatingPods', 'deletingPods'] as const;

const msOf = (t: unknown): number => (t instanceof Date ? t.getTime() : typeof t === 'string' ? Date.parse(t) : Number.NaN);
const entries = (m: unknown): [string, unknown][] => (m && typeof m === 'object' ? Object.entries(m) : []);

/** The entries to keep readable in one subset map: never shown yet, or shown and still young. */
function kept(held: Times | undefined, shown: unknown, now: number): Times {
  const already = new Map(entries(shown).map(([pod, t]) => [pod, msOf(t)]));
  const out: Times = {};
  for (const [pod, at] of Object.entries(held ?? {})) if (!already.has(pod) || now - at < SHOWN_FOR_MS) out[pod] = at;
  for (const [pod, at] of already) if (now - at < SHOWN_FOR_MS) out[pod] ??= at;
  return out;
}

/**
 * `versioned` (the resynced ledger as status shows it) with the entries it no longer holds kept
 * readable: those `held` (the ledger before this run's resync) has that `shown` (the status as
 * read) never showed, and those `shown` shows that were admitted less than SHOWN_FOR_MS ago.
 * Answers whether any was kept, so the controller comes back to drop them.
 */
export function withAdmittedEntries(versioned: Versioned, held: WorkloadSpreadLedger | undefined, shown: Versioned | undefined, now: number): { versioned: Versioned; added: boolean } {
  let added = false;
  const out: Versioned = { ...versioned };
  for (const [version, subsets] of Object.entries(out)) {
    out[version] = subsets.map((target) => {
      const before = held?.versions[version]?.find((s) => s.name === target.name);
      const seen = shown?.[version]?.find((s) => s.name === target.name);
      let next = target;
      for (const k of MAPS) {
        const extra = Object.entries(kept(before?.[k], seen?.[k], now)).filter(([pod]) => !Object.hasOwn((target[k] as object | undefined) ?? {}, pod));
        if (!extra.length) continue;
        added = true;
        next = { ...next, [k]: { ...(next[k] as Record<string, unknown> | undefined), ...Object.fromEntries(extra.map(([pod, at]) => [pod, iso(at)])) } } as WorkloadSpreadSubsetStatus;
      }
      return next;
    });
  }
  return { versioned: out, added };
}
