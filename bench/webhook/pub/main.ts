// Scenario "pub": what a PodUnavailableBudget decision costs an eviction. Every eviction of a
// protected pod is decided by its PUB's ledger (one Durable Object per PUB, one operation at a
// time, stored before it answers); a refusal is stored too (the controller turns it into an
// Event). Two targets: one hot PUB (every eviction on the same ledger, as a drain of one workload)
// and 100 PUBs (evictions spread over 100 ledgers). Each budget lets 5 pods go per round and
// refuses the rest. Two views against an echo baseline measured in the same run in alternating
// rounds: the check in-process (MemoryLedgers), and admissions over HTTPS on the production Worker
// under Miniflare, 8 and 32 in flight. Then a storm: 200 evictions at once on the hot PUB.
import { applyLedger } from '../../../src/edge-state/ledger-client.js';
import { pushCollections, type EdgeTarget } from '../../../src/edge-state/push.js';
import { pubLedgerRef } from '../../../src/pub/index.js';
import { FEATURES, stateCollections } from '../../../src/registry.js';
import { overHttps, startMiniflarePair, withServingCert, type Exchange, type Tls } from '../../harness/https-target.js';
import { drive, driveAlternating, type Bounds, type Send } from '../../harness/load.js';
import { ALLOWANCE, benchList, HOT_PODS, evictionReviews, isDecision, PUB_NAMESPACE, resyncRequests, type Reviews } from './cluster.js';
import { measurePubHandler, type PubHandlerResult } from './handler.js';
import { fixed, ratios, tableRow, times, type PlatformResult } from '../../harness/report.js';
import type { Scenario } from '../main.js';

const CONCURRENCY = [8, 32] as const;
const TARGETS = ['hot', 'spread'] as const;
const ROUNDS = 4;
/** Per target, concurrency, path and round: at most this many admissions, in at most this long. */
const ROUND = { requests: 400, maxMs: 2_500 };
const WARMUP = { requests: 200, maxMs: 2_500 };
const STORM = 200;
const CLUSTER_ID = 'bench-pub';

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

type Target = (typeof TARGETS)[number];
type Edge = { echo: Exchange; real: Exchange; echoPids: number[]; realPids: number[]; target: EdgeTarget; close(): Promise<void> };
export type PubResult = PlatformResult & { target: Target; concurrency: number; allowed: number };

async function startEdge(tls: Tls): Promise<Edge> {
  // Every collection the production features read, as the reconcilers push them (the others empty).
  const prepare = (edge: EdgeTarget) => pushCollections(edge, benchList, stateCollections(FEATURES));
  const pair = await startMiniflarePair({ tls, connections: STORM, clusterId: CLUSTER_ID, prepare });
  const path = `/clusters/${CLUSTER_ID}/${pair.webhookSecret}/validate-pod`;
  const { agent, echoPids, realPids, edge: target, close } = pair;
  return { echo: overHttps(agent, pair.echoUrl + path), real: overHttps(agent, pair.realUrl + path), echoPids, realPids, target, close };
}

/** Every budget afresh, as the controller's resync leaves it: ALLOWANCE pods may go. */
async function resyncAll(edge: Edge, round: string): Promise<void> {
  await Promise.all(resyncRequests(round).map(({ pub, req }) => applyLedger(edge.target, pubLedgerRef(PUB_NAMESPACE, pub), 'resync', req)));
}

function sender(exchange: Exchange, reviews: Reviews, real: boolean, allowed: { n: number }): Send {
  const n = reviews.bodies.length;
  return async (i) => {
    const { status, text } = await exchange(reviews.bodies[i % n]!);
    if (status !== 200 || !text.includes(reviews.uids[i % n]!)) throw new Error(`HTTP ${status}: ${text.slice(0, 200)}`);
    if (!real) return text.includes('"allowed":true');
    if (!isDecision(text)) throw new Error(`not a budget decision: ${text.slice(0, 300)}`);
    if (text.includes('"allowed":true')) allowed.n++;
    return true;
  };
}

async function measure(edge: Edge, target: Target, concurrency: number): Promise<PubResult> {
  const reviews = evictionReviews(target, 1_000);
  const bounds: Bounds = { ...ROUND, concurrency };
  const sink = { n: 0 };
  const echoSend = sender(edge.echo, reviews, false, sink);
  await resyncAll(edge, `warm-${target}-${concurrency}`);
  await drive(echoSend, { ...WARMUP, concurrency }, edge.echoPids);
  await drive(sender(edge.real, reviews, true, sink), { ...WARMUP, concurrency }, edge.realPids);
  const allowed = { n: 0 };
  log(`miniflare https, ${target}, ${concurrency} in flight: ${ROUNDS} alternating rounds of ≤${ROUND.requests} evictions or ≤${ROUND.maxMs} ms per path`);
  const { echo: e, real: rl } = await driveAlternating(
    ROUNDS,
    (path) => drive(path === 'echo' ? echoSend : sender(edge.real, reviews, true, allowed), bounds, path === 'echo' ? edge.echoPids : edge.realPids),
    (r) => resyncAll(edge, `${target}-${concurrency}-${r}`),
  );
  return { platform: 'miniflare https', target, concurrency, allowed: allowed.n, echo: e, real: rl, ratio: ratios(e, rl) };
}

/** STORM evictions of the hot PUB's pods all at once: how long until the last answer, and exactly ALLOWANCE allowed. */
async function storm(edge: Edge): Promise<{ requests: number; allowed: number; lastAnswerMs: number; p50Ms: number; p99Ms: number }> {
  await resyncAll(edge, 'storm');
  const reviews = evictionReviews('hot', STORM);
  const t0 = performance.now();
  const answers = await Promise.all(reviews.bodies.map(async (b) => {
    const a = await edge.real(b);
    return { ...a, ms: performance.now() - t0 };
  }));
  const bad = answers.find((a) => a.status !== 200 || !isDecision(a.text));
  if (bad) throw new Error(`storm: not a budget decision: ${bad.status} ${bad.text.slice(0, 300)}`);
  // A pod evicted twice is allowed twice (already disrupted): count pods, not answers.
  const pods = new Set(answers.flatMap((a, i) => (a.text.includes('"allowed":true') ? [i % HOT_PODS] : [])));
  const allowed = pods.size;
  if (allowed !== ALLOWANCE) throw new Error(`storm: ${allowed} pods allowed to go, the budget held ${ALLOWANCE}`);
  const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
  return { requests: STORM, allowed, lastAnswerMs: ms[ms.length - 1]!, p50Ms: ms[Math.ceil(ms.length / 2) - 1]!, p99Ms: ms[Math.ceil(ms.length * 0.99) - 1]! };
}

const row = (cells: string[], w: number[]) => tableRow(cells, w, 3);

function tables(handler: PubHandlerResult[], results: PubResult[]): string[] {
  const hw = [8, 8, 2, 7, 9, 9, 9, 9, 10, 10];
  const h = [row(['target', 'path', '', 'calls', 'p50 ms', 'p99 ms', 'cpu p50', 'cpu p99', 'p50 ratio', 'p99 ratio'], hw)];
  for (const r of handler) {
    for (const [path, f] of [['echo', r.echo], ['handler', r.handler]] as const) {
      const ratio = path === 'handler' ? [times(r.ratio.p50), times(r.ratio.p99)] : ['', ''];
      h.push(row([path === 'echo' ? r.target : '', path, '', String(f.calls), fixed(f.p50Ms, 3), fixed(f.p99Ms, 3), fixed(f.cpuP50Ms, 3), fixed(f.cpuP99Ms, 3), ...ratio], hw));
    }
  }
  const w = [8, 10, 9, 6, 5, 11, 8, 8, 11];
  const e = [row(['target', 'path', 'in flight', 'reqs', 'fail', 'decisions/s', 'p50 ms', 'p99 ms', 'srv µs/adm'], w)];
  for (const r of results) {
    for (const [path, f] of [['echo', r.echo], ['real', r.real]] as const) {
      e.push(row([path === 'echo' ? r.target : '', path, String(r.concurrency), String(f.requests), String(f.failed), fixed(f.perSecond, 0), fixed(f.p50Ms, 2), fixed(f.p99Ms, 2), fixed(f.serverCpuUs, 0)], w));
    }
    e.push(row(['', 'real/echo', '', '', '', times(r.ratio.throughput), times(r.ratio.p50), times(r.ratio.p99), times(r.ratio.serverCpu)], w));
  }
  return [
    'eviction check in-process (checkPodDisruptionHandler, MemoryLedgers; echo: JSON.parse of the review + JSON.stringify of an allowed answer)',
    ...h,
    '',
    `end to end over HTTPS, production Worker (every validate-pod handler), miniflare; hot = 1 PUB of 100 pods, spread = 100 PUBs of 10; ≤${ROUND.requests} evictions or ≤${ROUND.maxMs / 1000} s × ${ROUNDS} alternating rounds per path, budgets resynced (${ALLOWANCE} may go) before each`,
    ...e,
  ];
}

async function run(): Promise<Record<string, unknown>> {
  const handler = [await measurePubHandler('hot'), await measurePubHandler('spread')];
  const results: PubResult[] = [];
  let stormResult: Awaited<ReturnType<typeof storm>> | undefined;
  await withServingCert(async (tls) => {
    log('miniflare https: starting the echo and the production Worker');
    const edge = await startEdge(tls);
    try {
      for (const t of TARGETS) for (const c of CONCURRENCY) results.push(await measure(edge, t, c));
      stormResult = await storm(edge);
    } finally {
      await edge.close();
    }
  });
  const s = stormResult!;
  const stormLine = `storm: ${s.requests} evictions of the hot PUB's pods at once → ${s.allowed} pods allowed to go (the budget), every other pod refused; last answer after ${s.lastAnswerMs.toFixed(0)} ms (p50 ${s.p50Ms.toFixed(0)} ms, p99 ${s.p99Ms.toFixed(0)} ms)`;
  process.stdout.write(`${[...tables(handler, results), '', stormLine].join('\n')}\n`);
  return { handler, endToEnd: results, storm: s, rounds: ROUNDS, bounds: ROUND, concurrency: CONCURRENCY };
}

export const pubScenario: Scenario = {
  summary: 'PodUnavailableBudget eviction decisions, one hot PUB and 100 PUBs: handler in-process and the production Worker under Miniflare over HTTPS (8 and 32 in flight), vs echo; a 200-eviction storm',
  run,
};
