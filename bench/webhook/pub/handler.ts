// The pub scenario's in-process part (bench/harness/in-process.ts): the eviction check
// (checkPodDisruptionHandler) called directly, its state pushed into a MemoryStateStore and its
// ledgers in MemoryLedgers (the Node platform's authority). Budgets are resynced before each round.
import { MemoryLedgers } from '../../../src/edge-state/ledger.js';
import type { ClusterState } from '../../../src/edge-state/contracts.js';
import { pubLedgerKind, pubLedgerRef } from '../../../src/pub/index.js';
import { pubCollections } from '../../../src/pub/collections.js';
import { checkPodDisruptionHandler } from '../../../src/pub/disruption-webhook.js';
import { alternateRounds, echoReview, handlerRatio, parsedInput, pushedStore, summarize, timed, warmUp, type InProcessFigures, type InProcessPaths } from '../../harness/in-process.js';
import { benchList, evictionReviews, PUB_NAMESPACE, resyncRequests } from './cluster.js';

const ROUNDS = 6;
const WARMUP = 300;
/** Per target, path and round: at most this many calls, in at most this long. */
const ROUND = { calls: 500, maxMs: 1_500 };

export type PubHandlerResult = { target: 'hot' | 'spread'; echo: InProcessFigures; handler: InProcessFigures; ratio: { p50: number; p99: number } };

export async function measurePubHandler(target: 'hot' | 'spread'): Promise<PubHandlerResult> {
  const ledgers = new MemoryLedgers([pubLedgerKind]);
  const store = await pushedStore(benchList, pubCollections);
  const state: ClusterState = { collection: (name) => store.collection(name), ledgers };
  const resync = async (round: string) => {
    for (const { pub, req } of resyncRequests(round)) await ledgers.apply(pubLedgerRef(PUB_NAMESPACE, pub), 'resync', req);
  };
  const reviews = evictionReviews(target, 1_000).bodies.map((b) => ({ body: b, input: parsedInput(b) }));
  const paths: InProcessPaths = {
    echo: (i) => void echoReview(reviews[i % reviews.length]!.body),
    handler: async (i, into) => {
      const verdict = await timed(into, () => checkPodDisruptionHandler(reviews[i % reviews.length]!.input, state, { now: Date.now() }));
      if (!verdict.allowed && verdict.code !== 429) throw new Error(`not a budget decision: ${JSON.stringify(verdict).slice(0, 300)}`);
    },
  };
  await resync('warm');
  await warmUp(WARMUP, paths);
  const samples = await alternateRounds(ROUNDS, ROUND, async (r) => {
    await resync(`r${r}`);
    return paths;
  });
  const e = summarize(samples.echo);
  const h = summarize(samples.handler);
  process.stderr.write(`bench: eviction check in-process (${target}): p50 ${h.p50Ms.toFixed(3)} ms, p99 ${h.p99Ms.toFixed(3)} ms (echo p50 ${e.p50Ms.toFixed(3)} ms)\n`);
  return { target, echo: e, handler: h, ratio: handlerRatio(e, h) };
}
