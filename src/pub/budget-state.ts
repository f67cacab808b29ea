// What one PUB's ledger holds (ledger.ts): the allowance the controller computed at its last
// resync, the pods disrupted or made unavailable since, the per-pod facts evictions are judged by,
// and the refusals the controller turns into Events. Times are the authority's clock (ms).
import type { PubOperation } from './types.js';

/**
 * A protected pod as the controller last saw it. `available` pods count toward currentAvailable;
 * `unavailable` ones (not ready or not consistent, §4.4 rule 3) may be disrupted without spending;
 * `unprotected` ones carry `pub.kruise.io/no-protect: "true"`.
 */
export type PodFact = 'available' | 'unavailable' | 'unprotected';

/** A refused disruption, aggregated per pod until the controller records it as an Event. */
export type Refusal = { operation: PubOperation; count: number; firstAt: number; lastAt: number; message: string };

export type PubBudgetState = {
  /** The PUB's name (messages) and uid (a recreated PUB starts afresh). */
  pub: string;
  uid: string;
  generation: number;
  desiredAvailable: number;
  totalReplicas: number;
  /** Available pods at the last resync, not counting pending ones. */
  currentAvailable: number;
  /** How many more pods may be disrupted now; spent by `check`, recomputed by `resync`. */
  unavailableAllowed: number;
  protectOperations: PubOperation[];
  /** The PUB's pods by name, as of the last resync (evictions carry no pod: §4.4, EVICT). */
  pods: Record<string, PodFact>;
  /** Pods whose deletion or eviction was allowed, with when (not yet seen gone by the controller). */
  disruptedPods: Record<string, number>;
  /** Pods whose in-place update was allowed, with when. */
  unavailablePods: Record<string, number>;
  /** When the authority applied the last resync; the staleness bound counts from here. */
  resyncedAt: number;
  /** When the controller listed the cluster for that resync (its clock). */
  observedAt: number;
  refusals: Record<string, Refusal>;
};

/** Refusals kept per ledger between resyncs; more are counted into the oldest entries' pods. */
export const MAX_REFUSAL_PODS = 100;

export function pendingCount(s: Pick<PubBudgetState, 'disruptedPods' | 'unavailablePods'>): number {
  return Object.keys(s.disruptedPods).length + Object.keys(s.unavailablePods).length;
}

export function isPending(s: Pick<PubBudgetState, 'disruptedPods' | 'unavailablePods'>, pod: string): boolean {
  return pod in s.disruptedPods || pod in s.unavailablePods;
}

/** Records one refusal (the state is a fresh copy owned by the caller). */
export function withRefusal(s: PubBudgetState, pod: string, operation: PubOperation, message: string, now: number): PubBudgetState {
  const prev = s.refusals[pod];
  if (!prev && Object.keys(s.refusals).length >= MAX_REFUSAL_PODS) return s;
  const refusal: Refusal = prev
    ? { ...prev, operation, count: prev.count + 1, lastAt: now, message }
    : { operation, count: 1, firstAt: now, lastAt: now, message };
  return { ...s, refusals: { ...s.refusals, [pod]: refusal } };
}
