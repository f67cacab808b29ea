// The sidecarset scenario's in-process part (bench/harness/in-process.ts): the pod injection handler
// called directly, with the bench cluster pushed into a MemoryStateStore, per match count.
import type { V1Pod } from '@kubernetes/client-node';
import { encodePatch, jsonPatch } from '../../../src/admission/patch.js';
import { sidecarSetCollections } from '../../../src/sidecarset/collections.js';
import { makeInjectSidecarsHandler } from '../../../src/sidecarset/pod-webhook.js';
import { InjectionPlanCache } from '../../../src/sidecarset/plan.js';
import { alternateRounds, echoReview, handlerRatio, noSamples, parsedInput, pushedStore, summarize, timed, warmUp, type InProcessFigures, type InProcessPaths, type Samples } from '../../harness/in-process.js';
import { injectionProblem, matchedPodReviews, MATCH_COUNTS, type BenchCluster, type MatchCount } from './cluster.js';

const DISTINCT_REVIEWS = 64;
const WARMUP = 300;
const ROUNDS = 8;
/** Per path and round: at most this many calls, in at most this long. */
const ROUND = { calls: 300, maxMs: 1_500 };

export type HandlerFigures = InProcessFigures & { meanMs: number };
/**
 * `encode`: what writing this answer's patch costs any webhook, whatever decided it: JSON.stringify
 * and base64 of the real patch, in-process (the echo paths already parse the review). Measured
 * after the two paths, in as many calls as the handler had.
 */
export type HandlerResult = { matched: MatchCount; echo: HandlerFigures; handler: HandlerFigures; encode: HandlerFigures; ratio: { p50: number; p99: number } };

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

/** The figures with the mean wall time, in the order the BENCH_JSON line has always had them. */
function withMean(s: Samples): HandlerFigures {
  const { calls, p50Ms, p99Ms, cpuP50Ms, cpuP99Ms } = summarize(s);
  const meanMs = s.wallMs.reduce((a, b) => a + b, 0) / s.wallMs.length;
  return { calls, p50Ms, p99Ms, meanMs, cpuP50Ms, cpuP99Ms };
}

export async function measureHandler(cluster: BenchCluster): Promise<HandlerResult[]> {
  const state = await pushedStore(cluster.list, sidecarSetCollections);
  const handle = makeInjectSidecarsHandler({ plans: new InjectionPlanCache() });
  const results: HandlerResult[] = [];
  for (const k of MATCH_COUNTS) {
    const { bodies } = matchedPodReviews(k, DISTINCT_REVIEWS);
    const call = async (i: number, into: Samples) => {
      const input = parsedInput<V1Pod>(bodies[i % bodies.length]!);
      const verdict = await timed(into, () => handle(input, state, { now: Date.now() }));
      if (!verdict.allowed) throw new Error(`${k} matching: the handler denied the pod: ${verdict.message}`);
      return { verdict, input };
    };
    const first = await call(0, noSamples());
    const injected = first.verdict.allowed ? first.verdict.object : undefined;
    const problem = injectionProblem(injected ?? {}, k, cluster);
    if (problem || !injected) throw new Error(`${k} matching: ${problem ?? 'no pod'}`);
    const ops = jsonPatch(first.input.object ?? {}, injected);

    const paths: InProcessPaths = {
      echo: (i) => void echoReview(bodies[i % bodies.length]!),
      handler: async (i, into) => void (await call(i, into)),
    };
    await warmUp(WARMUP, paths);
    const samples = await alternateRounds(ROUNDS, ROUND, () => paths);
    const e = withMean(samples.echo);
    const h = withMean(samples.handler);
    for (let i = 0; i < WARMUP; i++) encodePatch(ops);
    const encoded = noSamples();
    for (let i = 0; i < h.calls; i++) await timed(encoded, () => encodePatch(ops));
    results.push({ matched: k, echo: e, handler: h, encode: withMean(encoded), ratio: handlerRatio(e, h) });
    log(`handler, ${k} matching: p50 ${h.p50Ms.toFixed(3)} ms, p99 ${h.p99Ms.toFixed(3)} ms, CPU p99 ${h.cpuP99Ms.toFixed(3)} ms (echo p50 ${e.p50Ms.toFixed(3)} ms)`);
  }
  return results;
}
