// A PUB's budget as its recorded status states it (../shared/SEMANTICS.md §4.4): what OpenKruise's
// webhook decides from. A ledger that has never been resynced for this PUB (the controller has not
// run since the edge saw the PUB: a takeover from OpenKruise, a controller replica that wrote the
// status, a new edge) is seeded from it the first time a check needs it, so the first decision is
// the one OpenKruise would make; unless our own controller wrote it (see writtenByUs). The controller's first resync then replaces the allowance with
// its own count and keeps the seeded disruptions until it sees them happen or they expire. Pure.
import type { PubBudgetState } from './budget-state.js';
import { protectedOperations, type PodUnavailableBudget, type PubOperation } from './types.js';
import { statusWrittenByUs } from '../kube/managed-fields.js';

/** What the handler read from the PUB object (pushed, or written through from a status write). */
export type RecordedBudget = {
  uid: string;
  generation: number;
  protectOperations: PubOperation[];
  unavailableAllowed: number;
  desiredAvailable: number;
  currentAvailable: number;
  totalReplicas: number;
  disruptedPods: Record<string, number>;
  unavailablePods: Record<string, number>;
};

/**
 * Our own controller mirrors the ledger into status after the webhook decides, so a status it
 * wrote may miss the last admissions of an edge that has since lost its ledger: that budget waits
 * for the controller's count instead. Another writer's status (OpenKruise's webhook writes it
 * before admitting) is that writer's exact word.
 */
export const writtenByUs = (pub: PodUnavailableBudget | undefined): boolean => statusWrittenByUs(pub);

const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);

/** Status time maps as the ledger keeps them (ms); unparseable times are dropped. */
function times(m: unknown): Record<string, number> {
  if (!m || typeof m !== 'object') return {};
  const out: Record<string, number> = {};
  for (const [pod, t] of Object.entries(m as Record<string, unknown>)) {
    const ms = t instanceof Date ? t.getTime() : typeof t === 'string' ? Date.parse(t) : Number.NaN;
    if (Number.isFinite(ms)) out[pod] = ms;
  }
  return out;
}

/**
 * The budget the PUB's status records, or undefined when it records none (no status yet: the PUB
 * was just created and no controller has counted its pods). The four counts are required by the
 * CRD schema whenever a status is written, so a status without them is not one.
 */
export function recordedBudget(pub: PodUnavailableBudget | undefined): RecordedBudget | undefined {
  return writtenByUs(pub) ? undefined : recordedStatus(pub);
}

/** The budget the PUB's status records, whoever wrote it (a takeover's seed decides what to do with ours: seed.ts). */
export function recordedStatus(pub: PodUnavailableBudget | undefined): RecordedBudget | undefined {
  const s = pub?.status as Record<string, unknown> | undefined;
  const uid = pub?.metadata?.uid;
  if (!s || !uid) return undefined;
  const [unavailableAllowed, desiredAvailable, currentAvailable, totalReplicas] = [s.unavailableAllowed, s.desiredAvailable, s.currentAvailable, s.totalReplicas].map(int);
  if (unavailableAllowed === undefined || desiredAvailable === undefined || currentAvailable === undefined || totalReplicas === undefined) return undefined;
  return {
    uid,
    generation: int(s.observedGeneration) ?? pub?.metadata?.generation ?? 0,
    protectOperations: protectedOperations(pub?.metadata?.annotations),
    unavailableAllowed,
    desiredAvailable,
    currentAvailable,
    totalReplicas,
    disruptedPods: times(s.disruptedPods),
    unavailablePods: times(s.unavailablePods),
  };
}

/**
 * The ledger state seeded from a recorded status. `resyncedAt` is the seeding time, so a seeded
 * budget goes stale like a resynced one when no controller ever confirms it. No pod facts: an
 * eviction's pod counts as available (spending for it can only make the budget stricter).
 */
export function seededBudget(pub: string, r: RecordedBudget, now: number): PubBudgetState {
  return {
    pub,
    uid: r.uid,
    generation: r.generation,
    desiredAvailable: r.desiredAvailable,
    totalReplicas: r.totalReplicas,
    currentAvailable: r.currentAvailable,
    unavailableAllowed: r.unavailableAllowed,
    protectOperations: [...r.protectOperations],
    pods: {},
    disruptedPods: { ...r.disruptedPods },
    unavailablePods: { ...r.unavailablePods },
    resyncedAt: now,
    observedAt: now,
    refusals: {},
  };
}
