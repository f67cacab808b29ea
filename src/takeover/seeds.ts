// Step 4 of a takeover: the edge's ledgers take over what OpenKruise recorded in status. For each
// PodUnavailableBudget and WorkloadSpread with a status, one `seed` operation on its ledger
// (src/pub/seed.ts, src/workloadspread/ledger-seed.ts), which merges the recorded budget into
// what the edge holds without loosening it; and the lines that tell the user what is seeded and
// what came of it. Pure: run.ts sends the operations (seed-ledgers.ts).
import type { LedgerRef } from '../edge-state/ledger.js';
import type { KubeObject } from '../kube/http.js';
import { pubsCollection } from '../pub/collections.js';
import { pubLedgerRef } from '../pub/ledger.js';
import { recordedStatus, writtenByUs } from '../pub/recorded.js';
import type { PubSeedRequest, PubSeedResult } from '../pub/seed.js';
import type { PodUnavailableBudget } from '../pub/types.js';
import { seedAccounts } from '../workloadspread/choose.js';
import { WORKLOADSPREAD_LEDGER } from '../workloadspread/ledger.js';
import type { SeedRequest, SeedResult } from '../workloadspread/ledger-seed.js';
import type { WorkloadSpread } from '../workloadspread/types.js';

export type LedgerSeed =
  | { kind: 'PodUnavailableBudget'; object: string; ref: LedgerRef; request: PubSeedRequest }
  | { kind: 'WorkloadSpread'; object: string; ref: LedgerRef; request: SeedRequest };

export type SeedPlan = { seeds: LedgerSeed[]; lines: string[] };

const key = (o: KubeObject) => `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
const count = (m: Record<string, number>) => Object.keys(m).length;
const WINDOWS = '(kept 20 s for a deletion, 10 s for an in-place update, or until the pod is gone)';

function pubSeed(obj: KubeObject, lines: string[]): LedgerSeed | undefined {
  // The projection the edge keeps, which notes who last wrote the status (managedFields).
  const pub = (pubsCollection.project?.(obj as Record<string, unknown>) ?? obj) as PodUnavailableBudget;
  const recorded = recordedStatus(pub);
  const object = key(obj);
  if (!recorded) {
    lines.push(`  PodUnavailableBudget ${object}: no status yet; the first resync counts its pods`);
    return undefined;
  }
  const inFlight = Object.keys({ ...recorded.disruptedPods, ...recorded.unavailablePods }).sort();
  const ownStatus = writtenByUs(pub);
  lines.push(`  PodUnavailableBudget ${object}: unavailableAllowed ${recorded.unavailableAllowed}${inFlight.length ? `, in flight: ${inFlight.join(', ')} ${WINDOWS}` : ''}${ownStatus ? ' (status written by kruise-serverless)' : ''}`);
  const request: PubSeedRequest = { pub: obj.metadata?.name ?? '', recorded, ...(ownStatus ? { ownStatus } : {}) };
  return { kind: 'PodUnavailableBudget', object, ref: pubLedgerRef(obj.metadata?.namespace ?? '', obj.metadata?.name ?? ''), request };
}

function spreadSeed(obj: KubeObject, lines: string[]): LedgerSeed | undefined {
  const ws = obj as unknown as WorkloadSpread;
  const object = key(obj);
  const versions = Object.fromEntries(Object.keys(ws.status?.versionedSubsetStatuses ?? {}).map((v) => [v, ws.spec ? seedAccounts(ws, v) : []]));
  const subsets = Object.values(versions).flat();
  if (!subsets.length || !ws.metadata?.uid) {
    lines.push(`  WorkloadSpread ${object}: no subset status recorded; the webhook starts from spec`);
    return undefined;
  }
  const creating = subsets.reduce((n, s) => n + count(s.creatingPods), 0);
  const deleting = subsets.reduce((n, s) => n + count(s.deletingPods), 0);
  lines.push(`  WorkloadSpread ${object}: ${Object.keys(versions).length} version(s), ${creating} creation(s) and ${deleting} deletion(s) in flight`);
  const ref: LedgerRef = { kind: WORKLOADSPREAD_LEDGER, namespace: obj.metadata?.namespace ?? '', name: obj.metadata?.name ?? '' };
  return { kind: 'WorkloadSpread', object, ref, request: { uid: ws.metadata.uid, versions } };
}

/** The seed operations for the PUBs and WorkloadSpreads listed (with managedFields), and what they carry. */
export function seedPlan(pubs: readonly KubeObject[], spreads: readonly KubeObject[]): SeedPlan {
  const lines: string[] = [];
  const seeds: LedgerSeed[] = [];
  for (const p of pubs) {
    const s = pubSeed(p, lines);
    if (s) seeds.push(s);
  }
  for (const w of spreads) {
    const s = spreadSeed(w, lines);
    if (s) seeds.push(s);
  }
  return { seeds, lines };
}

/** What one seed operation did at the edge, for the user. */
export function seedOutcome(seed: LedgerSeed, result: unknown): string {
  const head = `  ${seed.kind} ${seed.object}:`;
  if (seed.kind === 'PodUnavailableBudget') {
    const r = result as PubSeedResult;
    if (r.outcome === 'seeded') return `${head} seeded at the edge (unavailableAllowed ${r.unavailableAllowed}${r.added.length ? `, in flight: ${r.added.join(', ')}` : ''})`;
    if (r.outcome === 'merged') return `${head} merged into the edge's ledger (unavailableAllowed ${r.was} → ${r.unavailableAllowed}${r.added.length ? `, added in flight: ${r.added.join(', ')}` : ''})`;
    if (r.outcome === 'skipped') return `${head} not seeded: the edge holds no ledger for it, and kruise-serverless wrote this status; it refuses until the controller's first resync`;
    return `${head} the edge's ledger already holds it (unavailableAllowed ${r.unavailableAllowed})`;
  }
  const r = result as SeedResult;
  const what = [r.versionsAdded.length ? `version(s) ${r.versionsAdded.join(', ')} taken from status` : '', r.added.length ? `creation(s) added: ${r.added.join(', ')}` : ''].filter(Boolean).join('; ');
  if (r.outcome === 'seeded') return `${head} seeded at the edge${what ? ` (${what})` : ''}`;
  if (r.outcome === 'merged') return `${head} merged into the edge's ledger (${what || 'later times kept'})`;
  return `${head} the edge's ledger already holds it`;
}
