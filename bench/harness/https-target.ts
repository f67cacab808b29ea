// The end-to-end scenarios' targets: a serving certificate from a throwaway CA, keep-alive HTTPS
// clients trusting only it, the echo and the real Worker under Miniflare with a registered
// cluster, and a Node target in its own process.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, fetch as undiciFetch } from 'undici';
import { newSecret } from '../../src/edge-state/auth.js';
import type { EdgeTarget, Fetch } from '../../src/edge-state/push.js';
import { startLocalWorker, type LocalWorker } from '../../scripts/local-worker.js';
import { REPO_ROOT } from '../../test/cluster/control-plane.js';
import { ensurePki, issueServingCert } from '../../test/cluster/pki.js';
import { descendants } from './cpu.js';

const ECHO_WORKER = join(REPO_ROOT, 'bench', 'harness', 'echo-worker.ts');

export type Answer = { status: number; text: string };
/** One admission over some transport: body in, HTTP answer out. */
export type Exchange = (body: string) => Promise<Answer>;
export type Tls = { certPath: string; keyPath: string; cert: string; key: string; ca: string };

/** Runs `use` with a serving certificate for 127.0.0.1 from a fresh CA, removed afterwards. */
export async function withServingCert<T>(use: (tls: Tls) => Promise<T>): Promise<T> {
  const pkiDir = mkdtempSync(join(tmpdir(), 'ks-bench-pki-'));
  try {
    ensurePki(pkiDir);
    const serving = issueServingCert(pkiDir, 'bench', ['localhost'], ['127.0.0.1']);
    const tls: Tls = {
      certPath: serving.cert,
      keyPath: serving.key,
      cert: readFileSync(serving.cert, 'utf8'),
      key: readFileSync(serving.key, 'utf8'),
      ca: readFileSync(join(pkiDir, 'ca.crt'), 'utf8'),
    };
    return await use(tls);
  } finally {
    rmSync(pkiDir, { recursive: true, force: true });
  }
}

/** Keep-alive HTTPS to 127.0.0.1, trusting only the benchmark's CA; one connection per request in flight. */
export const trustingAgent = (ca: string, connections: number) => new Agent({ connect: { ca }, connections, keepAliveTimeout: 30_000 });

export const fetchVia = (agent: Agent): Fetch => (url, init) => undiciFetch(url, { ...(init as object), dispatcher: agent }) as unknown as Promise<Response>;

export function overHttps(agent: Agent, url: string): Exchange {
  return async (body) => {
    const res = await undiciFetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' }, dispatcher: agent });
    return { status: res.status, text: await res.text() };
  };
}

/** The echo and the real Worker under Miniflare; `edge` is where a reconciler would push the cluster's state. */
export type MiniflarePair = {
  echoUrl: string;
  realUrl: string;
  echoPids: number[];
  realPids: number[];
  edge: EdgeTarget & { fetch: Fetch };
  webhookSecret: string;
  agent: Agent;
  close(): Promise<void>;
};

/**
 * Starts the echo Worker and `entry` (default: functions/worker/index.ts), registers `clusterId`
 * on the latter and runs `prepare` (push the cluster's state); stops both if any step fails.
 */
export async function startMiniflarePair(opts: {
  tls: Tls;
  connections: number;
  clusterId: string;
  entry?: string;
  prepare(edge: MiniflarePair['edge']): Promise<unknown>;
}): Promise<MiniflarePair> {
  const known = new Set(descendants().keys());
  // Miniflare runs one workerd per instance: the ones started since the last call are this instance's.
  const newWorkerd = () => {
    const pids = [...descendants()].filter(([pid, comm]) => !known.has(pid) && comm.includes('workerd')).map(([pid]) => pid);
    for (const pid of pids) known.add(pid);
    return pids;
  };
  const started: LocalWorker[] = [];
  const agent = trustingAgent(opts.tls.ca, opts.connections);
  const close = async () => {
    await agent.close();
    for (const w of started) await w.dispose();
  };
  try {
    const echo = await startLocalWorker({ entry: ECHO_WORKER, tls: opts.tls });
    started.push(echo);
    const echoPids = newWorkerd();
    const adminToken = newSecret();
    const real = await startLocalWorker({ ...(opts.entry ? { entry: opts.entry } : {}), tls: opts.tls, adminToken });
    started.push(real);
    const realPids = newWorkerd();
    const fetch = fetchVia(agent);
    const { clusterId } = opts;
    const res = await fetch(`${real.url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` }, body: JSON.stringify({ clusterId }) });
    if (res.status !== 201) throw new Error(`registering the cluster: ${res.status} ${await res.text()}`);
    const creds = (await res.json()) as { webhookSecret: string; syncToken: string };
    const edge = { baseUrl: real.url, clusterId, syncToken: creds.syncToken, fetch };
    await opts.prepare(edge);
    return { echoUrl: echo.url, realUrl: real.url, echoPids, realPids, edge, webhookSecret: creds.webhookSecret, agent, close };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * Starts `script` (node --import tsx <script> <cert.pem> <key.pem>) in its own process and waits
 * for the one JSON line it prints when listening; `stop` closes its stdin, which ends it.
 */
export async function startNodeProcess<T>(script: string, tls: Tls): Promise<{ target: T; stop(): Promise<void> }> {
  // KS_BENCH_CPU_PROFILE=<dir>: the target writes a V8 CPU profile there when it exits.
  const profile = process.env.KS_BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.KS_BENCH_CPU_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', script, tls.certPath, tls.keyPath], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const target = await new Promise<T>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('node target did not start within 30s')), 30_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const nl = out.indexOf('\n');
        if (nl < 0) return;
        clearTimeout(timer);
        resolve(JSON.parse(out.slice(0, nl)) as T);
      });
      void exited.then(() => reject(new Error(`node target exited (code ${child.exitCode}) before listening`)));
    });
    return { target, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}
