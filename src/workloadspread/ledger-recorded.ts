// A status another writer records, taken into a ledger our controller has not resynced yet.
//
// Until its first resync, a ledger knows only what it was seeded from (the status or spec at its
// first pod) and the admissions since. A status written after that by someone else (OpenKruise's
// webhook or controller running beside ours, an operator restoring it) is newer knowledge of the
// subsets' counts, and OpenKruise's webhook decides from the status it reads: so the ledger takes
// its counts in. Its own creations stay (each still takes room); its deletions give way to the
// status's (the writer counted without those pods, or will). Once resynced, our controller's
// count is the newer one and status is not read back (ledger-resync.ts). Pure.
import type { SubsetAccount } from './subset-state.js';

/** A version's accounts as another writer's status records them, with the object's resourceVersion. */
export type RecordedAccounts = { resourceVersion: string; accounts: SubsetAccount[] };

/** resourceVersions are etcd revisions in practice; compared as opaque strings otherwise. */
export function isNewerVersion(version: string, than: string | undefined): boolean {
  if (than === undefined) return true;
  const numeric = /^\d+$/;
  return numeric.test(version) && numeric.test(than) ? BigInt(version) > BigInt(than) : version !== than;
}

/** The recorded accounts, with this ledger's creations the status lacks still taking room. */
export function takeRecorded(held: readonly SubsetAccount[], recorded: readonly SubsetAccount[]): SubsetAccount[] {
  const out = recorded.map((r) => {
    const mine = held.find((h) => h.name === r.name);
    const creatingPods = { ...r.creatingPods };
    for (const [pod, at] of Object.entries(mine?.creatingPods ?? {})) {
      if (!Object.hasOwn(r.deletingPods, pod)) creatingPods[pod] = Math.max(creatingPods[pod] ?? at, at);
    }
    return { ...structuredClone(r), creatingPods };
  });
  // A subset the status does not record yet (added to spec since) keeps the ledger's account.
  for (const h of held) if (!recorded.some((r) => r.name === h.name)) out.push(structuredClone(h));
  return out;
}
