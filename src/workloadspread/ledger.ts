// The WorkloadSpread ledger: one serialized authority per WorkloadSpread (src/edge-state/ledger.ts)
// decides subset placement, so a burst of pod creations never overfills a subset.
//
//   create  (webhook, pod CREATE)  choose a subset per §3.3 and record the pod in creatingPods
//   delete  (webhook, DELETE)      record the pod in deletingPods per §3.4, giving its room back
//                                  (or drop its creation entry if the controller never counted it)
//   resync  (controller)           replace the counts with what the controller observed, keeping
//                                  only entries the cluster does not reflect yet (§3.5 timeouts)
//   read    (controller)           the state, to write back into status.versionedSubsetStatuses
//   seed    (takeover)             merge the accounts a status records in, never adding room
//                                  (ledger-seed.ts)
//
// Reducers are pure: times come from `now` (the authority's clock), generated pod keys from the
// request. Dry-run requests decide without returning a next state.
import type { LedgerKind, LedgerReducer, LedgerStep } from '../edge-state/ledger.js';
import { firstSubsetWithRoom, missingReplicas, recordedSubset, type ObservedReplicas, type SubsetAccount } from './subset-state.js';
import { resyncLedger, type ResyncRequest } from './ledger-resync.js';
import { seedLedger } from './ledger-seed.js';
import { isNewerVersion, takeRecorded, type RecordedAccounts } from './ledger-recorded.js';
import { WS_API_VERSION, WS_KIND } from './types.js';

export const WORKLOADSPREAD_LEDGER = 'workloadspread';

export type WorkloadSpreadLedger = {
  /** The WorkloadSpread's uid: a WorkloadSpread recreated under the same name starts afresh. */
  uid: string;
  workloadReplicas: ObservedReplicas;
  /** Subset accounts per version key, in status order. */
  versions: Record<string, SubsetAccount[]>;
  /** When the controller last resynced (ms, the authority's clock); absent: seeded by webhooks only. */
  resyncedAt?: number;
  /** The WorkloadSpread generation the controller's last resync was computed from. */
  generation?: number;
  /** The resourceVersion of the newest status another writer recorded that this ledger took in. */
  recordedVersion?: string;
};

/** What the webhook knows for a version the ledger has no accounts of. */
type Seed = {
  /** The WorkloadSpread's uid. */
  uid: string;
  version: string;
  /** The version's accounts to start from: the pushed status's, else from spec (§3.3). */
  seed: SubsetAccount[];
  /** The version's accounts when another writer last wrote the status (ledger-recorded.ts). */
  recorded?: RecordedAccounts;
  workloadReplicas: ObservedReplicas;
  dryRun?: boolean;
};

export type CreateRequest = Seed & {
  /** The pod's name; '' while the API server has not generated it. */
  pod: string;
  /** The key to record an unnamed pod under (a fresh UUID chosen by the caller). */
  generatedKey: string;
};
export type CreateResult = {
  /** The chosen subset; absent when no subset has room (the pod is admitted unchanged). */
  subset?: string;
  /** Set when the pod was recorded under `generatedKey` (it goes into the annotation's uid). */
  generatedKey?: string;
  recorded: boolean;
  /** Room left in the chosen subset after this pod (−1 unlimited). */
  missingReplicas?: number;
};

export type DeleteRequest = Seed & {
  pod: string;
  subset: string;
  /** The key the pod's creation was recorded under: the annotation's uid, else its name. */
  key?: string;
};
export type DeleteResult = { recorded: boolean };

export type ReadResult = WorkloadSpreadLedger | null;

/**
 * The ledger for this WorkloadSpread incarnation, with the freshest workload replicas known and,
 * until the controller's first resync, the counts of a newer status another writer recorded.
 */
function current(state: WorkloadSpreadLedger | undefined, req: Seed): WorkloadSpreadLedger {
  const mine = state?.uid === req.uid ? state : undefined;
  const heldReplicas = mine?.workloadReplicas;
  const workloadReplicas = heldReplicas && heldReplicas.observedAt >= req.workloadReplicas.observedAt ? heldReplicas : req.workloadReplicas;
  const ledger: WorkloadSpreadLedger = { ...(mine ?? { uid: req.uid, versions: {} }), workloadReplicas };
  const held = ledger.versions[req.version];
  const recorded = req.recorded;
  if (!held?.length || !recorded || ledger.resyncedAt !== undefined || !isNewerVersion(recorded.resourceVersion, ledger.recordedVersion)) return ledger;
  return { ...withVersion(ledger, req.version, takeRecorded(held, recorded.accounts)), recordedVersion: recorded.resourceVersion };
}

function accountsOf(ledger: WorkloadSpreadLedger, req: Seed): SubsetAccount[] {
  const held = ledger.versions[req.version];
  return structuredClone(held?.length ? held : req.seed);
}

function withVersion(ledger: WorkloadSpreadLedger, version: string, subsets: SubsetAccount[]): WorkloadSpreadLedger {
  return { ...ledger, versions: { ...ledger.versions, [version]: subsets } };
}

export const createPod: LedgerReducer<WorkloadSpreadLedger, CreateRequest, CreateResult> = (state, req, now) => {
  const ledger = current(state, req);
  const subsets = accountsOf(ledger, req);
  const replicas = ledger.workloadReplicas.value;
  // A retried admission of a named pod gets the subset it already holds (§3.3).
  const held = recordedSubset(subsets, req.pod);
  if (held) return { result: { subset: held.name, recorded: false, missingReplicas: missingReplicas(held, replicas) } };

  const chosen = firstSubsetWithRoom(subsets, replicas);
  if (!chosen) return { result: { recorded: false } };
  if (missingReplicas(chosen, replicas) === -1) return { result: { subset: chosen.name, recorded: false, missingReplicas: -1 } };

  const key = req.pod || req.generatedKey;
  chosen.creatingPods[key] = now;
  const result: CreateResult = {
    subset: chosen.name,
    recorded: true,
    missingReplicas: missingReplicas(chosen, replicas),
    ...(req.pod ? {} : { generatedKey: req.generatedKey }),
  };
  return req.dryRun ? { result } : { result, next: withVersion(ledger, req.version, subsets) };
};

export const deletePod: LedgerReducer<WorkloadSpreadLedger, DeleteRequest, DeleteResult> = (state, req, now) => {
  const ledger = current(state, req);
  const subsets = accountsOf(ledger, req);
  // Deleted before the controller counted it: its creation entry is all the room it holds, so the
  // entry goes. (OpenKruise does nothing here, and the room stays taken until the entry expires.)
  const key = req.key || req.pod;
  const created = key ? subsets.find((s) => Object.hasOwn(s.creatingPods, key)) : undefined;
  if (created) {
    delete created.creatingPods[key];
    return req.dryRun ? { result: { recorded: true } } : { result: { recorded: true }, next: withVersion(ledger, req.version, subsets) };
  }
  if (recordedSubset(subsets, req.pod)) return { result: { recorded: false } };
  const subset = subsets.find((s) => s.name === req.subset);
  if (!subset || missingReplicas(subset, ledger.workloadReplicas.value) === -1) return { result: { recorded: false } };
  subset.deletingPods[req.pod] = now;
  const step: LedgerStep<WorkloadSpreadLedger, DeleteResult> = { result: { recorded: true } };
  return req.dryRun ? step : { ...step, next: withVersion(ledger, req.version, subsets) };
};

export const readLedger: LedgerReducer<WorkloadSpreadLedger, unknown, ReadResult> = (state) => ({ result: state ?? null });

export const resync: LedgerReducer<WorkloadSpreadLedger, ResyncRequest, WorkloadSpreadLedger> = (state, req, now) => {
  const next = resyncLedger(state, req, now);
  return { result: next, next };
};

export const workloadSpreadLedgerKind: LedgerKind = {
  kind: WORKLOADSPREAD_LEDGER,
  ops: {
    create: createPod as LedgerReducer,
    delete: deletePod as LedgerReducer,
    resync: resync as LedgerReducer,
    read: readLedger as LedgerReducer,
    seed: seedLedger as LedgerReducer,
  },
  // A recorded creation or deletion is a new creatingPods/deletingPods entry.
  mirror: { apiVersion: WS_API_VERSION, kind: WS_KIND, changes: (op, result) => (op === 'create' || op === 'delete') && (result as { recorded?: boolean }).recorded === true },
};
