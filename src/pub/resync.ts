// The controller's resync of a PUB's ledger (../shared/SEMANTICS.md §4.5): replace the allowance with one
// computed from what the controller observed, keeping the disruptions the observation cannot
// reflect yet. It runs inside the ledger, so checks admitted between the controller's LIST and
// this resync are neither lost nor counted twice. The first resync a ledger gets for a PUB adopts
// the disruptions its status records (a takeover from OpenKruise, or a ledger that lost its
// state), so none is forgotten. Pure.
import type { PodFact, PubBudgetState, Refusal } from './budget-state.js';
import type { PubOperation } from './types.js';
import { pendingToKeep, reportedBefore } from './recorded-pending.js';

/** A disruption the controller has not seen happen after this long never happened (OpenKruise: 20 s). */
export const DISRUPTED_POD_TIMEOUT_MS = 20_000;
/** An in-place update the controller has not seen take effect after this long is forgotten (10 s). */
export const UNAVAILABLE_POD_TIMEOUT_MS = 10_000;

export type PubResyncRequest = {
  pub: string;
  uid: string;
  generation: number;
  desiredAvailable: number;
  totalReplicas: number;
  protectOperations: PubOperation[];
  /** Every pod of the PUB the controller saw (active or not), by name. */
  pods: Record<string, PodFact>;
  /** When the controller listed the pods (its clock, ms). */
  observedAt: number;
  /**
   * The disruptions the PUB's status records (pod → when it was allowed, ms): OpenKruise's, when
   * it managed the PUB before us, or ours from an earlier run. A ledger that holds nothing for
   * this PUB (new edge, restarted Node process, recreated PUB) adopts them, so a takeover in the
   * middle of a drain keeps those pods counting until they are observed gone or expire; a ledger
   * with a record keeps its own entries, which are at least as new.
   */
  recorded?: { disruptedPods?: Record<string, number>; unavailablePods?: Record<string, number> };
  /**
   * The refusals the controller has turned into Events (pod → the `lastAt` it saw). Those are
   * cleared; newer ones stay for the next run. Absent: all are cleared.
   */
  acknowledgedRefusals?: Record<string, number>;
};

export type PubResyncResult = {
  state: PubBudgetState;
  /** Entries dropped because their disruption never showed up (OpenKruise's `NotDeleted`). */
  expired: { disrupted: string[]; unavailable: string[] };
  /** Refusals since the previous resync, for the controller's Events (cleared by this resync). */
  refusals: Record<string, Refusal>;
};

/**
 * Which pending entries stay: a pod the observation shows unavailable or gone is accounted for by
 * the observation itself (it "really went away"); one still shown available is kept until its
 * timeout, since the disruption may simply not have reached the LIST yet.
 */
function keepPending(
  entries: Record<string, number>,
  pods: Record<string, PodFact>,
  now: number,
  timeoutMs: number,
  reported: ReadonlySet<string> = new Set(),
): { kept: Record<string, number>; expired: string[] } {
  const kept: Record<string, number> = {};
  const expired: string[] = [];
  for (const [pod, at] of Object.entries(entries)) {
    if (pods[pod] !== 'available') continue;
    if (now - at > timeoutMs) {
      if (!reported.has(pod)) expired.push(pod);
    }
    else kept[pod] = at;
  }
  return { kept, expired: expired.sort() };
}

function unacknowledged(refusals: Record<string, Refusal>, acknowledged: Record<string, number> | undefined): Record<string, Refusal> {
  if (!acknowledged) return {};
  return Object.fromEntries(Object.entries(refusals).filter(([pod, r]) => !(pod in acknowledged) || r.lastAt > acknowledged[pod]!));
}

export function resyncBudget(state: PubBudgetState | undefined, req: PubResyncRequest, now: number): { result: PubResyncResult; next: PubBudgetState } {
  const prev = state && state.uid === req.uid ? state : undefined;
  // The first resync of this PUB's budget takes over what its status says is in flight.
  const pending = pendingToKeep(prev, req.recorded);
  const disrupted = keepPending(pending.disruptedPods, req.pods, now, DISRUPTED_POD_TIMEOUT_MS, reportedBefore(prev, req.recorded, 'disruptedPods'));
  const unavailable = keepPending(pending.unavailablePods, req.pods, now, UNAVAILABLE_POD_TIMEOUT_MS, reportedBefore(prev, req.recorded, 'unavailablePods'));
  const currentAvailable = Object.entries(req.pods).filter(
    ([pod, fact]) => fact === 'available' && !(pod in disrupted.kept) && !(pod in unavailable.kept),
  ).length;
  const next: PubBudgetState = {
    pub: req.pub,
    uid: req.uid,
    generation: req.generation,
    desiredAvailable: req.desiredAvailable,
    totalReplicas: req.totalReplicas,
    currentAvailable,
    unavailableAllowed: Math.max(0, currentAvailable - req.desiredAvailable),
    protectOperations: [...req.protectOperations],
    pods: { ...req.pods },
    disruptedPods: disrupted.kept,
    unavailablePods: unavailable.kept,
    resyncedAt: now,
    observedAt: req.observedAt,
    refusals: unacknowledged(prev?.refusals ?? {}, req.acknowledgedRefusals),
  };
  return {
    result: { state: next, expired: { disrupted: disrupted.expired, unavailable: unavailable.expired }, refusals: prev?.refusals ?? {} },
    next,
  };
}
