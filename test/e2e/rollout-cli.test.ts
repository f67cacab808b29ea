// `kruise-serverless rollout` as a user runs it: the real CLI process (bin launcher, $KUBECONFIG)
// against the API server, with the CloneSet controller on the Node loop and the fake kubelet.
// `rollout status` returns on its own when the rollout finishes: the tests await its exit.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { cloneSetFeature } from '../../src/cloneset/index.js';
import { cloneSetReconciler } from '../../src/cloneset/controller/reconciler.js';
import type { KubeObject } from '../../src/kube/http.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { buildCliBundle } from './support/cli-bundle.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';

const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
type Status = { observedGeneration?: number; updatedReplicas?: number; updatedAvailableReplicas?: number; readyReplicas?: number; updateRevision?: string };
type CloneSetObj = KubeObject & { metadata: { name: string; generation?: number }; spec: { template: { spec: { containers: { image: string }[] } } }; status?: Status };

let env: EdgeEnv;
let stopLoop: (() => Promise<void>) | undefined;

/** The CloneSet controller on the Node loop, as `kruise-serverless reconcile` runs it. */
function startLoop(): void {
  const stop = new AbortController();
  const loop = runLoop({
    kube: env.kube, reconcilers: [cloneSetReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `rollout-cli-${scope.kind}` }),
  });
  stopLoop = async () => {
    stop.abort();
    await loop;
    stopLoop = undefined;
  };
}

beforeAll(async () => {
  await buildCliBundle();
  env = await startEdgeEnv('rollout', [cloneSetFeature]);
  startLoop();
});
afterAll(async () => {
  await stopLoop?.();
  await env?.dispose();
});

type Result = { code: number; stdout: string; stderr: string };
type Running = { waitFor(pattern: RegExp): Promise<string>; exit: Promise<Result> };

/** Starts `node bin/kruise-serverless.js rollout ARGS -n <ns>` with $KUBECONFIG; stdout is a pipe (no TTY). */
function startCli(...args: string[]): Running {
  const child = spawn(process.execPath, ['bin/kruise-serverless.js', 'rollout', ...args, '-n', env.ns], { cwd: REPO_ROOT, env: { ...process.env, KUBECONFIG: inject('kubeconfig') } });
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
    for (const w of watchers) w();
  });
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const exit = new Promise<Result>((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr })));
  return {
    exit,
    /** Resolves with the first stdout line matching, as soon as it is printed. */
    waitFor: (pattern) => new Promise<string>((resolve, reject) => {
      const check = () => {
        const hit = stdout.split('\n').find((l) => pattern.test(l));
        if (hit !== undefined) {
          watchers.delete(check);
          resolve(hit);
        }
      };
      watchers.add(check);
      check();
      void exit.then((r) => reject(new Error(`rollout ${args.join(' ')} exited ${r.code} before printing ${pattern}:\n${r.stdout}${r.stderr}`)));
    }),
  };
}
const cli = (...args: string[]): Promise<Result> => startCli(...args).exit;

const getCloneSet = () => env.kube.get<CloneSetObj>(CS.apiVersion, CS.kind, 'web', env.ns);
const images = async () =>
  (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: 'app=web' })).items
    .filter((p) => !p.metadata.deletionTimestamp).map((p) => p.spec?.containers[0]?.image).sort();
const setImage = async (image: string, strategy: Record<string, unknown> = {}) =>
  env.kube.patch(await getCloneSet(), { spec: { updateStrategy: strategy, template: { spec: { containers: [{ name: 'main', image }] } } } });

describe('kruise-serverless rollout (CloneSet)', () => {
  let firstUpdateRevision: string | undefined;

  it('refuses an unsupported kind as a usage error (exit 2), naming the supported ones', async () => {
    const r = await cli('status', 'deployment/web');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('kind "deployment" is not supported (supported: cloneset, statefulset, daemonset)');
  });

  it('status follows a rollout through the watch API and returns once it completes', async () => {
    await env.kube.create({
      ...CS, metadata: { name: 'web', namespace: env.ns },
      spec: {
        replicas: 3, selector: { matchLabels: { app: 'web' } }, updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 },
        template: { metadata: { labels: { app: 'web' } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } },
      },
    });
    const created = await cli('status', 'cloneset/web', '--timeout', '60s');
    expect(created.code, created.stderr).toBe(0);
    firstUpdateRevision = (await getCloneSet()).status?.updateRevision;

    // With the controller stopped, the rollout is certainly in progress when status starts.
    await stopLoop?.();
    await setImage('app:2');
    const status = startCli('status', 'cloneset/web', '--timeout', '90s');
    await status.waitFor(/waiting on: the controller to observe generation 2 \(status is at 1\)/);
    startLoop();
    const r = await status.exit;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^cloneset\/web successfully rolled out: 3 pods updated and available at revision web-\w+$/m);
    expect(r.stdout).toContain('3/3/3 updated/ready/total');
    const cs = await getCloneSet();
    expect(cs.status).toMatchObject({ observedGeneration: cs.metadata.generation, updatedReplicas: 3, updatedAvailableReplicas: 3 });
    expect(await images()).toEqual(['app:2', 'app:2', 'app:2']);

    // Already rolled out when status starts: it says so and exits at once (it once went on
    // watching, ignoring its own --timeout, when the first LIST already showed the rollout done).
    const again = await cli('status', 'cloneset/web', '--timeout', '60s');
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/successfully rolled out: 3 pods updated and available/);
  });

  it('pause stops the controller from updating pods; status says so; resume lets the rollout complete', async () => {
    expect(await cli('pause', 'cloneset/web')).toMatchObject({ code: 0, stdout: 'cloneset.apps.kruise.io/web paused\n' });
    expect(await cli('pause', 'cloneset/web')).toMatchObject({ code: 0, stdout: 'cloneset.apps.kruise.io/web already paused\n' });
    await setImage('app:3');
    const status = startCli('status', 'cloneset/web');
    // The controller has observed the new template (else status would wait on that) and updated no pod.
    await status.waitFor(/ 0\/3\/3 updated\/ready\/total, waiting on: updates paused \(spec\.updateStrategy\.paused\)$/);
    expect(await images()).toEqual(['app:2', 'app:2', 'app:2']);
    const once = await cli('status', 'cloneset/web', '--no-watch');
    expect(once.code).toBe(1);
    expect(once.stdout).toContain('waiting on: updates paused');
    const timedOut = await cli('status', 'cloneset/web', '--timeout', '1s');
    expect(timedOut.code).toBe(1);
    expect(timedOut.stderr).toContain('timed out after 1s waiting for cloneset/web to roll out; waiting on: updates paused');

    expect(await cli('resume', 'cloneset/web')).toMatchObject({ code: 0, stdout: 'cloneset.apps.kruise.io/web resumed\n' });
    const r = await status.exit;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/successfully rolled out: 3 pods updated and available/);
    expect(await images()).toEqual(['app:3', 'app:3', 'app:3']);
    expect(await cli('resume', 'cloneset/web')).toMatchObject({ code: 0, stdout: 'cloneset.apps.kruise.io/web already resumed\n' });
  });

  it('undo puts the previous template back and the controller rolls the pods back to it', async () => {
    const unknown = await cli('undo', 'cloneset/web', '--to-revision', '99');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('cloneset.apps.kruise.io/web: unable to find specified revision 99 in history');

    expect(await cli('undo', 'cloneset/web')).toMatchObject({ code: 0, stdout: 'cloneset.apps.kruise.io/web rolled back\n' });
    expect((await getCloneSet()).spec.template.spec.containers[0]?.image).toBe('app:2');
    const r = await cli('status', 'cloneset/web', '--timeout', '90s');
    expect(r.code, r.stderr).toBe(0);
    expect(await images()).toEqual(['app:2', 'app:2', 'app:2']);

    // --to-revision 1: the very first template, and its revision name comes back (renumbered).
    expect(await cli('undo', 'cloneset/web', '--to-revision', '1')).toMatchObject({ code: 0, stdout: 'cloneset.apps.kruise.io/web rolled back\n' });
    expect((await cli('status', 'cloneset/web', '--timeout', '90s')).code).toBe(0);
    expect(await images()).toEqual(['app:1', 'app:1', 'app:1']);
    expect((await getCloneSet()).status?.updateRevision).toBe(firstUpdateRevision);
  });

  it('status returns at a partition: "partitioned roll out complete"', async () => {
    await setImage('app:4', { partition: 2 });
    const r = await cli('status', 'cloneset/web', '--timeout', '90s');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^cloneset\/web partitioned roll out complete: 1 of 3 pods updated at revision web-\w+ \(partition 2\)$/m);
    expect(await images()).toEqual(['app:1', 'app:1', 'app:4']);
  });

  it('restart stamps the template with kubectl.kruise.io/restartedAt (as kubectl-kruise), a new revision history lists', async () => {
    await setImage('app:4', { partition: 0 });
    expect((await cli('status', 'cloneset/web', '--timeout', '90s')).code).toBe(0);
    const before = await cli('history', 'cloneset/web', '-o', 'json');
    const revisions = (JSON.parse(before.stdout) as { revision: number }[]).map((e) => e.revision);
    expect(await cli('restart', 'cloneset/web')).toMatchObject({ code: 0, stdout: 'cloneset.apps.kruise.io/web restarted\n' });
    const cs = await getCloneSet() as CloneSetObj & { spec: { template: { metadata?: { annotations?: Record<string, string> } } } };
    expect(cs.spec.template.metadata?.annotations?.['kubectl.kruise.io/restartedAt']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await cli('status', 'cloneset/web', '--timeout', '90s')).code).toBe(0);
    const table = await cli('history', 'cloneset/web');
    expect(table.stdout).toMatch(/^cloneset\.apps\.kruise\.io\/web\nREVISION  CHANGE-CAUSE\n/);
    expect(table.stdout).toContain(`\n${Math.max(...revisions) + 1}         <none>\n`);
  });
});
