// A takeover's seed of a PUB's ledger (docs/takeover.md, step 4): the budget the PUB's status
// records is merged into what the edge's ledger holds, never loosening it. The disruptions the
// status records that the ledger does not hold are added (OpenKruise's webhook admitted them while
// it ran next to ours, or before our edge knew the PUB), and the allowance is the lower of the
// two. A ledger that holds nothing for this PUB is seeded from the status, as a check would
// (recorded.ts). Pure.
import { pendingCount, type PubBudgetState } from './budget-state.js';
import { seededBudget, type RecordedBudget } from './recorded.js';
import { DISRUPTED_POD_TIMEOUT_MS, UNAVAILABLE_POD_TIMEOUT_MS } from './resync.js';

export type PubSeedRequest = {
  /** The PUB's name, for the ledger's messages. */
  pub: string;
  recorded: RecordedBudget;
  /**
   * Our own controller wrote this status. It mirrors the ledger as it was, and may miss the last
   * admissions of an edge that lost its ledger since: it is merged into a ledger, never seeds one.
   */
  ownStatus?: boolean;
};

export type PubSeedResult = {
  /** seeded: a new ledger; merged: entries added or the allowance lowered; unchanged; skipped: our own status and no ledger. */
  outcome: 'seeded' | 'merged' | 'unchanged' | 'skipped';
  /** The allowance the ledger holds now (before: `was`, when merged). */
  unavailableAllowed?: number;
  was?: number;
  /** Pods whose disruption the seed added to the ledger. */
  added: string[];
};

type Pending = Record<string, number>;

/**
 * The recorded entries the ledger does not account for yet, with the later time of the two for
 * those it holds. Left out: entries past their window (OpenKruise's controller drops them too),
 * and those the ledger's last observation, made after the disruption, already saw done (the pod
 * unavailable or gone).
 */
function newEntries(held: PubBudgetState, recorded: Pending, mine: Pending, timeoutMs: number, now: number): { merged: Pending; added: string[] } {
  const merged: Pending = { ...mine };
  const added: string[] = [];
  for (const [pod, at] of Object.entries(recorded)) {
    if (Object.hasOwn(mine, pod)) {
      merged[pod] = Math.max(mine[pod]!, at);
      continue;
    }
    if (now - at > timeoutMs) continue;
    if (held.observedAt >= at && held.pods[pod] !== 'available') continue;
    merged[pod] = at;
    added.push(pod);
  }
  return { merged, added: added.sort() };
}

/** Merges the recorded budget into `held` (a ledger for the same PUB incarnation). */
export function mergeRecorded(held: PubBudgetState, recorded: RecordedBudget, now: number): { state: PubBudgetState; added: string[] } {
  const disrupted = newEntries(held, recorded.disruptedPods, held.disruptedPods, DISRUPTED_POD_TIMEOUT_MS, now);
  const unavailable = newEntries(held, recorded.unavailablePods, held.unavailablePods, UNAVAILABLE_POD_TIMEOUT_MS, now);
  const added = [...disrupted.added, ...unavailable.added].sort();
  // Each added disruption of a pod the ledger counts as available spends from its allowance, as if
  // our webhook had admitted it (a pod it has not seen counts as available, as in check.ts).
  const spent = added.filter((pod) => (held.pods[pod] ?? 'available') === 'available').length;
  const state: PubBudgetState = {
    ...held,
    currentAvailable: Math.max(0, held.currentAvailable - spent),
    unavailableAllowed: Math.min(recorded.unavailableAllowed, held.unavailableAllowed - spent),
    disruptedPods: disrupted.merged,
    unavailablePods: unavailable.merged,
  };
  return { state, added };
}

const changed = (a: PubBudgetState, b: PubBudgetState) =>
  a.unavailableAllowed !== b.unavailableAllowed || pendingCount(a) !== pendingCount(b) ||
  JSON.stringify([a.disruptedPods, a.unavailablePods]) !== JSON.stringify([b.disruptedPods, b.unavailablePods]);

const isTimes = (m: unknown): m is Pending => typeof m === 'object' && m !== null && Object.values(m).every((t) => typeof t === 'number');

/** What is wrong with a seed request sent over the sync API, if anything. */
export function invalidSeedRequest(req: unknown): string | undefined {
  const r = req as Partial<PubSeedRequest> | undefined;
  const b = r?.recorded;
  if (typeof r?.pub !== 'string' || !b || typeof b.uid !== 'string' || !Array.isArray(b.protectOperations)) {
    return 'a seed request needs "pub" and "recorded" with the PUB\'s uid and protectOperations';
  }
  const counts = [b.unavailableAllowed, b.desiredAvailable, b.currentAvailable, b.totalReplicas, b.generation];
  if (!counts.every(Number.isInteger) || !isTimes(b.disruptedPods) || !isTimes(b.unavailablePods)) {
    return 'a seed request\'s "recorded" needs integer counts (unavailableAllowed, desiredAvailable, currentAvailable, totalReplicas, generation) and disruptedPods/unavailablePods as pod → time (ms)';
  }
  return undefined;
}

export function seedBudget(held: PubBudgetState | undefined, req: PubSeedRequest, now: number): { result: PubSeedResult; next?: PubBudgetState } {
  const invalid = invalidSeedRequest(req);
  if (invalid) throw new Error(invalid);
  const mine = held && held.uid === req.recorded.uid ? held : undefined;
  if (!mine) {
    if (req.ownStatus) return { result: { outcome: 'skipped', added: [] } };
    const next = seededBudget(req.pub, req.recorded, now);
    const added = [...Object.keys(next.disruptedPods), ...Object.keys(next.unavailablePods)].sort();
    return { result: { outcome: 'seeded', unavailableAllowed: next.unavailableAllowed, added }, next };
  }
  const { state, added } = mergeRecorded(mine, req.recorded, now);
  if (!changed(mine, state)) return { result: { outcome: 'unchanged', unavailableAllowed: mine.unavailableAllowed, added: [] } };
  return { result: { outcome: 'merged', unavailableAllowed: state.unavailableAllowed, was: mine.unavailableAllowed, added }, next: state };
}
