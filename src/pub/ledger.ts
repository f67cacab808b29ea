// The PUB ledger kind: one serialized authority per PodUnavailableBudget (src/edge-state/ledger.ts)
// holds its budget. Operations:
//   check   (webhooks)    PubCheckRequest  → PubCheckResult      spend or refuse (check.ts)
//   resync  (controller)  PubResyncRequest → PubResyncResult     new allowance (resync.ts)
//   read    (controller)  undefined        → PubBudgetState | null
//   seed    (takeover)    PubSeedRequest   → PubSeedResult       merge a recorded status in (seed.ts)
// Ref: { kind: 'pub', namespace: <PUB namespace>, name: <PUB name> }.
import type { LedgerKind, LedgerReducer, LedgerRef } from '../edge-state/ledger.js';
import type { PubBudgetState } from './budget-state.js';
import { checkBudget, type PubCheckRequest, type PubCheckResult } from './check.js';
import { PUB_API_VERSION, PUB_KIND } from './types.js';
import { resyncBudget, type PubResyncRequest } from './resync.js';
import { seedBudget, type PubSeedRequest, type PubSeedResult } from './seed.js';

export const PUB_LEDGER_KIND = 'pub';

export const pubLedgerRef = (namespace: string, name: string): LedgerRef => ({ kind: PUB_LEDGER_KIND, namespace, name });

const check: LedgerReducer<PubBudgetState, PubCheckRequest> = (state, req, now) => checkBudget(state, req, now);
const resync: LedgerReducer<PubBudgetState, PubResyncRequest> = (state, req, now) => resyncBudget(state, req, now);
const seed: LedgerReducer<PubBudgetState, PubSeedRequest, PubSeedResult> = (state, req, now) => seedBudget(state, req, now);
const read: LedgerReducer<PubBudgetState, unknown, PubBudgetState | null> = (state) => ({ result: state ?? null });

export const pubLedgerKind: LedgerKind = {
  kind: PUB_LEDGER_KIND,
  ops: { check, resync, read, seed } as Record<string, LedgerReducer>,
  // A spent allowance is a new disruptedPods/unavailablePods entry and a lower unavailableAllowed.
  mirror: { apiVersion: PUB_API_VERSION, kind: PUB_KIND, changes: (op, result) => op === 'check' && (result as PubCheckResult).allowed && (result as PubCheckResult).why === 'spent' },
};
