// The pub scenario's in-process part: the eviction check (checkPodDisruptionHandler) called
// directly, its state pushed through the sync API into a MemoryStateStore and its ledgers in
// MemoryLedgers (the Node platform's authority), against the echo's work in-process (JSON.parse of
// the review, JSON.stringify of an allowed answer). Budgets are resynced before each round; rounds
// alternate with the echo's. Process CPU time is kept beside wall time per call.
import { newSecret, sha256Hex } from '../src/admission/auth.js';
import { registryFromJson } from '../src/admission/file-registry.js';
import { MemoryLedgers } from '../src/admission/ledger.js';
import { MemoryStateStore } from '../src/admission/memory-store.js';
import { pushCollections } from '../src/admission/push.js';
import { parseReview } from '../src/admission/review.js';
import type { AdmissionInput, ClusterState } from '../src/admission/types.js';
import { buildApp } from '../src/app.js';
import { pubLedgerKind, pubLedgerRef } from '../src/pub/index.js';
import { pubCollections } from '../src/pub/collections.js';
import { checkPodDisruptionHandler } from '../src/pub/disruption-webhook.js';
import { benchList, evictionReviews, PUB_NAMESPACE, resyncRequests } from './pub-cluster.js';

const CLUSTER = 'bench-handler';
const ROUNDS = 6;
const WARMUP = 300;
/** Per target, path and round: at most this many calls, in at most this long. */
const ROUND = { calls: 500, maxMs: 1_500 };

export type PubHandlerFigures = { calls: number; p50Ms: number; p99Ms: number; cpuP50Ms: number; cpuP99Ms: number };
export type PubHandlerResult = { target: 'hot' | 'spread'; echo: PubHandlerFigures; handler: PubHandlerFigures; ratio: { p50: number; p99: number } };
type Samples = { wallMs: number[]; cpuMs: number[] };

async function pushedState(ledgers: MemoryLedgers): Promise<ClusterState> {
  const syncToken = newSecret();
  const registry = registryFromJson(JSON.stringify([{ clusterId: CLUSTER, webhookSecrets: [], syncTokens: [{ sha256: await sha256Hex(syncToken) }] }]));
  const store = new MemoryStateStore();
  const app = buildApp({ endpoints: [], registry, state: () => store, store: () => store });
  const fetch = async (input: string, init?: RequestInit) => app.request(input, init);
  await pushCollections({ baseUrl: 'http://bench.invalid', clusterId: CLUSTER, syncToken, fetch }, benchList, [...pubCollections]);
  return { collection: (name) => store.collection(name), ledgers };
}

const echo = (body: string) => {
  const review = JSON.parse(body) as { apiVersion?: string; request?: { uid?: string } };
  return JSON.stringify({ apiVersion: review.apiVersion, kind: 'AdmissionReview', response: { uid: review.request?.uid, allowed: true } });
};

function summarize(s: Samples): PubHandlerFigures {
  const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)] ?? NaN;
  return { calls: s.wallMs.length, p50Ms: pct(s.wallMs, 50), p99Ms: pct(s.wallMs, 99), cpuP50Ms: pct(s.cpuMs, 50), cpuP99Ms: pct(s.cpuMs, 99) };
}

async function timed<T>(into: Samples, work: () => T | Promise<T>): Promise<T> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const out = await work();
  into.wallMs.push(performance.now() - t0);
  const cpu = process.cpuUsage(cpu0);
  into.cpuMs.push((cpu.user + cpu.system) / 1000);
  return out;
}

export async function measurePubHandler(target: 'hot' | 'spread'): Promise<PubHandlerResult> {
  const ledgers = new MemoryLedgers([pubLedgerKind]);
  const state = await pushedState(ledgers);
  const resync = async (round: string) => {
    for (const { pub, req } of resyncRequests(round)) await ledgers.apply(pubLedgerRef(PUB_NAMESPACE, pub), 'resync', req);
  };
  const reviews = evictionReviews(target, 1_000).bodies.map((b) => {
    const r = parseReview(b, CLUSTER);
    if (!r.ok) throw new Error(`bench review does not parse: ${r.message}`);
    return { body: b, input: r.input as AdmissionInput };
  });
  const call = async (i: number, into: Samples) => {
    const verdict = await timed(into, () => checkPodDisruptionHandler(reviews[i % reviews.length]!.input, state, { now: Date.now() }));
    if (!verdict.allowed && verdict.code !== 429) throw new Error(`not a budget decision: ${JSON.stringify(verdict).slice(0, 300)}`);
  };
  await resync('warm');
  const discard: Samples = { wallMs: [], cpuMs: [] };
  for (let i = 0; i < WARMUP; i++) {
    echo(reviews[i % reviews.length]!.body);
    await call(i, discard);
  }
  const samples = { echo: { wallMs: [], cpuMs: [] } as Samples, handler: { wallMs: [], cpuMs: [] } as Samples };
  for (let r = 0; r < ROUNDS; r++) {
    await resync(`r${r}`);
    for (const path of r % 2 === 0 ? (['echo', 'handler'] as const) : (['handler', 'echo'] as const)) {
      const deadline = performance.now() + ROUND.maxMs;
      for (let i = 0; i < ROUND.calls && performance.now() < deadline; i++) {
        if (path === 'handler') await call(i, samples.handler);
        else await timed(samples.echo, () => echo(reviews[i % reviews.length]!.body));
      }
    }
  }
  const e = summarize(samples.echo);
  const h = summarize(samples.handler);
  process.stderr.write(`bench: eviction check in-process (${target}): p50 ${h.p50Ms.toFixed(3)} ms, p99 ${h.p99Ms.toFixed(3)} ms (echo p50 ${e.p50Ms.toFixed(3)} ms)\n`);
  return { target, echo: e, handler: h, ratio: { p50: h.p50Ms / e.p50Ms, p99: h.p99Ms / e.p99Ms } };
}
