// Step 4 of a takeover: what the edge's ledgers take over from the status OpenKruise wrote. The
// ledgers seed themselves from it (src/pub/recorded.ts at the first check, src/pub/resync.ts at
// the first resync; src/workloadspread/ledger-resync.ts adopts `subsetStatuses` entries at the
// first resync): this step reads the same status and says what will count, so the user sees the
// drains and creations in flight that the budgets keep counting. Pure.
import type { KubeObject } from '../kube/http.js';

type PubLike = KubeObject & { status?: { unavailableAllowed?: number; disruptedPods?: Record<string, string>; unavailablePods?: Record<string, string> } };
type SubsetStatus = { name?: string; missingReplicas?: number; creatingPods?: Record<string, string>; deletingPods?: Record<string, string> };
type WsLike = KubeObject & { status?: { subsetStatuses?: SubsetStatus[]; versionedSubsetStatuses?: Record<string, SubsetStatus[]> } };

const key = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const count = (m: Record<string, string> | undefined) => Object.keys(m ?? {}).length;

export function seedLines(pubs: readonly KubeObject[], spreads: readonly KubeObject[]): string[] {
  const lines: string[] = [];
  for (const p of pubs as readonly PubLike[]) {
    const s = p.status;
    if (!s) {
      lines.push(`  PodUnavailableBudget ${key(p)}: no status yet; the first resync counts its pods`);
      continue;
    }
    const inFlight = Object.keys({ ...(s.disruptedPods ?? {}), ...(s.unavailablePods ?? {}) });
    lines.push(`  PodUnavailableBudget ${key(p)}: unavailableAllowed ${s.unavailableAllowed ?? 0}${inFlight.length ? `, in flight: ${inFlight.sort().join(', ')} (kept 20 s for a deletion, 10 s for an in-place update, or until the pod is gone)` : ''}`);
  }
  for (const w of spreads as readonly WsLike[]) {
    const subsets = [...(w.status?.subsetStatuses ?? []), ...Object.values(w.status?.versionedSubsetStatuses ?? {}).flat()];
    const creating = subsets.reduce((n, s) => n + count(s.creatingPods), 0);
    const deleting = subsets.reduce((n, s) => n + count(s.deletingPods), 0);
    lines.push(`  WorkloadSpread ${key(w)}: ${subsets.length} subset status(es), ${creating} creation(s) and ${deleting} deletion(s) in flight adopted`);
  }
  return lines;
}
