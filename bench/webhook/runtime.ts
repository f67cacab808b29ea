// Scenario "runtime": what the admission runtime (path-secret auth, dispatch, a state read, a
// mutating handler, JSON Patch) costs over the floor each platform imposes (an echo that only
// parses and answers), on Node in-process, Node over HTTPS and Miniflare over HTTPS; plus the
// production Worker's bundle size. Echo and real rounds alternate so machine noise hits both.
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Hono } from 'hono';
import { bundleWorker, WORKER_ENTRY } from '../../scripts/local-worker.js';
import { REPO_ROOT } from '../../test/cluster/control-plane.js';
import { STAMP_CLUSTER, STAMP_TEAM } from '../../test/e2e/fixtures/stamp-feature.js';
import { buildEchoApp } from '../harness/echo-app.js';
import { overHttps, startMiniflarePair, startNodeProcess, trustingAgent, withServingCert, type Exchange, type Tls } from '../harness/https-target.js';
import { drive, driveAlternating, type Bounds, type Send } from '../harness/load.js';
import { BENCH_TEAM, pushNamespaces } from '../harness/namespaces.js';
import type { NodeTargets } from './node-target.js';
import { podReviewBodies } from '../harness/pod-review.js';
import { buildRealApp, BENCH_CLUSTER } from '../harness/real-app.js';
import { ratios, resultTable, type PlatformResult } from '../harness/report.js';
import type { Scenario } from './main.js';

const CONCURRENCY = 8;
/** Per platform and path: at most this many measured admissions, in at most this long. */
const MEASURE = { requests: 2_000, maxMs: 12_000 };
const ROUNDS = 8;
const WARMUP: Bounds = { requests: 400, concurrency: CONCURRENCY, maxMs: 4_000 };
const DISTINCT_REVIEWS = 64;
const GZIP_TARGET_BYTES = 1024 * 1024;

const STAMP_WORKER = join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'stamp-worker.ts');
const NODE_TARGET = join(REPO_ROOT, 'bench', 'webhook', 'node-target.ts');

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

type Target = { exchange: Exchange; serverPids: number[] };
type Platform = { name: string; clusterId: string; echo: Target; real: Target; close(): Promise<void> };
type Reviews = { uids: string[]; bodies: string[] };

function inProcess(app: Hono, path: string): Exchange {
  return async (body) => {
    const res = await app.request(path, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    return { status: res.status, text: await res.text() };
  };
}

async function nodeInProcess(): Promise<Platform> {
  const echo = buildEchoApp();
  const real = await buildRealApp();
  const self = [process.pid];
  return {
    name: 'node in-process',
    clusterId: BENCH_CLUSTER,
    echo: { exchange: inProcess(echo, real.webhookPath), serverPids: self },
    real: { exchange: inProcess(real.app, real.webhookPath), serverPids: self },
    close: async () => undefined,
  };
}

/** bench/webhook/node-target.ts in its own process. */
async function nodeHttps(tls: Tls): Promise<Platform> {
  const { target, stop } = await startNodeProcess<NodeTargets>(NODE_TARGET, tls);
  const agent = trustingAgent(tls.ca, CONCURRENCY);
  const pids = [target.pid];
  return {
    name: 'node https',
    clusterId: BENCH_CLUSTER,
    echo: { exchange: overHttps(agent, target.echoUrl + target.webhookPath), serverPids: pids },
    real: { exchange: overHttps(agent, target.realUrl + target.webhookPath), serverPids: pids },
    close: async () => {
      await agent.close();
      await stop();
    },
  };
}

async function miniflareHttps(tls: Tls): Promise<Platform> {
  const pair = await startMiniflarePair({ tls, connections: CONCURRENCY, clusterId: 'bench-edge', entry: STAMP_WORKER, prepare: pushNamespaces });
  const { clusterId } = pair.edge;
  const path = `/clusters/${clusterId}/${pair.webhookSecret}/mutate-pod`;
  return {
    name: 'miniflare https',
    clusterId,
    echo: { exchange: overHttps(pair.agent, pair.echoUrl + path), serverPids: pair.echoPids },
    real: { exchange: overHttps(pair.agent, pair.realUrl + path), serverPids: pair.realPids },
    close: pair.close,
  };
}

/** A cheap per-request check: status 200 and the request's uid; for real, a patch too. */
function sender(exchange: Exchange, reviews: Reviews, mark: string): Send {
  const n = reviews.bodies.length;
  return async (i) => {
    const { status, text } = await exchange(reviews.bodies[i % n]!);
    return status === 200 && text.includes(reviews.uids[i % n]!) && text.includes(mark);
  };
}

/** The full check, once before measuring: the real path must answer with the stamp patch. */
async function verify(p: Platform, reviews: Reviews): Promise<void> {
  const body = reviews.bodies[0]!;
  const uid = reviews.uids[0]!;
  for (const [path, target] of [['echo', p.echo], ['real', p.real]] as const) {
    const { status, text } = await target.exchange(body);
    const fail = (why: string) => new Error(`${p.name} ${path}: ${why}: ${status} ${text.slice(0, 300)}`);
    if (status !== 200) throw fail('not HTTP 200');
    const answer = JSON.parse(text) as { response?: { uid?: string; allowed?: boolean; patch?: string } };
    if (answer.response?.uid !== uid || answer.response.allowed !== true) throw fail('not an allowed review with the request uid');
    if (path === 'real') {
      const patch = Buffer.from(answer.response.patch ?? '', 'base64').toString('utf8');
      const stamped = patch.includes(STAMP_CLUSTER.replace('/', '~1')) && patch.includes(STAMP_TEAM.replace('/', '~1'));
      if (!stamped || !patch.includes(`"${BENCH_TEAM}"`) || !patch.includes(`"${p.clusterId}"`)) throw fail(`unexpected patch ${patch}`);
    }
  }
}

async function measure(p: Platform, reviews: Reviews): Promise<PlatformResult> {
  await verify(p, reviews);
  const echo = sender(p.echo.exchange, reviews, '"allowed":true');
  const real = sender(p.real.exchange, reviews, '"patch":');
  log(`${p.name}: warming up`);
  await drive(echo, WARMUP, p.echo.serverPids);
  await drive(real, WARMUP, p.real.serverPids);
  const round: Bounds = { requests: MEASURE.requests / ROUNDS, concurrency: CONCURRENCY, maxMs: MEASURE.maxMs / ROUNDS };
  log(`${p.name}: measuring, ${ROUNDS} alternating rounds of ≤${round.requests} admissions or ≤${round.maxMs} ms per path`);
  const { echo: e, real: rl } = await driveAlternating(ROUNDS, (path) => drive(path === 'echo' ? echo : real, round, p[path].serverPids));
  return { platform: p.name, echo: e, real: rl, ratio: ratios(e, rl) };
}

async function workerBundleSize(): Promise<{ rawBytes: number; gzipBytes: number }> {
  const script = Buffer.from(await bundleWorker(WORKER_ENTRY, true), 'utf8');
  return { rawBytes: script.length, gzipBytes: gzipSync(script).length };
}

async function run(): Promise<Record<string, unknown>> {
  const reviews = podReviewBodies(DISTINCT_REVIEWS);
  const reviewBytes = Buffer.byteLength(reviews.bodies[0]!);
  if (reviewBytes < 8 * 1024 || reviewBytes > 12 * 1024) throw new Error(`the pod review is ${reviewBytes} bytes; the generator should make about 10 KB`);
  log(`pod AdmissionReview: ${reviewBytes} bytes`);

  log('bundling functions/worker/index.ts (minified)');
  const bundle = await workerBundleSize();

  const results: PlatformResult[] = [];
  await withServingCert(async (tls) => {
    const starters: [string, () => Promise<Platform>][] = [
      ['node in-process', nodeInProcess],
      ['node https', () => nodeHttps(tls)],
      ['miniflare https', () => miniflareHttps(tls)],
    ];
    for (const [name, start] of starters) {
      log(`${name}: starting`);
      const platform = await start();
      try {
        results.push(await measure(platform, reviews));
      } finally {
        await platform.close();
      }
    }
  });

  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const out = [
    `pod AdmissionReview body: ${reviewBytes} bytes (${kb(reviewBytes)}), ${DISTINCT_REVIEWS} distinct uids`,
    `load: ${CONCURRENCY} in flight; per platform and path ≤${MEASURE.requests} admissions or ≤${MEASURE.maxMs / 1000} s, in ${ROUNDS} echo/real alternating rounds after ${WARMUP.requests} warm-up each`,
    '',
    ...resultTable(results),
    '',
    'target: real ≤ 1.5× echo  (p50 ratio ≤ 1.50×, throughput ratio ≥ 0.67×)',
    'srv µs/adm: server process CPU per admission (node in-process: client and server together)',
    '',
    `worker bundle (functions/worker/index.ts, minified): ${bundle.rawBytes} bytes raw (${kb(bundle.rawBytes)}), ${bundle.gzipBytes} bytes gzipped (${kb(bundle.gzipBytes)})`,
    `target: < 1 MB gzipped  (${((bundle.gzipBytes / GZIP_TARGET_BYTES) * 100).toFixed(1)}% of it)`,
  ];
  process.stdout.write(`${out.join('\n')}\n`);
  return {
    reviewBytes,
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    bounds: MEASURE,
    warmupRequests: WARMUP.requests,
    platforms: results,
    bundle: { entry: 'functions/worker/index.ts', minified: true, ...bundle, gzipTargetBytes: GZIP_TARGET_BYTES },
    target: 'real <= 1.5x echo',
  };
}

export const runtimeScenario: Scenario = {
  summary: 'admission runtime vs echo floor on Node in-process, Node HTTPS, Miniflare HTTPS; Worker bundle size',
  run,
};
