// The budget check (../shared/SEMANTICS.md §4.4 rules 5–9), run inside the PUB's ledger so that concurrent
// disruptions are decided one after the other against the same count: no read-modify-write race
// and none of OpenKruise's conflict retries. Rules 1–4 (annotation, no-protect, readiness, the PUB
// exists) are the handler's, from the admitted pod; an eviction carries no pod, so the ledger's
// own pod facts stand in for it (a pod the ledger has not seen yet counts as available: spending
// for it can only make the budget stricter). A ledger never resynced for this PUB is seeded from
// the status the PUB records (recorded.ts), as OpenKruise decides from it. Pure.
import { isPending, pendingCount, withRefusal, type PubBudgetState } from './budget-state.js';
import { seededBudget, type RecordedBudget } from './recorded.js';
import { exhaustedMessage, MAX_PENDING_PODS, mapTooBigMessage, type PubOperation } from './types.js';

/** How long after its last resync a budget is still trusted; older ⇒ every check is refused. */
export const PUB_STALE_AFTER_MS = 3 * 60_000;

export type PubCheckRequest = {
  /** The PUB's name (the ledger's), for messages when the ledger holds nothing yet. */
  pub: string;
  pod: string;
  operation: PubOperation;
  /** Decide without spending or recording (the request's dryRun). */
  dryRun: boolean;
  /** Judge rules 1–3 by the ledger's pod facts (evictions) instead of trusting the caller. */
  podFromLedger?: boolean;
  /** The PUB's uid as the caller knows it: a ledger held for another incarnation is not its budget. */
  uid?: string;
  /** The budget the PUB's status records, to seed a ledger that holds none for this PUB. */
  recorded?: RecordedBudget;
};

export type PubAllowReason =
  | 'pod-unprotected'
  | 'pod-unavailable'
  | 'nothing-desired'
  | 'operation-unprotected'
  | 'already-pending'
  | 'spent';

export type PubDenyReason = 'exhausted' | 'too-many-pending' | 'unknown-budget' | 'stale-budget';

export type PubCheckResult =
  | { allowed: true; why: PubAllowReason; unavailableAllowed?: number }
  | { allowed: false; why: PubDenyReason; message: string };

export function unknownBudgetMessage(pub: string): string {
  return `podunavailablebudget "${pub}": its budget is not known yet (the PodUnavailableBudget controller has not synced it); retry shortly`;
}

export function staleBudgetMessage(pub: string, ageMs: number): string {
  return `podunavailablebudget "${pub}": its budget was last synced ${Math.round(ageMs / 1000)}s ago (limit ${PUB_STALE_AFTER_MS / 1000}s); the PodUnavailableBudget controller is not running or cannot reach the cluster; retry shortly`;
}

type Step = { result: PubCheckResult; next?: PubBudgetState };

const allowedStep = (why: PubAllowReason, unavailableAllowed?: number): Step => ({
  result: { allowed: true, why, ...(unavailableAllowed === undefined ? {} : { unavailableAllowed }) },
});

/** The budget this check decides on: the ledger's for this PUB, else one seeded from its recorded status. */
function budgetFor(held: PubBudgetState | undefined, req: PubCheckRequest, now: number): { state?: PubBudgetState; seeded: boolean } {
  const uid = req.uid ?? req.recorded?.uid;
  if (held && (uid === undefined || held.uid === uid)) return { state: held, seeded: false };
  return req.recorded ? { state: seededBudget(req.pub, req.recorded, now), seeded: true } : { seeded: false };
}

export function checkBudget(held: PubBudgetState | undefined, req: PubCheckRequest, now: number): Step {
  const { state, seeded } = budgetFor(held, req, now);
  if (!state) return { result: { allowed: false, why: 'unknown-budget', message: unknownBudgetMessage(req.pub) } };
  // A seeded budget is kept (not on a dry run), so the checks after this one spend from it.
  const allowed = (why: PubAllowReason, unavailableAllowed?: number): Step => ({
    ...allowedStep(why, unavailableAllowed),
    ...(seeded && !req.dryRun ? { next: state } : {}),
  });
  const age = now - state.resyncedAt;
  if (age > PUB_STALE_AFTER_MS) return { result: { allowed: false, why: 'stale-budget', message: staleBudgetMessage(state.pub, age) } };

  if (req.podFromLedger) {
    const fact = state.pods[req.pod];
    if (fact === 'unprotected') return allowed('pod-unprotected');
    if (fact === 'unavailable') return allowed('pod-unavailable');
  }
  if (state.desiredAvailable === 0) return allowed('nothing-desired');
  if (!state.protectOperations.includes(req.operation)) return allowed('operation-unprotected');
  if (isPending(state, req.pod)) return allowed('already-pending');

  const refuse = (why: 'exhausted' | 'too-many-pending', message: string): Step => ({
    result: { allowed: false, why, message },
    ...(req.dryRun ? {} : { next: withRefusal(state, req.pod, req.operation, message, now) }),
  });
  if (state.unavailableAllowed <= 0) return refuse('exhausted', exhaustedMessage(state.pub));
  if (pendingCount(state) > MAX_PENDING_PODS) return refuse('too-many-pending', mapTooBigMessage(state.pub));

  const left = state.unavailableAllowed - 1;
  if (req.dryRun) return allowedStep('spent', left);
  const next: PubBudgetState =
    req.operation === 'UPDATE'
      ? { ...state, unavailableAllowed: left, unavailablePods: { ...state.unavailablePods, [req.pod]: now } }
      : { ...state, unavailableAllowed: left, disruptedPods: { ...state.disruptedPods, [req.pod]: now } };
  return { ...allowedStep('spent', left), next };
}
