// Scenario "sidecarset": what injecting SidecarSets costs a pod creation when the pod is matched by
// 1, 10 or 100 of the 1,000 SidecarSets in the cluster (bench/sidecarset-cluster.ts). Two views,
// each against an echo baseline measured in the same run in alternating rounds: the injection
// handler called in-process (bench/sidecarset-handler.ts), and admissions end to end over HTTPS,
// 8 in flight, on the production Worker under Miniflare and on the Node platform, each with the
// cluster's state pushed through the sync API as a reconciler would.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsonpatch, { type Operation } from 'fast-json-patch';
import { Agent, fetch as undiciFetch } from 'undici';
import { newSecret } from '../src/admission/auth.js';
import { pushCollections, type Fetch } from '../src/admission/push.js';
import { FEATURES, stateCollections } from '../src/registry.js';
import { sidecarSetCollections } from '../src/sidecarset/collections.js';
import { startLocalWorker, type LocalWorker } from '../scripts/local-worker.js';
import { REPO_ROOT } from '../test/cluster/control-plane.js';
import { ensurePki, issueServingCert } from '../test/cluster/pki.js';
import { descendants } from './cpu.js';
import { drive, figures, mergeTallies, type Bounds, type Send, type Tally } from './load.js';
import { ratios, type PlatformResult } from './report.js';
import { buildBenchCluster, injectionProblem, matchedPodReviews, MATCH_COUNTS, SET_COUNT, type BenchCluster, type MatchCount } from './sidecarset-cluster.js';
import { measureHandler, type HandlerResult } from './sidecarset-handler.js';
import type { SidecarSetNodeTarget } from './sidecarset-node-target.js';
import type { Scenario } from './webhook.js';

const CONCURRENCY = 8;
/** Per platform, match count and path: at most this many measured admissions, in at most this long. */
const MEASURE = { requests: 1_200, maxMs: 6_000 };
const ROUNDS = 6;
const WARMUP: Bounds = { requests: 200, concurrency: CONCURRENCY, maxMs: 2_500 };
const DISTINCT_REVIEWS = 64;

const ECHO_WORKER = join(REPO_ROOT, 'bench', 'echo-worker.ts');
const NODE_TARGET = join(REPO_ROOT, 'bench', 'sidecarset-node-target.ts');
const JSON_HEADERS = { 'content-type': 'application/json' };

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

type Answer = { status: number; text: string };
type Exchange = (body: string) => Promise<Answer>;
type Target = { exchange: Exchange; serverPids: number[] };
/** A platform serving the echo and the production app, the latter holding the bench cluster's state. */
type Platform = { name: string; echo: Target; real: Target; close(): Promise<void> };
type Tls = { certPath: string; keyPath: string; cert: string; key: string; ca: string };
export type MatchedResult = PlatformResult & { matched: MatchCount; answerBytes: number };

/** Keep-alive HTTPS to 127.0.0.1, trusting only the benchmark's CA; one connection per request in flight. */
const trustingAgent = (ca: string) => new Agent({ connect: { ca }, connections: CONCURRENCY, keepAliveTimeout: 30_000 });

function overHttps(agent: Agent, url: string): Exchange {
  return async (body) => {
    const res = await undiciFetch(url, { method: 'POST', body, headers: JSON_HEADERS, dispatcher: agent });
    return { status: res.status, text: await res.text() };
  };
}

const fetchVia = (agent: Agent): Fetch => (url, init) => undiciFetch(url, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>;

/**
 * Pushes every collection the production features read, as the reconcilers would: the SidecarSet
 * feature's four from the bench cluster, the others empty (no WorkloadSpreads, PUBs, …), so the
 * other pod handlers run as they would in such a cluster instead of skipping for missing state.
 */
async function pushCluster(cluster: BenchCluster, edge: { baseUrl: string; clusterId: string; syncToken: string; fetch: Fetch }): Promise<void> {
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
  const known = new Set(descendants().keys());
  const newWorkerd = () => {
    const pids = [...descendants()].filter(([pid, comm]) => !known.has(pid) && comm.includes('workerd')).map(([pid]) => pid);
    for (const pid of pids) known.add(pid);
    return pids;
  };
  const started: LocalWorker[] = [];
  const agent = trustingAgent(tls.ca);
  const close = async () => {
    await agent.close();
    for (const w of started) await w.dispose();
  };
  try {
    const echo = await startLocalWorker({ entry: ECHO_WORKER, tls });
    started.push(echo);
    const echoPids = newWorkerd();
    const adminToken = newSecret();
    const real = await startLocalWorker({ tls, adminToken }); // functions/worker/index.ts
    started.push(real);
    const realPids = newWorkerd();
    const fetch = fetchVia(agent);
    const clusterId = 'bench-sidecarset';
    const res = await fetch(`${real.url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: JSON.stringify({ clusterId }) });
    if (res.status !== 201) throw new Error(`registering the cluster: ${res.status} ${await res.text()}`);
    const creds = (await res.json()) as { webhookSecret: string; syncToken: string };
    await pushCluster(cluster, { baseUrl: real.url, clusterId, syncToken: creds.syncToken, fetch });
    const path = `/clusters/${clusterId}/${creds.webhookSecret}/mutate-pod`;
    return {
      name: 'miniflare https',
      echo: { exchange: overHttps(agent, echo.url + path), serverPids: echoPids },
      real: { exchange: overHttps(agent, real.url + path), serverPids: realPids },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Starts bench/sidecarset-node-target.ts in its own process, then pushes the cluster to it. */
async function nodeHttps(tls: Tls, cluster: BenchCluster): Promise<Platform> {
  const child = spawn(process.execPath, ['--import', 'tsx', NODE_TARGET, tls.certPath, tls.keyPath], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const agent = trustingAgent(tls.ca);
  const close = async () => {
    await agent.close();
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const target = await new Promise<SidecarSetNodeTarget>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('node target did not start within 30s')), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const nl = out.indexOf('\n');
        if (nl < 0) return;
        clearTimeout(timer);
        resolve(JSON.parse(out.slice(0, nl)) as SidecarSetNodeTarget);
      });
      void exited.then(() => reject(new Error(`node target exited (code ${child.exitCode}) before listening`)));
    });
    await pushCluster(cluster, { baseUrl: target.realUrl, clusterId: target.clusterId, syncToken: target.syncToken, fetch: fetchVia(agent) });
    const path = `/clusters/${target.clusterId}/${target.webhookSecret}/mutate-pod`;
    const pids = [target.pid];
    return {
      name: 'node https',
      echo: { exchange: overHttps(agent, target.echoUrl + path), serverPids: pids },
      real: { exchange: overHttps(agent, target.realUrl + path), serverPids: pids },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
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

async function measure(p: Platform, k: MatchCount, cluster: BenchCluster): Promise<MatchedResult> {
  const reviews = matchedPodReviews(k, DISTINCT_REVIEWS);
  const answerBytes = await verify(p, reviews, k, cluster);
  const echo = sender(p.echo.exchange, reviews, '"allowed":true');
  const real = sender(p.real.exchange, reviews, '"patch":');
  log(`${p.name}, ${k} matching: warming up`);
  await drive(echo, WARMUP, p.echo.serverPids);
  await drive(real, WARMUP, p.real.serverPids);
  const round: Bounds = { requests: MEASURE.requests / ROUNDS, concurrency: CONCURRENCY, maxMs: MEASURE.maxMs / ROUNDS };
  const tallies: { echo: Tally[]; real: Tally[] } = { echo: [], real: [] };
  log(`${p.name}, ${k} matching: measuring, ${ROUNDS} alternating rounds of ≤${round.requests} admissions or ≤${round.maxMs} ms per path`);
  for (let r = 0; r < ROUNDS; r++) {
    for (const path of r % 2 === 0 ? (['echo', 'real'] as const) : (['real', 'echo'] as const)) {
      tallies[path].push(await drive(path === 'echo' ? echo : real, round, p[path].serverPids));
    }
  }
  const e = figures(mergeTallies(tallies.echo));
  const rl = figures(mergeTallies(tallies.real));
  return { platform: p.name, matched: k, answerBytes, echo: e, real: rl, ratio: ratios(e, rl) };
}

const fixed = (n: number | null, digits: number) => (n === null || !Number.isFinite(n) ? '-' : n.toFixed(digits));
const times = (n: number | null) => (n === null || !Number.isFinite(n) ? '-' : `${n.toFixed(2)}×`);
const line = (cells: string[], widths: number[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' ').trimEnd();

function handlerTable(results: HandlerResult[]): string[] {
  const w = [9, 9, 7, 9, 9, 9, 10, 10, 10, 10];
  const lines = [line(['matched', 'path', 'calls', 'p50 ms', 'p99 ms', 'mean ms', 'cpu p50', 'cpu p99', 'p50 ratio', 'p99 ratio'], w)];
  for (const r of results) {
    for (const [path, f] of [['echo', r.echo], ['handler', r.handler]] as const) {
      const ratio = path === 'handler' ? [times(r.ratio.p50), times(r.ratio.p99)] : ['', ''];
      lines.push(line([path === 'echo' ? String(r.matched) : '', path, String(f.calls), fixed(f.p50Ms, 3), fixed(f.p99Ms, 3), fixed(f.meanMs, 3), fixed(f.cpuP50Ms, 3), fixed(f.cpuP99Ms, 3), ...ratio], w));
    }
  }
  return lines;
}

function endToEndTable(results: MatchedResult[]): string[] {
  const w = [16, 10, 8, 6, 5, 8, 8, 8, 11, 9];
  const lines = [line(['platform', 'path', 'matched', 'reqs', 'fail', 'adm/s', 'p50 ms', 'p99 ms', 'srv µs/adm', 'answer KB'], w)];
  for (const r of results) {
    for (const [path, f] of [['echo', r.echo], ['real', r.real]] as const) {
      const kb = path === 'real' ? (r.answerBytes / 1024).toFixed(1) : '';
      lines.push(line([r.platform, path, String(r.matched), String(f.requests), String(f.failed), fixed(f.perSecond, 0), fixed(f.p50Ms, 2), fixed(f.p99Ms, 2), fixed(f.serverCpuUs, 0), kb], w));
    }
    lines.push(line(['', 'real/echo', '', '', '', times(r.ratio.throughput), times(r.ratio.p50), times(r.ratio.p99), times(r.ratio.serverCpu), ''], w));
  }
  return lines;
}

async function run(): Promise<Record<string, unknown>> {
  const t0 = performance.now();
  const cluster = await buildBenchCluster();
  const bytes = (items: unknown[]) => Buffer.byteLength(JSON.stringify(items));
  const state = { sidecarSets: cluster.sets.length, sidecarSetBytes: bytes(cluster.sets), revisions: cluster.revisions.length, revisionBytes: bytes(cluster.revisions), namespaces: cluster.namespaces.length };
  log(`built ${SET_COUNT} SidecarSets (${(state.sidecarSetBytes / 1024).toFixed(0)} KiB) and ${state.revisions} revisions (${(state.revisionBytes / 1024).toFixed(0)} KiB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const handler = await measureHandler(cluster);

  const pkiDir = mkdtempSync(join(tmpdir(), 'ks-bench-pki-'));
  const endToEnd: MatchedResult[] = [];
  try {
    ensurePki(pkiDir);
    const serving = issueServingCert(pkiDir, 'bench', ['localhost'], ['127.0.0.1']);
    const tls: Tls = { certPath: serving.cert, keyPath: serving.key, cert: readFileSync(serving.cert, 'utf8'), key: readFileSync(serving.key, 'utf8'), ca: readFileSync(join(pkiDir, 'ca.crt'), 'utf8') };
    const starters: [string, () => Promise<Platform>][] = [
      ['miniflare https', () => miniflare(tls, cluster)],
      ['node https', () => nodeHttps(tls, cluster)],
    ];
    for (const [name, start] of starters) {
      log(`${name}: starting`);
      const platform = await start();
      try {
        for (const k of MATCH_COUNTS) endToEnd.push(await measure(platform, k, cluster));
      } finally {
        await platform.close();
      }
    }
  } finally {
    rmSync(pkiDir, { recursive: true, force: true });
  }

  const out = [
    `cluster: ${SET_COUNT} SidecarSets (${(state.sidecarSetBytes / 1024).toFixed(0)} KiB as pushed), ${state.revisions} ControllerRevisions (${(state.revisionBytes / 1024).toFixed(0)} KiB), ${state.namespaces} namespaces; pod injected: ${MATCH_COUNTS.map((k) => `${k} sets → ${cluster.injectedContainers[k]} containers`).join(', ')}`,
    '',
    'injection handler in-process (makeInjectSidecarsHandler; echo: JSON.parse of the review + JSON.stringify of an allowed answer); cpu: process CPU time per call',
    ...handlerTable(handler),
    '',
    `end to end over HTTPS, ${CONCURRENCY} in flight; per platform, match count and path ≤${MEASURE.requests} admissions or ≤${MEASURE.maxMs / 1000} s in ${ROUNDS} echo/real alternating rounds after ${WARMUP.requests} warm-up each`,
    ...endToEndTable(endToEnd),
    '',
    'targets: end to end real ≤ 1.5× echo at 10 matching (p50 ratio ≤ 1.50×, throughput ratio ≥ 0.67×); handler p99 < 5 ms at 100 matching',
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
    target: 'end to end real <= 1.5x echo at 10 matching; handler p99 < 5 ms at 100 matching',
  };
}

export const sidecarSetScenario: Scenario = {
  summary: 'SidecarSet pod injection with 1, 10, 100 of 1,000 sets matching: handler in-process, Miniflare and Node over HTTPS, vs echo',
  run,
};
