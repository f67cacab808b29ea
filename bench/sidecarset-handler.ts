// The sidecarset scenario's in-process part: the pod injection handler called directly, with the
// bench cluster pushed through the sync API into a MemoryStateStore, against the echo's work done
// in-process (JSON.parse of the review, JSON.stringify of an allowed answer). Rounds alternate so
// machine noise and GC hit both paths. Each call's process CPU time is kept beside its wall time:
// on a shared machine a sub-millisecond call is often preempted for several, which inflates wall
// p99 without saying anything about the code.
import type { V1Pod } from '@kubernetes/client-node';
import { newSecret, sha256Hex } from '../src/admission/auth.js';
import { registryFromJson } from '../src/admission/file-registry.js';
import { MemoryStateStore } from '../src/admission/memory-store.js';
import { pushCollections } from '../src/admission/push.js';
import { parseReview } from '../src/admission/review.js';
import type { AdmissionInput, ClusterState } from '../src/admission/types.js';
import { buildApp } from '../src/app.js';
import { sidecarSetCollections } from '../src/sidecarset/collections.js';
import { makeInjectSidecarsHandler } from '../src/sidecarset/pod-webhook.js';
import { InjectionPlanCache } from '../src/sidecarset/plan.js';
import { injectionProblem, matchedPodReviews, MATCH_COUNTS, type BenchCluster, type MatchCount } from './sidecarset-cluster.js';

const CLUSTER = 'bench-handler';
const DISTINCT_REVIEWS = 64;
const WARMUP = 300;
const ROUNDS = 8;
/** Per path and round: at most this many calls, in at most this long. */
const ROUND = { calls: 300, maxMs: 1_500 };

export type HandlerFigures = { calls: number; p50Ms: number; p99Ms: number; meanMs: number; cpuP50Ms: number; cpuP99Ms: number };
type Samples = { wallMs: number[]; cpuMs: number[] };
export type HandlerResult = { matched: MatchCount; echo: HandlerFigures; handler: HandlerFigures; ratio: { p50: number; p99: number } };

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

/** The bench cluster pushed as a reconciler would, through the sync API, into a MemoryStateStore. */
async function pushedState(cluster: BenchCluster): Promise<ClusterState> {
  const syncToken = newSecret();
  const registry = registryFromJson(JSON.stringify([{ clusterId: CLUSTER, webhookSecrets: [], syncTokens: [{ sha256: await sha256Hex(syncToken) }] }]));
  const store = new MemoryStateStore();
  const app = buildApp({ endpoints: [], registry, state: () => store, store: () => store });
  const fetch = async (input: string, init?: RequestInit) => app.request(input, init);
  await pushCollections({ baseUrl: 'http://bench.invalid', clusterId: CLUSTER, syncToken, fetch }, cluster.list, [...sidecarSetCollections]);
  return store;
}

function parsed(body: string): AdmissionInput<V1Pod> {
  const r = parseReview(body, CLUSTER);
  if (!r.ok) throw new Error(`bench review does not parse: ${r.message}`);
  return r.input as AdmissionInput<V1Pod>; // the handler checks the object is a record
}

function echo(body: string): string {
  const review = JSON.parse(body) as { apiVersion?: string; request?: { uid?: string } };
  return JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request?.uid, allowed: true } });
}

function percentiles(samples: number[]): (p: number) => number {
  const sorted = [...samples].sort((a, b) => a - b);
  return (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

function summarize(s: Samples): HandlerFigures {
  const wall = percentiles(s.wallMs);
  const cpu = percentiles(s.cpuMs);
  const meanMs = s.wallMs.reduce((a, b) => a + b, 0) / s.wallMs.length;
  return { calls: s.wallMs.length, p50Ms: wall(50), p99Ms: wall(99), meanMs, cpuP50Ms: cpu(50), cpuP99Ms: cpu(99) };
}

/** Runs `work`, recording its wall time and the process CPU time it took. */
async function timed<T>(into: Samples, work: () => T | Promise<T>): Promise<T> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await work();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  into.wallMs.push(ms);
  into.cpuMs.push((cpu.user + cpu.system) / 1000);
  return out;
}

export async function measureHandler(cluster: BenchCluster): Promise<HandlerResult[]> {
  const state = await pushedState(cluster);
  const handle = makeInjectSidecarsHandler({ plans: new InjectionPlanCache() });
  const results: HandlerResult[] = [];
  for (const k of MATCH_COUNTS) {
    const { bodies } = matchedPodReviews(k, DISTINCT_REVIEWS);
    const samples: { echo: Samples; handler: Samples } = { echo: { wallMs: [], cpuMs: [] }, handler: { wallMs: [], cpuMs: [] } };
    const call = async (i: number, into: Samples) => {
      const input = parsed(bodies[i % bodies.length]!);
      const verdict = await timed(into, () => handle(input, state, { now: Date.now() }));
      if (!verdict.allowed) throw new Error(`${k} matching: the handler denied the pod: ${verdict.message}`);
      return { verdict, input };
    };
    const discard: Samples = { wallMs: [], cpuMs: [] };
    const first = await call(0, discard);
    const problem = injectionProblem(first.verdict.allowed ? (first.verdict.object ?? first.input.object ?? {}) : {}, k, cluster);
    if (problem) throw new Error(`${k} matching: ${problem}`);

    for (let i = 0; i < WARMUP; i++) {
      echo(bodies[i % bodies.length]!);
      await call(i, discard);
    }
    for (let r = 0; r < ROUNDS; r++) {
      for (const path of r % 2 === 0 ? (['echo', 'handler'] as const) : (['handler', 'echo'] as const)) {
        const deadline = performance.now() + ROUND.maxMs;
        for (let i = 0; i < ROUND.calls && performance.now() < deadline; i++) {
          if (path === 'handler') await call(i, samples.handler);
          else await timed(samples.echo, () => echo(bodies[i % bodies.length]!));
        }
      }
    }
    const e = summarize(samples.echo);
    const h = summarize(samples.handler);
    results.push({ matched: k, echo: e, handler: h, ratio: { p50: h.p50Ms / e.p50Ms, p99: h.p99Ms / e.p99Ms } });
    log(`handler, ${k} matching: p50 ${h.p50Ms.toFixed(3)} ms, p99 ${h.p99Ms.toFixed(3)} ms, CPU p99 ${h.cpuP99Ms.toFixed(3)} ms (echo p50 ${e.p50Ms.toFixed(3)} ms)`);
  }
  return results;
}
