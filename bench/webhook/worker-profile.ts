// A V8 CPU profile of the production Worker under Miniflare while it admits pods matched by <k> of
// the sidecarset scenario's 1,000 SidecarSets over HTTPS, 8 in flight: what workerd's JavaScript
// spends its time on (the Worker and its Durable Objects share the isolate), taken through the
// inspector. For profiling, not a benchmark. Prints the server CPU per admission of the profiled
// stretch (profiling adds to it) and writes <dir>/worker.cpuprofile (Chrome DevTools, or
// bench/harness/profile-top.ts) beside <dir>/worker.js, the bundle its script-0 line numbers refer to.
// Usage: node --import tsx bench/webhook/worker-profile.ts <dir> [k] [admissions]
import '../harness/offline-env.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { WebSocket } from 'undici';
import { stop as stopEsbuild } from 'esbuild';
import { newSecret } from '../../src/edge-state/auth.js';
import { bundleWorker, startLocalWorker } from '../../scripts/local-worker.js';
import { cpuMsOf, descendants } from '../harness/cpu.js';
import { fetchVia, overHttps, trustingAgent, withServingCert } from '../harness/https-target.js';
import { drive } from '../harness/load.js';
import { buildBenchCluster, matchedPodReviews, MATCH_COUNTS, type MatchCount } from './sidecarset/cluster.js';
import { pushCluster } from './sidecarset/main.js';

const [dir, kArg, nArg] = process.argv.slice(2);
const k = Number(kArg ?? 10) as MatchCount;
const n = Number(nArg ?? 3000);
if (!dir || !MATCH_COUNTS.includes(k) || !(n > 0)) throw new Error(`usage: worker-profile.ts <dir> [${MATCH_COUNTS.join('|')}] [admissions]`);
const IN_FLIGHT = 8;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A minimal Chrome DevTools Protocol client over the inspector's WebSocket. */
async function inspector(port: number): Promise<{ send<T>(method: string, params?: object): Promise<T>; close(): void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json`)).json()) as { id: string; title?: string; webSocketDebuggerUrl?: string }[];
  const target = targets.find((t) => t.webSocketDebuggerUrl && !t.title?.includes('loopback')) ?? targets[0];
  if (!target?.webSocketDebuggerUrl) throw new Error(`no inspector target: ${JSON.stringify(targets)}`);
  process.stderr.write(`profiling inspector target ${target.title ?? target.id}\n`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve, { once: true });
    ws.addEventListener('error', reject, { once: true });
  });
  let next = 1;
  const waiting = new Map<number, (msg: { result?: unknown; error?: unknown }) => void>();
  ws.addEventListener('message', (e) => {
    const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown; error?: unknown };
    if (msg.id !== undefined) waiting.get(msg.id)?.(msg);
  });
  return {
    send<T>(method: string, params: object = {}) {
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, (msg) => (msg.error ? reject(new Error(`${method}: ${JSON.stringify(msg.error)}`)) : resolve(msg.result as T)));
        ws.send(JSON.stringify({ id, method, params }));
      });
    },
    close: () => ws.close(),
  };
}

const cluster = await buildBenchCluster();
await withServingCert(async (tls) => {
  const known = new Set(descendants().keys());
  const inspectorPort = await freePort();
  const adminToken = newSecret();
  const script = await bundleWorker(); // written next to the profile, to read its positions
  const worker = await startLocalWorker({ tls, adminToken, inspectorPort });
  const agent = trustingAgent(tls.ca, IN_FLIGHT);
  try {
    const url = worker.url;
    const pids = [...descendants()].filter(([pid, comm]) => !known.has(pid) && comm.includes('workerd')).map(([pid]) => pid);
    const fetch = fetchVia(agent);
    const res = await fetch(`${url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: JSON.stringify({ clusterId: 'profile' }) });
    const creds = (await res.json()) as { webhookSecret: string; syncToken: string };
    await pushCluster(cluster, { baseUrl: url, clusterId: 'profile', syncToken: creds.syncToken, fetch });
    const exchange = overHttps(agent, `${url}/clusters/profile/${creds.webhookSecret}/mutate-pod`);
    const { bodies } = matchedPodReviews(k, 64);
    const send = async (i: number) => {
      const { status, text } = await exchange(bodies[i % bodies.length]!);
      return status === 200 && text.includes('"patch":');
    };
    await drive(send, { requests: 1_500, concurrency: IN_FLIGHT, maxMs: 20_000 }, pids); // warm up
    const unprofiled = await drive(send, { requests: n, concurrency: IN_FLIGHT, maxMs: 60_000 }, pids);
    const cdp = await inspector(inspectorPort);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    const cpu0 = cpuMsOf(pids);
    const profiled = await drive(send, { requests: n, concurrency: IN_FLIGHT, maxMs: 60_000 }, pids);
    const cpu1 = cpuMsOf(pids);
    const { profile } = await cdp.send<{ profile: unknown }>('Profiler.stop');
    cdp.close();
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'worker.cpuprofile');
    writeFileSync(file, JSON.stringify(profile));
    writeFileSync(join(dir, 'worker.js'), script);
    const per = (ms: number | undefined, count: number) => (ms === undefined ? '-' : ((ms * 1000) / count).toFixed(0));
    process.stdout.write(`${k} matching: workerd CPU per admission ${per(unprofiled.serverCpuMs, unprofiled.latenciesMs.length)} µs unprofiled, ${per(cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0, profiled.latenciesMs.length)} µs profiled (${profiled.failed} failed); ${file}\n`);
  } finally {
    await agent.close();
    await worker.dispose();
  }
});
await stopEsbuild();
