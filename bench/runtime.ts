// Scenario "runtime": what the admission runtime (path-secret auth, dispatch, a state read, a
// mutating handler, JSON Patch) costs over the floor each platform imposes (an echo that only
// parses and answers), on Node in-process, Node over HTTPS and Miniflare over HTTPS; plus the
// production Worker's bundle size. Echo and real rounds alternate so machine noise hits both.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Hono } from 'hono';
import { Agent, fetch as undiciFetch } from 'undici';
import { newSecret } from '../src/admission/auth.js';
import { bundleWorker, startLocalWorker, WORKER_ENTRY, type LocalWorker } from '../scripts/local-worker.js';
import { REPO_ROOT } from '../test/cluster/control-plane.js';
import { ensurePki, issueServingCert } from '../test/cluster/pki.js';
import { STAMP_CLUSTER, STAMP_TEAM } from '../test/e2e/fixtures/stamp-feature.js';
import { descendants } from './cpu.js';
import { buildEchoApp } from './echo-app.js';
import { drive, figures, mergeTallies, type Bounds, type Send, type Tally } from './load.js';
import { BENCH_TEAM, pushNamespaces } from './namespaces.js';
import type { NodeTargets } from './node-target.js';
import { podReviewBodies } from './pod-review.js';
import { buildRealApp, BENCH_CLUSTER } from './real-app.js';
import { ratios, resultTable, type PlatformResult } from './report.js';
import type { Scenario } from './webhook.js';

const CONCURRENCY = 8;
/** Per platform and path: at most this many measured admissions, in at most this long. */
const MEASURE = { requests: 2_000, maxMs: 12_000 };
const ROUNDS = 8;
const WARMUP: Bounds = { requests: 400, concurrency: CONCURRENCY, maxMs: 4_000 };
const DISTINCT_REVIEWS = 64;
const GZIP_TARGET_BYTES = 1024 * 1024;

const BENCH_DIR = join(REPO_ROOT, 'bench');
const ECHO_WORKER = join(BENCH_DIR, 'echo-worker.ts');
const STAMP_WORKER = join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'stamp-worker.ts');
const NODE_TARGET = join(BENCH_DIR, 'node-target.ts');
const JSON_HEADERS = { 'content-type': 'application/json' };

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

type Answer = { status: number; text: string };
/** One admission over some transport: body in, HTTP answer out. */
type Exchange = (body: string) => Promise<Answer>;
type Target = { exchange: Exchange; serverPids: number[] };
type Platform = { name: string; clusterId: string; echo: Target; real: Target; close(): Promise<void> };
type Reviews = { uids: string[]; bodies: string[] };

function inProcess(app: Hono, path: string): Exchange {
  return async (body) => {
    const res = await app.request(path, { method: 'POST', body, headers: JSON_HEADERS });
    return { status: res.status, text: await res.text() };
  };
}

function overHttps(agent: Agent, url: string): Exchange {
  return async (body) => {
    const res = await undiciFetch(url, { method: 'POST', body, headers: JSON_HEADERS, dispatcher: agent });
    return { status: res.status, text: await res.text() };
  };
}

/** Keep-alive HTTPS to 127.0.0.1, trusting only the benchmark's CA; one connection per request in flight. */
const trustingAgent = (ca: string) => new Agent({ connect: { ca }, connections: CONCURRENCY, keepAliveTimeout: 30_000 });

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

/** Starts bench/node-target.ts in its own process and waits for its URLs. */
async function nodeHttps(tls: { certPath: string; keyPath: string; ca: string }): Promise<Platform> {
  const child = spawn(process.execPath, ['--import', 'tsx', NODE_TARGET, tls.certPath, tls.keyPath], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  let targets: NodeTargets;
  try {
    targets = await new Promise<NodeTargets>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('node target did not start within 30s')), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const nl = out.indexOf('\n');
        if (nl < 0) return;
        clearTimeout(timer);
        resolve(JSON.parse(out.slice(0, nl)) as NodeTargets);
      });
      void exited.then(() => reject(new Error(`node target exited (code ${child.exitCode}) before listening`)));
    });
  } catch (e) {
    await stop();
    throw e;
  }
  const agent = trustingAgent(tls.ca);
  const pids = [targets.pid];
  return {
    name: 'node https',
    clusterId: BENCH_CLUSTER,
    echo: { exchange: overHttps(agent, targets.echoUrl + targets.webhookPath), serverPids: pids },
    real: { exchange: overHttps(agent, targets.realUrl + targets.webhookPath), serverPids: pids },
    close: async () => {
      await agent.close();
      await stop();
    },
  };
}

/** The workerd processes started since `known` (Miniflare runs one per instance). */
function newWorkerd(known: Set<number>): number[] {
  const pids = [...descendants()].filter(([pid, comm]) => !known.has(pid) && comm.includes('workerd')).map(([pid]) => pid);
  for (const pid of pids) known.add(pid);
  return pids;
}

async function miniflareHttps(tls: { cert: string; key: string; ca: string }): Promise<Platform> {
  const known = new Set(descendants().keys());
  const started: LocalWorker[] = [];
  const agent = trustingAgent(tls.ca);
  const close = async () => {
    await agent.close();
    for (const w of started) await w.dispose();
  };
  try {
    const echo = await startLocalWorker({ entry: ECHO_WORKER, tls });
    started.push(echo);
    const echoPids = newWorkerd(known);
    const adminToken = newSecret();
    const real = await startLocalWorker({ entry: STAMP_WORKER, tls, adminToken });
    started.push(real);
    const realPids = newWorkerd(known);

    const fetch = (url: string, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>;
    const clusterId = 'bench-edge';
    const res = await fetch(`${real.url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: JSON.stringify({ clusterId }) });
    if (res.status !== 201) throw new Error(`registering the cluster: ${res.status} ${await res.text()}`);
    const creds = (await res.json()) as { webhookSecret: string; syncToken: string };
    await pushNamespaces({ baseUrl: real.url, clusterId, syncToken: creds.syncToken, fetch });
    const path = `/clusters/${clusterId}/${creds.webhookSecret}/mutate-pod`;
    return {
      name: 'miniflare https',
      clusterId,
      echo: { exchange: overHttps(agent, echo.url + path), serverPids: echoPids },
      real: { exchange: overHttps(agent, real.url + path), serverPids: realPids },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
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
  const tallies: { echo: Tally[]; real: Tally[] } = { echo: [], real: [] };
  log(`${p.name}: measuring, ${ROUNDS} alternating rounds of ≤${round.requests} admissions or ≤${round.maxMs} ms per path`);
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? (['echo', 'real'] as const) : (['real', 'echo'] as const);
    for (const path of order) {
      tallies[path].push(await drive(path === 'echo' ? echo : real, round, p[path].serverPids));
    }
  }
  const e = figures(mergeTallies(tallies.echo));
  const rl = figures(mergeTallies(tallies.real));
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

  const pkiDir = mkdtempSync(join(tmpdir(), 'ks-bench-pki-'));
  const results: PlatformResult[] = [];
  try {
    ensurePki(pkiDir);
    const serving = issueServingCert(pkiDir, 'bench', ['localhost'], ['127.0.0.1']);
    const tls = {
      certPath: serving.cert,
      keyPath: serving.key,
      cert: readFileSync(serving.cert, 'utf8'),
      key: readFileSync(serving.key, 'utf8'),
      ca: readFileSync(join(pkiDir, 'ca.crt'), 'utf8'),
    };
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
  } finally {
    rmSync(pkiDir, { recursive: true, force: true });
  }

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
