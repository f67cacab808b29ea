// The README's first command, for real: `npm start` against a fresh control plane (no CRDs of
// ours yet), a file holding a SidecarSet and a pod it selects applied in one go, then Ctrl-C
// (SIGINT to the process group) while its output goes through `tee`, whose death breaks the pipe:
// the webhook configurations must be gone afterwards. And `--detach` only installs the CRDs.
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { REPO_ROOT, startControlPlane, stopControlPlane } from '../cluster/control-plane.js';
import { ALL_KINDS } from '../../src/api/index.js';
import { KubeHttp, type KubeObject } from '../../src/kube/http.js';
import { loadKubeConfig } from '../../src/kube/node-client.js';
import { isNotFound, KubeApiError } from '../../src/kube/errors.js';
import { MUTATING_CONFIG, VALIDATING_CONFIG } from '../../src/install/render.js';
import { eventually } from './support/kube.js';
import './provided.js';

const run = promisify(execFile);
const CLUSTER = 'start-e2e';
let kubeconfig = '';
let kube: KubeHttp;
let started: ChildProcess | undefined;

beforeAll(async () => {
  await stopControlPlane(CLUSTER, true); // fresh: nothing left from an earlier run
  kubeconfig = (await startControlPlane(CLUSTER)).kubeconfig;
  kube = await KubeHttp.fromKubeConfig(loadKubeConfig(kubeconfig));
});

afterAll(async () => {
  if (started?.pid && started.exitCode === null && started.signalCode === null) {
    try {
      process.kill(-started.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  kube?.close();
  await stopControlPlane(CLUSTER, true);
});

const gone = async (kind: string, name: string) =>
  kube.get('admissionregistration.k8s.io/v1', kind, name).then(() => false, (e: unknown) => {
    if (isNotFound(e)) return true;
    throw e;
  });

it('npm start on a fresh cluster: one file with a SidecarSet and its pod gives the pod the sidecar; Ctrl-C through a broken pipe removes the webhooks', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ks-start-'));
  const log = join(dir, 'start.log');
  // Its own process group, as a terminal gives a pipeline: Ctrl-C signals every process in it.
  started = spawn('bash', ['-c', `npm start 2>&1 | tee ${log}`], {
    cwd: REPO_ROOT, detached: true, stdio: 'ignore',
    env: { ...process.env, KUBECONFIG: kubeconfig, CI: 'true' },
  });
  const exited = new Promise<number | null>((r) => started!.once('exit', (code) => r(code)));
  await eventually('npm start running', async () => (readFileSync(log, 'utf8').includes('running; Ctrl-C to stop') ? true : undefined), 300_000, 500);
  const text = readFileSync(log, 'utf8');
  expect(text).not.toMatch(/KubeApiError/);
  expect(text).toMatch(/pushed \d+ collections, \d+ changed/);

  const manifest = join(dir, 'app.yaml');
  writeFileSync(manifest, [
    'apiVersion: apps.kruise.io/v1alpha1', 'kind: SidecarSet', 'metadata:', '  name: start-e2e', 'spec:',
    '  selector:', '    matchLabels:', '      app: start-e2e', '  containers:', '  - name: start-sidecar', '    image: busybox:1.36',
    '---',
    'apiVersion: v1', 'kind: Pod', 'metadata:', '  name: start-e2e', '  namespace: default', '  labels:', '    app: start-e2e',
    'spec:', '  automountServiceAccountToken: false', '  containers:', '  - name: main', '    image: app:1', '',
  ].join('\n'));
  await run(inject('kubectl'), ['apply', '-f', manifest], { env: { ...process.env, KUBECONFIG: kubeconfig } });
  const pod = await kube.get<KubeObject & { spec: { containers: { name: string }[] } }>('v1', 'Pod', 'start-e2e', 'default');
  expect(pod.spec.containers.map((c) => c.name)).toEqual(['start-sidecar', 'main']);
  expect(await gone('MutatingWebhookConfiguration', MUTATING_CONFIG)).toBe(false);

  // Deletion protection of Cascading CRDs, applied and deleted at once: OpenKruise's answers.
  const crd = (plural: string) => {
    const group = `${plural}.start-e2e.example.com`;
    const kind = plural[0]!.toUpperCase() + plural.slice(1, -1);
    return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
      metadata: { name: `${plural}.${group}`, labels: { 'policy.kruise.io/delete-protection': 'Cascading' } },
      spec: { group, scope: 'Namespaced', names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List` },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] } };
  };
  const deletion = (obj: KubeObject) => kube.delete(obj).then(() => 'deleted', (e: unknown) => (e instanceof KubeApiError ? `${e.status} ${(e.body as { message?: string }).message}` : String(e)));
  type Crd = KubeObject & { status?: { conditions?: { type: string; status: string }[] } };
  const established = (c: KubeObject) => eventually(`${c.metadata?.name} established`, async () =>
    ((await kube.get<Crd>('apiextensions.k8s.io/v1', 'CustomResourceDefinition', c.metadata!.name!)).status?.conditions ?? [])
      .some((x) => x.type === 'Established' && x.status === 'True') || undefined, 30_000, 50);
  const empty = crd('empties');
  await kube.create(empty);
  await established(empty); // before that, listing its resources fails (OpenKruise refuses with that error too)
  expect(await deletion(empty)).toBe('deleted');
  const used = crd('useds');
  await kube.create(used);
  const cr = { apiVersion: `${used.spec.group}/v1`, kind: 'Used', metadata: { name: 'u', namespace: 'default' } };
  await eventually('the Used CRD served', () => kube.create(cr), 30_000, 50);
  expect(await deletion(used)).toBe('403 admission webhook "vdelete.kruise-serverless.io" denied the request: '
    + 'forbidden by ResourcesProtectionDeletion for policy.kruise.io/delete-protection=Cascading and active CRs 1>0');

  process.kill(-started.pid!, 'SIGINT');
  await exited;
  // Removed by npm start itself, or by its guardian if npm start died first.
  await eventually('webhook configurations removed', async () =>
    (await gone('MutatingWebhookConfiguration', MUTATING_CONFIG)) && (await gone('ValidatingWebhookConfiguration', VALIDATING_CONFIG)) ? true : undefined, 30_000, 250);
  // Pods can be created again without an edge.
  await kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'after-stop', namespace: 'default' }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } });
}, 420_000);

const GUARDIAN_LOG = join(REPO_ROOT, '.kruise-serverless', 'webhook-guardian.log');
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('Ctrl-C, twice as npm and a terminal deliver it: npm start removes the webhooks itself, logs "stopped" and exits; no MaxListeners warning', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ks-start-'));
  const logFile = join(dir, 'start.log');
  const out = openSync(logFile, 'a');
  started = spawn('npm', ['start'], {
    cwd: REPO_ROOT, detached: true, stdio: ['ignore', out, out],
    env: { ...process.env, KUBECONFIG: kubeconfig, CI: 'true' },
  });
  const group = started.pid!;
  await eventually('npm start running', async () => (readFileSync(logFile, 'utf8').includes('running; Ctrl-C to stop') ? true : undefined), 300_000, 500);
  // Long enough for every watch to be open (the warning came with the eleventh).
  await new Promise((r) => setTimeout(r, 5000));
  const edgeUrl = /edge \(Worker under Miniflare\) on (\S+)/.exec(readFileSync(logFile, 'utf8'))?.[1];
  expect(edgeUrl).toBeDefined();
  expect(await gone('MutatingWebhookConfiguration', MUTATING_CONFIG)).toBe(false);

  process.kill(-group, 'SIGINT');
  await new Promise((r) => setTimeout(r, 50));
  process.kill(-group, 'SIGINT');
  // Every process of the group ends (npm itself exits 130 at once: its `sh -c` dies of the SIGINT).
  await eventually('npm start exited', async () => (readFileSync(logFile, 'utf8').includes('[start] stopped') ? true : undefined), 60_000, 250);
  const text = readFileSync(logFile, 'utf8');
  const lines = text.split('\n');
  expect(lines.indexOf('[start] stopping: removing webhook configurations')).toBeGreaterThan(lines.indexOf('[start] running; Ctrl-C to stop (webhook configurations are removed, the control plane keeps running)'));
  expect(text).not.toMatch(/MaxListenersExceededWarning/);
  expect(text).not.toMatch(/cleanup did not finish/);
  expect(await gone('MutatingWebhookConfiguration', MUTATING_CONFIG)).toBe(true);
  expect(await gone('ValidatingWebhookConfiguration', VALIDATING_CONFIG)).toBe(true);
  // The guardian was released, not left to remove them.
  await eventually('guardian released', async () => (existsSync(GUARDIAN_LOG) && readFileSync(GUARDIAN_LOG, 'utf8').includes(`npm start (edge ${edgeUrl}) released`) ? true : undefined), 10_000, 250);
  expect(readFileSync(GUARDIAN_LOG, 'utf8')).not.toContain(`npm start (edge ${edgeUrl}) ended without removing`);
  const survivors = () => execFileSyncPids(group).filter(alive);
  await eventually('no process of npm start left', async () => (survivors().length === 0 ? true : undefined), 10_000, 250);
}, 420_000);

/** The pids of a process group (ps), empty when none is left. */
function execFileSyncPids(group: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '-g', String(group)]).toString().split('\n').map((l) => Number(l.trim())).filter((n) => n > 0);
  } catch {
    return [];
  }
}

it('npm start -- --detach installs every CRD into $KUBECONFIG', async () => {
  const { stderr } = await run(join(REPO_ROOT, 'node_modules', '.bin', 'tsx'), ['scripts/start.ts', '--detach'], {
    cwd: REPO_ROOT,
    env: { ...process.env, KUBECONFIG: inject('kubeconfig') },
  });
  expect(stderr).toContain(`installed ${ALL_KINDS.length} CRDs`);
  expect(stderr).toContain('using $KUBECONFIG');
});
