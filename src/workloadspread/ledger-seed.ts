// A takeover's seed of a WorkloadSpread's ledger (docs/takeover.md, step 4): the subset accounts
// its status records (versionedSubsetStatuses, as the webhook seeds a version from: choose.ts
// seedAccounts) are merged into what the edge's ledger holds, never handing out room it does not
// have:
// - a version the ledger does not hold is taken as the status records it (the webhook would seed
//   it from the same status at its first pod);
// - in a version it holds, the creations in flight it lacks are added to their subset (each takes
//   room until the controller sees the pod, or for CreatPodTimeout, 30 s);
// - deletions in flight it lacks are not added: a deletion gives room back, and the ledger keeps
//   counting the pod until the controller sees it gone.
// A ledger that holds nothing for this WorkloadSpread is made from the status. Pure.
import type { LedgerStep } from '../edge-state/ledger.js';
import type { WorkloadSpreadLedger } from './ledger.js';
import type { SubsetAccount } from './subset-state.js';
import { CREATE_POD_TIMEOUT_MS } from './types.js';

export type SeedRequest = {
  /** The WorkloadSpread's uid. */
  uid: string;
  /** Per version key, the subset accounts its status records, in status order. */
  versions: Record<string, SubsetAccount[]>;
};

export type SeedResult = {
  outcome: 'seeded' | 'merged' | 'unchanged';
  /** `version/subset/pod` of every creation the seed added to the ledger. */
  added: string[];
  /** Versions taken whole from status. */
  versionsAdded: string[];
};

/** The subset's creations with the recorded ones it lacks (still in their window) added. */
function withCreations(subset: SubsetAccount, recorded: SubsetAccount | undefined, now: number): { subset: SubsetAccount; added: string[] } {
  const creatingPods = { ...subset.creatingPods };
  const added: string[] = [];
  for (const [pod, at] of Object.entries(recorded?.creatingPods ?? {})) {
    if (Object.hasOwn(creatingPods, pod) || Object.hasOwn(subset.deletingPods, pod)) {
      if (Object.hasOwn(creatingPods, pod)) creatingPods[pod] = Math.max(creatingPods[pod]!, at);
      continue;
    }
    if (at + CREATE_POD_TIMEOUT_MS < now) continue;
    creatingPods[pod] = at;
    added.push(pod);
  }
  return { subset: { ...subset, creatingPods }, added: added.sort() };
}

const isAccount = (s: unknown): s is SubsetAccount => {
  const a = s as Partial<SubsetAccount> | undefined;
  return typeof a?.name === 'string' && typeof a.replicas === 'number' && typeof a.creatingPods === 'object' && a.creatingPods !== null && typeof a.deletingPods === 'object' && a.deletingPods !== null;
};

/** What is wrong with a seed request sent over the sync API, if anything. */
export function invalidSeedRequest(req: unknown): string | undefined {
  const r = req as Partial<SeedRequest> | undefined;
  if (typeof r?.uid !== 'string' || typeof r.versions !== 'object' || r.versions === null) return 'a seed request needs "uid" and "versions"';
  for (const [version, subsets] of Object.entries(r.versions)) {
    if (!Array.isArray(subsets) || !subsets.every(isAccount)) return `a seed request's version "${version}" needs subset accounts {name, replicas, creatingPods, deletingPods}`;
  }
  return undefined;
}

export function seedLedger(state: WorkloadSpreadLedger | undefined, req: SeedRequest, now: number): LedgerStep<WorkloadSpreadLedger, SeedResult> {
  const invalid = invalidSeedRequest(req);
  if (invalid) throw new Error(invalid);
  const mine = state?.uid === req.uid ? state : undefined;
  if (!mine) {
    // Workload replicas unknown (observed at 0): the first webhook request brings fresher ones.
    const next: WorkloadSpreadLedger = { uid: req.uid, workloadReplicas: { value: 0, observedAt: 0 }, versions: structuredClone(req.versions) };
    const added = Object.entries(req.versions).flatMap(([v, subsets]) => subsets.flatMap((s) => Object.keys(s.creatingPods).map((p) => `${v}/${s.name}/${p}`)));
    return { result: { outcome: 'seeded', added: added.sort(), versionsAdded: Object.keys(req.versions).sort() }, next };
  }
  const versions = { ...mine.versions };
  const added: string[] = [];
  const versionsAdded: string[] = [];
  for (const [version, recorded] of Object.entries(req.versions)) {
    const held = versions[version];
    if (!held?.length) {
      if (!recorded.length) continue;
      versions[version] = structuredClone(recorded);
      versionsAdded.push(version);
      continue;
    }
    versions[version] = held.map((s) => {
      const merged = withCreations(s, recorded.find((r) => r.name === s.name), now);
      added.push(...merged.added.map((p) => `${version}/${s.name}/${p}`));
      return merged.subset;
    });
  }
  if (JSON.stringify(versions) === JSON.stringify(mine.versions)) return { result: { outcome: 'unchanged', added, versionsAdded } };
  return { result: { outcome: 'merged', added: added.sort(), versionsAdded: versionsAdded.sort() }, next: { ...mine, versions } };
}
