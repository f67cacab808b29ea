// The controller's resync of a WorkloadSpread ledger (../shared/SEMANTICS.md §3.5): counts come from what the
// controller listed; the webhook's entries survive only while the cluster cannot reflect them yet.
// - creatingPods: dropped once the controller saw the pod (any phase), or after 30 s (OpenKruise
//   CreatPodTimeout: the creation failed after admission, e.g. a later webhook refused it);
// - deletingPods: kept only while the pod is still active and for at most 15 s (DeletePodTimeout).
// Entries granted after the controller's LIST are kept by the same rules, so a resync racing a
// burst of creations never hands their room out twice. The first resync adopts the entries the
// status records (a takeover from OpenKruise mid-rollout loses none).
import type { WorkloadSpreadLedger } from './ledger.js';
import type { ObservedReplicas, SubsetAccount } from './subset-state.js';
import { CREATE_POD_TIMEOUT_MS, DELETE_POD_TIMEOUT_MS } from './types.js';

/** A subset as the controller counted it: no webhook entries. */
export type SubsetBase = Omit<SubsetAccount, 'creatingPods' | 'deletingPods'>;
/** Webhook entries, by subset name. */
export type SubsetEntries = Record<string, { creatingPods: Record<string, number>; deletingPods: Record<string, number> }>;

export type ResyncRequest = {
  uid: string;
  generation?: number;
  workloadReplicas: ObservedReplicas;
  /** Per version key, the subsets in status order counted from the pods the controller listed. */
  versions: Record<string, SubsetBase[]>;
  /** The accounts of a version with no listed pods (from spec). */
  initial: SubsetBase[];
  /** Every listed pod of the workload by name and by generated uid (annotation): true when active. */
  pods: Record<string, boolean>;
  /**
   * Entries from the cluster status (versionedSubsetStatuses' creatingPods/deletingPods), taken
   * over by the first resync of this WorkloadSpread's ledger for the versions it holds nothing of.
   */
  adopt?: Record<string, SubsetEntries>;
};

const keepCreating = (pods: Record<string, boolean>, now: number) => ([key, at]: [string, number]) =>
  !Object.hasOwn(pods, key) && at + CREATE_POD_TIMEOUT_MS >= now;
const keepDeleting = (pods: Record<string, boolean>, now: number) => ([key, at]: [string, number]) =>
  pods[key] === true && at + DELETE_POD_TIMEOUT_MS >= now;

function entriesOf(subsets: readonly SubsetAccount[] | undefined): SubsetEntries {
  return Object.fromEntries((subsets ?? []).map((s) => [s.name, { creatingPods: s.creatingPods, deletingPods: s.deletingPods }]));
}

function rebase(base: readonly SubsetBase[], prior: SubsetEntries, req: ResyncRequest, now: number): SubsetAccount[] {
  return base.map((b) => {
    const old = prior[b.name];
    return {
      ...structuredClone(b),
      creatingPods: Object.fromEntries(Object.entries(old?.creatingPods ?? {}).filter(keepCreating(req.pods, now))),
      deletingPods: Object.fromEntries(Object.entries(old?.deletingPods ?? {}).filter(keepDeleting(req.pods, now))),
    };
  });
}

const hasEntries = (subsets: readonly SubsetAccount[]) =>
  subsets.some((s) => Object.keys(s.creatingPods).length > 0 || Object.keys(s.deletingPods).length > 0);

export function resyncLedger(state: WorkloadSpreadLedger | undefined, req: ResyncRequest, now: number): WorkloadSpreadLedger {
  const mine = state?.uid === req.uid ? state : undefined;
  const held = mine ? Object.fromEntries(Object.entries(mine.versions).map(([v, subsets]) => [v, entriesOf(subsets)])) : {};
  // The first resync takes over the entries the status records (OpenKruise's, on a takeover, or
  // ours before the ledger lost its state). A ledger only the webhooks have written to holds the
  // versions they seeded (from that same status); the others come from status. Once resynced, the
  // ledger's record is the newer one and status is not read back.
  const adopted = !mine || mine.resyncedAt === undefined ? (req.adopt ?? {}) : {};
  const prior: Record<string, SubsetEntries> = { ...adopted, ...held };
  const known = mine?.workloadReplicas;
  const workloadReplicas = known && known.observedAt > req.workloadReplicas.observedAt ? known : req.workloadReplicas;

  const versions: Record<string, SubsetAccount[]> = {};
  for (const [version, base] of Object.entries(req.versions)) versions[version] = rebase(base, prior[version] ?? {}, req, now);
  // A version the controller saw no pods of survives only while it has entries (OpenKruise keeps
  // such versions in status for pods admitted but not yet listed).
  for (const [version, entries] of Object.entries(prior)) {
    if (versions[version]) continue;
    const subsets = rebase(req.initial, entries, req, now);
    if (hasEntries(subsets)) versions[version] = subsets;
  }
  return {
    uid: req.uid,
    workloadReplicas,
    versions,
    resyncedAt: now,
    ...(req.generation === undefined ? {} : { generation: req.generation }),
  };
}

/** When the next entry expires (ms), so the controller can come back then; undefined if none. */
export function nextExpiry(ledger: WorkloadSpreadLedger): number | undefined {
  let next: number | undefined;
  for (const subsets of Object.values(ledger.versions)) {
    for (const s of subsets) {
      for (const at of Object.values(s.creatingPods)) next = Math.min(next ?? Infinity, at + CREATE_POD_TIMEOUT_MS);
      for (const at of Object.values(s.deletingPods)) next = Math.min(next ?? Infinity, at + DELETE_POD_TIMEOUT_MS);
    }
  }
  return next;
}
