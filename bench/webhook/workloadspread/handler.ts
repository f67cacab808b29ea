// The workloadspread scenario's in-process part (bench/harness/in-process.ts): the placement handler
// called directly, its state pushed into a MemoryStateStore and its ledgers in MemoryLedgers (the
// Node platform's authority). Each round uses a fresh hot WorkloadSpread.
import type { V1Pod } from '@kubernetes/client-node';
import { MemoryLedgers } from '../../../src/edge-state/ledger.js';
import type { ClusterState } from '../../../src/edge-state/contracts.js';
import { workloadSpreadCollections, workloadSpreadLedgerKind } from '../../../src/workloadspread/index.js';
import { makePlacePodHandler } from '../../../src/workloadspread/webhook.js';
import { alternateRounds, echoReview, handlerRatio, parsedInput, pushedStore, summarize, timed, warmUp, type InProcessFigures, type InProcessPaths } from '../../harness/in-process.js';
import { buildSpreadCluster, spreadPodReviews } from './cluster.js';

const ROUNDS = 8;
const WARMUP = 300;
/** Per path and round: at most this many calls, in at most this long. */
const ROUND = { calls: 400, maxMs: 1_500 };

export type SpreadHandlerResult = { echo: InProcessFigures; handler: InProcessFigures; ratio: { p50: number; p99: number } };

const hot = (r: number) => `inproc-r${r}`;

async function pushedState(): Promise<ClusterState> {
  const cluster = buildSpreadCluster([...Array.from({ length: ROUNDS }, (_, r) => hot(r)), 'inproc-warm'], 100_000);
  const store = await pushedStore(cluster.list, workloadSpreadCollections);
  const ledgers = new MemoryLedgers([workloadSpreadLedgerKind]);
  return { collection: (name) => store.collection(name), ledgers };
}

export async function measureSpreadHandler(): Promise<SpreadHandlerResult> {
  const state = await pushedState();
  const handle = makePlacePodHandler();
  /** The paths for one WorkloadSpread's pods. */
  const pathsFor = (name: string): InProcessPaths => {
    const reviews = spreadPodReviews(name, 64).bodies.map((b) => ({ body: b, input: parsedInput<V1Pod>(b) }));
    return {
      echo: (i) => void echoReview(reviews[i % reviews.length]!.body),
      handler: async (i, into) => {
        const verdict = await timed(into, () => handle(reviews[i % reviews.length]!.input, state, { now: Date.now() }));
        if (!verdict.allowed || !verdict.object?.metadata?.annotations?.['apps.kruise.io/matched-workloadspread']?.includes('"zone-a"')) {
          throw new Error(`the handler did not place the pod in zone-a: ${JSON.stringify(verdict).slice(0, 300)}`);
        }
      },
    };
  };
  await warmUp(WARMUP, pathsFor('inproc-warm'));
  const samples = await alternateRounds(ROUNDS, ROUND, (r) => pathsFor(hot(r)));
  const e = summarize(samples.echo);
  const h = summarize(samples.handler);
  process.stderr.write(`bench: handler in-process: p50 ${h.p50Ms.toFixed(3)} ms, p99 ${h.p99Ms.toFixed(3)} ms (echo p50 ${e.p50Ms.toFixed(3)} ms)\n`);
  return { echo: e, handler: h, ratio: handlerRatio(e, h) };
}
