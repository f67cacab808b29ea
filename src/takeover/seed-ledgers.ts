// Step 4's I/O: each seed operation sent to the edge's ledgers (the sync API, authenticated by
// the cluster's sync token). An edge that cannot be reached, or refuses an operation, stops the
// takeover here: our webhooks (step 6) would otherwise decide from ledgers that lack OpenKruise's
// drains in flight.
import type { Ledgers } from '../edge-state/ledger.js';
import { TakeoverRefused } from './refused.js';
import { seedOutcome, type LedgerSeed } from './seeds.js';

const RETRY = 'nothing of ours is installed yet (step 6 waits for this); check --edge-url, $KS_SYNC_TOKEN and that the edge answers, then run takeover again';

export async function sendSeeds(ledgers: Ledgers | undefined, seeds: readonly LedgerSeed[], out: (line: string) => void): Promise<void> {
  if (!seeds.length) return;
  if (!ledgers) throw new TakeoverRefused(`step 4: no edge to seed ${seeds.length} ledger(s) at: ${RETRY}`);
  for (const seed of seeds) {
    let result: unknown;
    try {
      result = await ledgers.apply(seed.ref, 'seed', seed.request);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new TakeoverRefused(`step 4: the edge's ledger of ${seed.kind} ${seed.object} could not be seeded (${why}): ${RETRY}`);
    }
    out(seedOutcome(seed, result));
  }
}
