// `kruise-serverless rollout` for Advanced StatefulSet and Advanced DaemonSet, as a user runs it:
// the real CLI process against the API server, with both controllers on the Node loop and the fake
// kubelet running the pods. Every verb: status, history, pause/resume, restart, undo; and
// --context choosing the kubeconfig's context. (The CloneSet's: rollout-cli.test.ts.)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { parse, stringify } from 'yaml';
import { daemonSetFeature } from '../../src/daemonset/index.js';
import { daemonSetReconciler } from '../../src/daemonset/controller/reconciler.js';
import type { KubeObject } from '../../src/kube/http.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { statefulSetReconciler } from '../../src/statefulset/controller/reconciler.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { buildCliBundle } from './support/cli-bundle.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';

type Workload = KubeObject & {
  metadata: { name: string; generation?: number };
  spec: { template: { metadata?: { annotations?: Record<string, string> }; spec: { containers: { name: string; image: string }[] } }; updateStrategy?: { rollingUpdate?: { paused?: boolean } } };
};

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;
let work: string;
const POOL = 'e2e.kruise-serverless.io/rollout-pool';

beforeAll(async () => {
  await buildCliBundle();
  work = mkdtempSync(join(tmpdir(), 'ks-rollout-sets-'));
  env = await startEdgeEnv('rsets', [daemonSetFeature]);
  await env.kubelet.addNodes(['rsets-1', 'rsets-2'].map((name) => ({ name, labels: { [POOL]: 'rollout' } })));
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [statefulSetReconciler, daemonSetReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `rollout-sets-${scope.kind}` }),
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.dispose();
  rmSync(work, { recursive: true, force: true });
});

type Result = { code: number; stdout: string; stderr: string };

/** `node bin/kruise-serverless.js rollout ARGS -n <ns>`, with $KUBECONFIG unless `--kubeconfig` is given. */
function cli(...args: string[]): Promise<Result> {
  const child = spawn(process.execPath, ['bin/kruise-serverless.js', 'rollout', ...args, '-n', env.ns], { cwd: REPO_ROOT, env: { ...process.env, KUBECONFIG: inject('kubeconfig') } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr })));
}

const KINDS = [
  {
    ref: 'statefulset', resource: 'statefulset.apps.kruise.io', apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', pods: 3,
    object: (ns: string, name: string): KubeObject => ({
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name, namespace: ns },
      spec: {
        replicas: 3, serviceName: name, podManagementPolicy: 'Parallel', selector: { matchLabels: { app: name } },
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 3 } },
        template: { metadata: { labels: { app: name } }, spec: { automountServiceAccountToken: false, terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: 'app:1' }] } },
      },
    }),
  },
  {
    ref: 'daemonset', resource: 'daemonset.apps.kruise.io', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', pods: 2,
    object: (ns: string, name: string): KubeObject => ({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', metadata: { name, namespace: ns },
      spec: {
        selector: { matchLabels: { app: name } }, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } },
        template: { metadata: { labels: { app: name } }, spec: { automountServiceAccountToken: false, terminationGracePeriodSeconds: 1, nodeSelector: { [POOL]: 'rollout' }, containers: [{ name: 'main', image: 'app:1' }] } },
      },
    }),
  },
] as const;

describe.each(KINDS)('kruise-serverless rollout ($kind $apiVersion)', (k) => {
  const name = `${k.ref}-web`;
  const target = `${k.ref}/${name}`;
  const get = () => env.kube.get<Workload>(k.apiVersion, k.kind, name, env.ns);
  const images = async () => {
    const pods = (await env.kube.list<KubeObject>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${name}` })).items as unknown as { metadata: { deletionTimestamp?: string }; spec: { containers: { image: string }[] } }[];
    return pods.filter((p) => !p.metadata.deletionTimestamp).map((p) => p.spec.containers[0]!.image).sort();
  };
  const setImage = async (image: string) => env.kube.patch(await get(), { spec: { template: { spec: { containers: [{ name: 'main', image }] } } } });
  const all = (image: string) => Array.from({ length: k.pods }, () => image);

  it('status follows the first rollout and an image change to the end', async () => {
    await env.kube.create(k.object(env.ns, name));
    const created = await cli('status', target, '--timeout', '60s');
    expect(created.code, created.stderr + created.stdout).toBe(0);
    await setImage('app:2');
    const r = await cli('status', target, '--timeout', '90s');
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^${k.ref}/${name} successfully rolled out: ${k.pods} pods updated and available`, 'm'));
    expect(await images()).toEqual(all('app:2'));
  });

  it('history lists the revisions; --revision N shows its template; -o json and -o yaml print them as data', async () => {
    const table = await cli('history', target);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toBe(`${k.resource}/${name}\nREVISION  CHANGE-CAUSE\n1         <none>\n2         <none>\n`);
    const one = await cli('history', target, '--revision', '1');
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout).toMatch(new RegExp(`^${k.resource}/${name} with revision #1\\nPod Template:\\n`));
    expect(one.stdout).toContain('image: app:1');
    const json = await cli('history', target, '-o', 'json');
    expect((JSON.parse(json.stdout) as { revision: number }[]).map((e) => e.revision)).toEqual([1, 2]);
    const yaml = await cli('history', target, '--revision', '2', '-o', 'yaml');
    expect(parse(yaml.stdout)).toMatchObject({ revision: 2, template: { spec: { containers: [{ name: 'main', image: 'app:2' }] } } });
    const missing = await cli('history', target, '--revision', '9');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`${k.resource}/${name}: unable to find the specified revision`);
  });

  it('pause sets spec.updateStrategy.rollingUpdate.paused and holds the rollout; resume lets it complete', async () => {
    expect(await cli('pause', target)).toMatchObject({ code: 0, stdout: `${k.resource}/${name} paused\n` });
    expect((await get()).spec.updateStrategy?.rollingUpdate?.paused).toBe(true);
    await setImage('app:3');
    const held = await cli('status', target, '--timeout', '2s');
    expect(held.code).toBe(1);
    expect(held.stderr).toContain('waiting on: updates paused (spec.updateStrategy.rollingUpdate.paused)');
    expect(await images()).toEqual(all('app:2'));
    expect(await cli('resume', target)).toMatchObject({ code: 0, stdout: `${k.resource}/${name} resumed\n` });
    const r = await cli('status', target, '--timeout', '90s');
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(await images()).toEqual(all('app:3'));
  });

  it('restart stamps the template with kubectl.kubernetes.io/restartedAt, which rolls every pod', async () => {
    const before = (await get()).status as { updateRevision?: string; daemonSetHash?: string } | undefined;
    const r = await cli('restart', target);
    expect(r).toMatchObject({ code: 0, stdout: `${k.resource}/${name} restarted\n` });
    const stamped = (await get()).spec.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt'];
    expect(stamped).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const done = await cli('status', target, '--timeout', '90s');
    expect(done.code, done.stderr + done.stdout).toBe(0);
    const after = (await get()).status as { updateRevision?: string; daemonSetHash?: string } | undefined;
    expect(after?.updateRevision ?? after?.daemonSetHash).not.toBe(before?.updateRevision ?? before?.daemonSetHash);
    const history = await cli('history', target, '-o', 'json');
    expect((JSON.parse(history.stdout) as unknown[]).length).toBe(4);
  });

  it('undo --to-revision 1 puts the first template back and the pods follow', async () => {
    expect(await cli('undo', target, '--to-revision', '1')).toMatchObject({ code: 0, stdout: `${k.resource}/${name} rolled back\n` });
    expect((await get()).spec.template.spec.containers[0]?.image).toBe('app:1');
    const r = await cli('status', target, '--timeout', '90s');
    expect(r.code, r.stderr + r.stdout).toBe(0);
    expect(await images()).toEqual(all('app:1'));
  });
});

describe('--context', () => {
  it('chooses the kubeconfig context: the current one points nowhere, --context NAME at the test cluster', async () => {
    const config = parse(readFileSync(inject('kubeconfig'), 'utf8')) as { contexts: { name: string; context: Record<string, unknown> }[]; clusters: { name: string; cluster: Record<string, unknown> }[]; 'current-context': string };
    const real = config['current-context'];
    const realContext = config.contexts.find((c) => c.name === real)!;
    config.clusters.push({ name: 'nowhere', cluster: { server: 'https://127.0.0.1:1', 'insecure-skip-tls-verify': true } });
    config.contexts.push({ name: 'nowhere', context: { ...realContext.context, cluster: 'nowhere' } });
    config['current-context'] = 'nowhere';
    const file = join(work, 'kubeconfig');
    writeFileSync(file, stringify(config));
    const target = 'statefulset/statefulset-web';
    const current = await cli('history', target, '--kubeconfig', file);
    expect(current.code).toBe(1);
    expect(current.stderr).toContain('127.0.0.1:1');
    const chosen = await cli('history', target, '--kubeconfig', file, '--context', real);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stdout).toContain('REVISION  CHANGE-CAUSE');
    const unknown = await cli('history', target, '--kubeconfig', file, '--context', 'staging');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`context "staging" not found in the kubeconfig (contexts: ${real}, nowhere)`);
  });
});
