// Starts and stops a real Kubernetes control plane on loopback: etcd (Debian's etcd-server),
// kube-apiserver, kube-controller-manager and kube-scheduler (built from Debian's kubernetes
// source by build-control-plane.sh). Processes are detached and tracked by pid in the state
// directory, so `npm start` can leave the cluster running and `down` stops exactly what `up` began.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensurePki, type Pki } from './pki.js';

const HERE = dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = resolve(HERE, '..', '..');
export const K8S_VERSION = '1.20.2';

export type ControlPlane = {
  name: string;
  dir: string;
  kubeconfig: string;
  server: string;
  token: string;
  pki: Pki;
  binDir: string;
  pids: Record<string, number>;
};

type State = Omit<ControlPlane, 'pki'> & { ports: Record<string, number> };

export function cacheDir(): string {
  return process.env.KS_CACHE ?? join(homedir(), '.cache', 'kruise-serverless');
}

export function binDir(): string {
  return join(cacheDir(), `k8s-${K8S_VERSION}`, 'bin');
}

export function stateDir(name: string): string {
  return join(REPO_ROOT, '.kruise-serverless', `cluster-${name}`);
}

/** Builds (or finds cached) control-plane binaries and etcd. Slow only the first time on a machine. */
export function ensureBinaries(): string {
  execFileSync('bash', [join(HERE, 'build-control-plane.sh')], { stdio: ['ignore', 'inherit', 'inherit'] });
  return binDir();
}

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', rej);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => res(port));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function launch(dir: string, name: string, cmd: string, args: string[]): number {
  const out = openSync(join(dir, `${name}.log`), 'a');
  const child = spawn(cmd, args, { detached: true, stdio: ['ignore', out, out] });
  child.unref();
  if (!child.pid) throw new Error(`could not start ${name}`);
  return child.pid;
}

function get(url: string, ca: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((res, rej) => {
    const req = request(url, { ca, headers: { Authorization: `Bearer ${token}` }, timeout: 5000 }, (r) => {
      let body = '';
      r.on('data', (c: Buffer) => (body += c.toString()));
      r.on('end', () => res({ status: r.statusCode ?? 0, body }));
    });
    req.on('error', rej);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.end();
  });
}

async function waitFor(what: string, dir: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) {
      throw new Error(`control plane: ${what} not ready after ${timeoutMs / 1000}s; see logs in ${dir}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

function kubeconfigYaml(server: string, caCert: string, token: string): string {
  const ca = readFileSync(caCert).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: local',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${ca}`,
    'users:',
    '- name: admin',
    '  user:',
    `    token: ${token}`,
    'contexts:',
    '- name: local',
    '  context: {cluster: local, user: admin}',
    'current-context: local',
    '',
  ].join('\n');
}

function readState(dir: string): State | undefined {
  const file = join(dir, 'state.json');
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as State;
}

async function isHealthy(state: State, caCert: string): Promise<boolean> {
  if (!Object.values(state.pids).every(isAlive)) return false;
  const r = await get(`${state.server}/readyz`, readFileSync(caCert, 'utf8'), state.token).catch(() => undefined);
  return r?.status === 200;
}

/**
 * Opt-in (benchmarks only): `controllerManagerVia` is handed the API server's address and the PKI
 * once it is up and returns the address kube-controller-manager should talk to instead (a counting
 * proxy that presents the API server's certificate).
 */
export type ControlPlaneOptions = {
  controllerManagerVia?: (apiserver: string, pki: Pki) => Promise<string>;
  /** kube-apiserver serves /debug/pprof (`--profiling=true`), for CPU profiles of benchmarks; off by default. */
  profiling?: boolean;
};

/** Starts the named control plane, or returns the one already running under that name. */
export async function startControlPlane(name: string, log: (m: string) => void = () => {}, opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const dir = stateDir(name);
  mkdirSync(dir, { recursive: true });
  const pki = ensurePki(dir);
  const existing = readState(dir);
  if (existing && (await isHealthy(existing, pki.caCert))) {
    log(`control plane "${name}" already running at ${existing.server}`);
    return { ...existing, pki };
  }
  if (existing) await stopPids(existing.pids);

  const bin = ensureBinaries();
  const ports = { etcd: await freePort(), etcdPeer: await freePort(), apiserver: await freePort() };
  const token = readTokenOrCreate(dir);
  const server = `https://127.0.0.1:${ports.apiserver}`;
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigYaml(server, pki.caCert, token), { mode: 0o600 });
  writeFileSync(join(dir, 'tokens.csv'), `${token},admin,admin,system:masters\n`, { mode: 0o600 });

  const pids: Record<string, number> = {};
  const save = () => writeFileSync(join(dir, 'state.json'), JSON.stringify({ name, dir, kubeconfig, server, token, binDir: bin, pids, ports }, null, 2));

  rmSync(join(dir, 'etcd'), { recursive: true, force: true });
  log(`starting etcd on 127.0.0.1:${ports.etcd}`);
  pids.etcd = launch(dir, 'etcd', 'etcd', [
    '--name=default', `--data-dir=${join(dir, 'etcd')}`,
    `--listen-client-urls=http://127.0.0.1:${ports.etcd}`, `--advertise-client-urls=http://127.0.0.1:${ports.etcd}`,
    `--listen-peer-urls=http://127.0.0.1:${ports.etcdPeer}`, `--initial-advertise-peer-urls=http://127.0.0.1:${ports.etcdPeer}`,
    `--initial-cluster=default=http://127.0.0.1:${ports.etcdPeer}`, '--log-level=warn',
  ]);
  save();

  log(`starting kube-apiserver ${K8S_VERSION} on ${server}`);
  pids.apiserver = launch(dir, 'kube-apiserver', join(bin, 'kube-apiserver'), [
    `--etcd-servers=http://127.0.0.1:${ports.etcd}`,
    '--bind-address=127.0.0.1', '--advertise-address=127.0.0.1', `--secure-port=${ports.apiserver}`, '--insecure-port=0',
    `--cert-dir=${join(dir, 'apiserver-certs')}`,
    `--tls-cert-file=${pki.apiserverCert}`, `--tls-private-key-file=${pki.apiserverKey}`, `--client-ca-file=${pki.caCert}`,
    `--token-auth-file=${join(dir, 'tokens.csv')}`, '--authorization-mode=Node,RBAC',
    `--service-account-key-file=${pki.serviceAccountPub}`, `--service-account-signing-key-file=${pki.serviceAccountKey}`,
    '--service-account-issuer=https://kubernetes.default.svc', '--service-cluster-ip-range=10.96.0.0/16',
    '--allow-privileged=true', `--profiling=${opts.profiling === true}`, '--event-ttl=1h', '--v=1',
    // Alpha in 1.20: serves pods/ephemeralcontainers (EphemeralJob injects through it).
    '--feature-gates=EphemeralContainers=true',
  ]);
  save();
  const ca = readFileSync(pki.caCert, 'utf8');
  await waitFor('kube-apiserver', dir, async () => (await get(`${server}/readyz`, ca, token)).status === 200, 90_000);

  log('starting kube-controller-manager and kube-scheduler');
  let controllerManagerKubeconfig = kubeconfig;
  if (opts.controllerManagerVia) {
    controllerManagerKubeconfig = join(dir, 'kubeconfig-controller-manager');
    writeFileSync(controllerManagerKubeconfig, kubeconfigYaml(await opts.controllerManagerVia(server, pki), pki.caCert, token), { mode: 0o600 });
  }
  pids.controllerManager = launch(dir, 'kube-controller-manager', join(bin, 'kube-controller-manager'), [
    `--kubeconfig=${controllerManagerKubeconfig}`, '--port=0', '--secure-port=0', '--leader-elect=false',
    '--controllers=*,-nodeipam,-nodelifecycle,-attachdetach,-persistentvolume-binder,-cloud-node-lifecycle',
    `--service-account-private-key-file=${pki.serviceAccountKey}`, `--root-ca-file=${pki.caCert}`,
    '--use-service-account-credentials=false', '--concurrent-deployment-syncs=5', '--concurrent-replicaset-syncs=5',
    '--kube-api-qps=200', '--kube-api-burst=400', '--v=1',
  ]);
  pids.scheduler = launch(dir, 'kube-scheduler', join(bin, 'kube-scheduler'), [
    `--kubeconfig=${kubeconfig}`, '--port=0', '--secure-port=0', '--leader-elect=false',
    '--kube-api-qps=200', '--kube-api-burst=400', '--v=1',
  ]);
  save();
  await waitFor('default service account', dir, async () => {
    const r = await get(`${server}/api/v1/namespaces/default/serviceaccounts/default`, ca, token);
    return r.status === 200;
  }, 60_000);
  log(`control plane "${name}" ready; KUBECONFIG=${kubeconfig}`);
  return { name, dir, kubeconfig, server, token, pki, binDir: bin, pids };
}

function readTokenOrCreate(dir: string): string {
  const file = join(dir, 'admin.token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = execFileSync('openssl', ['rand', '-hex', '32']).toString().trim();
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}

async function stopPids(pids: Record<string, number>): Promise<void> {
  const order = ['scheduler', 'controllerManager', 'apiserver', 'etcd'];
  for (const key of [...order, ...Object.keys(pids).filter((k) => !order.includes(k))]) {
    const pid = pids[key];
    if (pid === undefined || !isAlive(pid)) continue;
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 10_000;
  for (const pid of Object.values(pids)) {
    while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/** Stops the processes the named control plane started (by pid); keeps its PKI unless `purge`. */
export async function stopControlPlane(name: string, purge = false): Promise<boolean> {
  const dir = stateDir(name);
  const state = readState(dir);
  if (state) await stopPids(state.pids);
  rmSync(join(dir, 'state.json'), { force: true });
  if (purge) rmSync(dir, { recursive: true, force: true });
  return Boolean(state);
}
