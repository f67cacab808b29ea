// Scenario "sidecarset": what injecting SidecarSets costs a pod creation when the pod is matched by
// 1, 10 or 100 of the 1,000 SidecarSets in the cluster (bench/webhook/sidecarset/cluster.ts). Two views,
// each against an echo baseline measured in the same run in alternating rounds: the injection
// handler called in-process (bench/webhook/sidecarset/handler.ts), and admissions end to end over HTTPS,
// 8 in flight, on the production Worker under Miniflare and on the Node platform, each with the
// cluster's state pushed through the sync API as a reconciler would. End to end has a second
// baseline: the echo answering with as many bytes as the real answer (a patch of filler), which
// separates what the answer's size costs (TLS, HTTP, the client reading it) from what computing
// it costs.
import { join } from 'node:path';
import jsonpatch, { type Operation } from 'fast-json-patch';
import { pushCollections, type EdgeTarget } from '../../../src/edge-state/push.js';
import { FEATURES, stateCollections } from '../../../src/registry.js';
import { sidecarSetCollections } from '../../../src/sidecarset/collections.js';
import { REPO_ROOT } from '../../../test/cluster/control-plane.js';
import { fetchVia, overHttps, startMiniflarePair, startNodeProcess, trustingAgent, withServingCert, type Exchange, type MiniflarePair, type Tls } from '../../harness/https-target.js';
import { drive, driveRotating, type Bounds, type Figures, type Send } from '../../harness/load.js';
import { fixed, ratios, tableRow as line, times, type PlatformResult, type Ratios } from '../../harness/report.js';
import { buildBenchCluster, injectionProblem, matchedPodReviews, MATCH_COUNTS, SET_COUNT, type BenchCluster, type MatchCount } from './cluster.js';
import { budgetTable, targetBudget, TARGET_RATIO, unloadedVerdict, verdict, type Budget } from './budget.js';
import { measureHandler, type HandlerResult } from './handler.js';
import type { SidecarSetNodeTarget } from './node-target.js';
import type { Scenario } from '../main.js';

/** Admissions in flight end to end: 8 (the machine loaded), or KS_BENCH_IN_FLIGHT (1: unloaded latency). */
const CONCURRENCY = inFlight(process.env.KS_BENCH_IN_FLIGHT);

function inFlight(setting: string | undefined): number {
  if (setting === undefined || setting === '') return 8;
  const n = Number(setting);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`KS_BENCH_IN_FLIGHT must be an integer from 1 to 64, not ${JSON.stringify(setting)}`);
  return n;
}
/** Per platform, match count and path: at most this many measured admissions, in at most this long. */
const MEASURE = { requests: 1_200, maxMs: 6_000 };
const ROUNDS = 6;
const WARMUP: Bounds = { requests: 500, concurrency: CONCURRENCY, maxMs: 2_000 };
const DISTINCT_REVIEWS = 64;

const NODE_TARGET = join(REPO_ROOT, 'bench', 'webhook', 'sidecarset', 'node-target.ts');

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

export type Target = { exchange: Exchange; serverPids: number[] };
/** A platform serving the echo and the production app, the latter holding the bench cluster's state. */
export type Platform = { name: string; echo: Target; real: Target; sizedEcho(answerBytes: number): Exchange; close(): Promise<void> };
/** `sized`: the echo answering with `answerBytes`; `sizedRatio`: it against the echo, `realVsSized`: real against it. */
export type MatchedResult = PlatformResult & { matched: MatchCount; answerBytes: number; sized: Figures; sizedRatio: Ratios; realVsSized: Ratios };

/**
 * Pushes every collection the production features read, as the reconcilers would: the SidecarSet
 * feature's four from the bench cluster, the others empty (no WorkloadSpreads, PUBs, …), so the
 * other pod handlers run as they would in such a cluster instead of skipping for missing state.
 */
export async function pushCluster(cluster: BenchCluster, edge: EdgeTarget): Promise<void> {
  const t0 = performance.now();
  const specs = stateCollections(FEATURES);
  const missing = sidecarSetCollections.filter((c) => !specs.some((s) => s.name === c.name));
  if (missing.length) throw new Error(`the production features do not read ${missing.map((c) => c.name).join(', ')}`);
  const pushed = await pushCollections(edge, cluster.list, specs);
  for (const p of pushed) {
    if (p.meta.count !== p.items) throw new Error(`push of ${p.collection}: the edge holds ${p.meta.count} of ${p.items}`);
  }
  const shown = pushed.filter((p) => p.items > 0).map((p) => `${p.items} ${p.collection}`);
  log(`pushed ${shown.join(', ')} and ${pushed.length - shown.length} empty collections in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function miniflare(tls: Tls, cluster: BenchCluster): Promise<Platform> {
  return miniflarePlatform(await startMiniflarePair({ tls, connections: CONCURRENCY, clusterId: 'bench-sidecarset', prepare: (edge) => pushCluster(cluster, edge) }));
}

/** mutate-pod of the Worker and of the echo, both under Miniflare over HTTPS. */
export function miniflarePlatform(pair: MiniflarePair): Platform {
  const path = `/clusters/${pair.edge.clusterId}/${pair.webhookSecret}/mutate-pod`;
  return {
    name: 'miniflare https',
    echo: { exchange: overHttps(pair.agent, pair.echoUrl + path), serverPids: pair.echoPids },
    real: { exchange: overHttps(pair.agent, pair.realUrl + path), serverPids: pair.realPids },
    sizedEcho: (bytes) => overHttps(pair.agent, `${pair.echoUrl}${path}?answer=${bytes}`),
    close: pair.close,
  };
}

/** Starts bench/webhook/sidecarset/node-target.ts in its own process, then pushes the cluster to it. */
async function nodeHttps(tls: Tls, cluster: BenchCluster): Promise<Platform> {
  const { target, stop } = await startNodeProcess<SidecarSetNodeTarget>(NODE_TARGET, tls);
  const agent = trustingAgent(tls.ca, CONCURRENCY);
  const close = async () => {
    await agent.close();
    await stop();
  };
  try {
    await pushCluster(cluster, { baseUrl: target.realUrl, clusterId: target.clusterId, syncToken: target.syncToken, fetch: fetchVia(agent) });
  } catch (e) {
    await close();
    throw e;
  }
  const path = `/clusters/${target.clusterId}/${target.webhookSecret}/mutate-pod`;
  const pids = [target.pid];
  return {
    name: 'node https',
    echo: { exchange: overHttps(agent, target.echoUrl + path), serverPids: pids },
    real: { exchange: overHttps(agent, target.realUrl + path), serverPids: pids },
    sizedEcho: (bytes) => overHttps(agent, `${target.echoUrl}${path}?answer=${bytes}`),
    close,
  };
}

type Reviews = { uids: string[]; bodies: string[] };

/** A cheap per-request check: status 200 and the request's uid; for real, a patch too. */
function sender(exchange: Exchange, reviews: Reviews, mark: string): Send {
  const n = reviews.bodies.length;
  return async (i) => {
    const { status, text } = await exchange(reviews.bodies[i % n]!);
    return status === 200 && text.includes(reviews.uids[i % n]!) && text.includes(mark);
  };
}

/** The full check, once before measuring: the patch must inject exactly what k matching sets inject. Returns the answer's size. */
async function verify(p: Platform, reviews: Reviews, k: MatchCount, cluster: BenchCluster): Promise<number> {
  const { status, text } = await p.real.exchange(reviews.bodies[0]!);
  const fail = (why: string) => new Error(`${p.name}, ${k} matching: ${why}: ${status} ${text.slice(0, 300)}`);
  if (status !== 200) throw fail('not HTTP 200');
  const answer = JSON.parse(text) as { response?: { uid?: string; allowed?: boolean; patch?: string; warnings?: string[] } };
  const response = answer.response;
  if (response?.uid !== reviews.uids[0] || response?.allowed !== true) throw fail('not an allowed review with the request uid');
  if (response.warnings?.length) throw fail(`warnings (a handler skipped?): ${response.warnings.join('; ')}`);
  const ops = JSON.parse(Buffer.from(response.patch ?? '', 'base64').toString('utf8')) as Operation[];
  const pod = (JSON.parse(reviews.bodies[0]!) as { request: { object: object } }).request.object;
  const problem = injectionProblem(jsonpatch.applyPatch(pod, ops, false, true).newDocument, k, cluster);
  if (problem) throw fail(`the patched pod has ${problem}`);
  return Buffer.byteLength(text);
}

export type Paths = Record<'echo' | 'sized' | 'real', { send: Send; pids: number[] }>;
export type Prepared = { k: MatchCount; answerBytes: number; paths: Paths };

/** The three paths for `k` matching, each checked once (the real answer in full). */
export async function prepare(p: Platform, k: MatchCount, cluster: BenchCluster): Promise<Prepared> {
  const reviews = matchedPodReviews(k, DISTINCT_REVIEWS);
  const answerBytes = await verify(p, reviews, k, cluster);
  const sizedExchange = p.sizedEcho(answerBytes);
  const sizedBytes = Buffer.byteLength((await sizedExchange(reviews.bodies[0]!)).text);
  if (Math.abs(sizedBytes - answerBytes) > 256) throw new Error(`${p.name}: the sized echo answers ${sizedBytes} bytes, not about ${answerBytes}`);
  const paths = {
    echo: { send: sender(p.echo.exchange, reviews, '"allowed":true'), pids: p.echo.serverPids },
    sized: { send: sender(sizedExchange, reviews, '"patch":'), pids: p.echo.serverPids },
    real: { send: sender(p.real.exchange, reviews, '"patch":'), pids: p.real.serverPids },
  };
  return { k, answerBytes, paths };
}

/**
 * Every path of every match count, before any is measured: a fresh process keeps compiling and
 * growing its heap for thousands of admissions, and would otherwise charge that to whichever
 * match count came first.
 */
async function warmUp(p: Platform, prepared: Prepared[]): Promise<void> {
  log(`${p.name}: warming up every path, ≤${WARMUP.requests} admissions or ≤${WARMUP.maxMs} ms each, twice over`);
  for (let pass = 0; pass < 2; pass++) {
    for (const { paths } of prepared) for (const { send, pids } of Object.values(paths)) await drive(send, WARMUP, pids);
  }
}

async function measure(p: Platform, { k, answerBytes, paths }: Prepared): Promise<MatchedResult> {
  const round: Bounds = { requests: MEASURE.requests / ROUNDS, concurrency: CONCURRENCY, maxMs: MEASURE.maxMs / ROUNDS };
  log(`${p.name}, ${k} matching: measuring, ${ROUNDS} rotating rounds of ≤${round.requests} admissions or ≤${round.maxMs} ms per path`);
  const f = await driveRotating(['echo', 'sized', 'real'] as const, ROUNDS, (path) => drive(paths[path].send, round, paths[path].pids));
  return {
    platform: p.name,
    matched: k,
    answerBytes,
    echo: f.echo,
    sized: f.sized,
    real: f.real,
    ratio: ratios(f.echo, f.real),
    sizedRatio: ratios(f.echo, f.sized),
    realVsSized: ratios(f.sized, f.real),
  };
}

function handlerTable(results: HandlerResult[]): string[] {
  const w = [9, 9, 7, 9, 9, 9, 10, 10, 10, 10];
  const lines = [line(['matched', 'path', 'calls', 'p50 ms', 'p99 ms', 'mean ms', 'cpu p50', 'cpu p99', 'p50 ratio', 'p99 ratio'], w)];
  for (const r of results) {
    for (const [path, f] of [['echo', r.echo], ['handler', r.handler], ['encode', r.encode]] as const) {
      const ratio = path === 'handler' ? [times(r.ratio.p50), times(r.ratio.p99)] : ['', ''];
      lines.push(line([path === 'echo' ? String(r.matched) : '', path, String(f.calls), fixed(f.p50Ms, 3), fixed(f.p99Ms, 3), fixed(f.meanMs, 3), fixed(f.cpuP50Ms, 3), fixed(f.cpuP99Ms, 3), ...ratio], w));
    }
  }
  return lines;
}

function endToEndTable(results: MatchedResult[]): string[] {
  const w = [16, 10, 8, 6, 5, 8, 8, 8, 11, 11, 9];
  const lines = [line(['platform', 'path', 'matched', 'reqs', 'fail', 'adm/s', 'p50 ms', 'p99 ms', 'srv µs/adm', 'cli µs/adm', 'answer KB'], w)];
  for (const r of results) {
    for (const [path, f] of [['echo', r.echo], ['echo+size', r.sized], ['real', r.real]] as const) {
      const kb = path === 'echo' ? '' : (r.answerBytes / 1024).toFixed(1);
      lines.push(line([r.platform, path, String(r.matched), String(f.requests), String(f.failed), fixed(f.perSecond, 0), fixed(f.p50Ms, 2), fixed(f.p99Ms, 2), fixed(f.serverCpuUs, 0), fixed(f.clientCpuUs, 0), kb], w));
    }
    for (const [name, q] of [['real/echo', r.ratio], ['size/echo', r.sizedRatio], ['real/size', r.realVsSized]] as const) {
      lines.push(line(['', name, '', '', '', times(q.throughput), times(q.p50), times(q.p99), times(q.serverCpu), '', ''], w));
    }
  }
  return lines;
}

/** The queued-admissions model of the target (sidecarset-budget.ts), as a table. */
function boundLines(budgets: Budget[], matched: MatchCount): string[] {
  return [
    `the target at ${matched} matching, per admission: with admissions queued, throughput is bounded by the busiest of the server's thread (srv), the client's`,
    `thread (cli) and the two cores they share (Σ/2); "predicted" is the throughput that bound allows, beside the measured one. The target allows the real path ${TARGET_RATIO}× the echo's bound.`,
    ...budgetTable(budgets),
    '',
  ];
}

async function run(): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const cluster = await buildBenchCluster();
  const bytes = (items: unknown[]) => Buffer.byteLength(JSON.stringify(items));
  const state = { sidecarSets: cluster.sets.length, sidecarSetBytes: bytes(cluster.sets), revisions: cluster.revisions.length, revisionBytes: bytes(cluster.revisions), namespaces: cluster.namespaces.length };
  log(`built ${SET_COUNT} SidecarSets (${(state.sidecarSetBytes / 1024).toFixed(0)} KiB) and ${state.revisions} revisions (${(state.revisionBytes / 1024).toFixed(0)} KiB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const handler = await measureHandler(cluster);

  const endToEnd: MatchedResult[] = [];
  await withServingCert(async (tls) => {
    const starters: [string, () => Promise<Platform>][] = [
      ['miniflare https', () => miniflare(tls, cluster)],
      ['node https', () => nodeHttps(tls, cluster)],
    ];
    for (const [name, start] of starters) {
      log(`${name}: starting`);
      const platform = await start();
      try {
        const prepared: Prepared[] = [];
        for (const k of MATCH_COUNTS) prepared.push(await prepare(platform, k, cluster));
        await warmUp(platform, prepared);
        for (const each of prepared) endToEnd.push(await measure(platform, each));
      } finally {
        await platform.close();
      }
    }
  });

  const TARGET_MATCHED: MatchCount = 10;
  const inProcess = handler.find((h) => h.matched === TARGET_MATCHED);
  const [encodeMs, handlerMs] = [inProcess?.encode.cpuP50Ms ?? NaN, inProcess?.handler.cpuP50Ms ?? NaN];
  const atTarget = endToEnd.filter((r) => r.matched === TARGET_MATCHED);
  const budgets = atTarget.map((r) => targetBudget({ platform: r.platform, echo: r.echo, sized: r.sized, real: r.real, encodeMs, handlerMs }));
  const verdicts = budgets.map((b, i) => {
    const r = atTarget[i]!;
    return CONCURRENCY === 1 ? unloadedVerdict(b, { echo: r.echo.p50Ms, sized: r.sized.p50Ms, real: r.real.p50Ms }) : verdict(b);
  });
  const out = [
    `cluster: ${SET_COUNT} SidecarSets (${(state.sidecarSetBytes / 1024).toFixed(0)} KiB as pushed), ${state.revisions} ControllerRevisions (${(state.revisionBytes / 1024).toFixed(0)} KiB), ${state.namespaces} namespaces; pod injected: ${MATCH_COUNTS.map((k) => `${k} sets → ${cluster.injectedContainers[k]} containers`).join(', ')}`,
    '',
    'injection handler in-process (makeInjectSidecarsHandler; echo: JSON.parse of the review + JSON.stringify of an allowed answer; encode: JSON.stringify + base64 of',
    'the real answer\'s patch, which any webhook giving that answer pays); cpu: process CPU time per call',
    ...handlerTable(handler),
    '',
    `end to end over HTTPS, ${CONCURRENCY} in flight; per platform, match count and path ≤${MEASURE.requests} admissions or ≤${MEASURE.maxMs / 1000} s in ${ROUNDS} rotating rounds, after every path of every match count warmed up twice (≤${WARMUP.requests} admissions each)`,
    'paths: echo (the review parsed, an allowed answer); echo+size (the same, its answer padded to the real answer\'s size); real (the production app)',
    ...endToEndTable(endToEnd),
    '',
    'targets: end to end real ≤ 1.5× echo at 10 matching (p50 ratio ≤ 1.50×, throughput ratio ≥ 0.67×); handler p99 < 5 ms at 100 matching',
    'size/echo is what the answer\'s size alone costs (no webhook can answer these bytes for less); real/size is what computing the answer adds',
    '',
    ...(CONCURRENCY > 1 ? boundLines(budgets, TARGET_MATCHED) : [`the target at ${TARGET_MATCHED} matching, admissions one at a time (latency is what client, network stack and server take in turn):`]),
    ...verdicts,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  return {
    cluster: { ...state, injectedContainers: cluster.injectedContainers },
    handler,
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    bounds: MEASURE,
    warmupRequests: WARMUP.requests,
    endToEnd,
    budgets,
    verdicts,
    target: 'end to end real <= 1.5x echo at 10 matching; handler p99 < 5 ms at 100 matching',
  };
}

export const sidecarSetScenario: Scenario = {
  summary: 'SidecarSet pod injection with 1, 10, 100 of 1,000 sets matching: handler in-process, Miniflare and Node over HTTPS, vs echo',
  run,
};
