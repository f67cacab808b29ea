// BroadcastJob end to end on a real API server, fake nodes and a fake kubelet: its webhooks on the
// production Worker, and its controller through the Node loop (watches as triggers, the full
// resync set to an hour so that nothing here waits for it). The fake kubelet plays the pods'
// containers running to their end (completePod). Users' steps follow each other with no sleep and
// no push in between; tests wait with `eventually`. The seeds with a TTL (30 s) and a deadline
// (10 s) are created first and checked last, so their clocks run while the other tests do.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { broadcastJobFeature } from '../../src/broadcastjob/index.js';
import { broadcastJobReconciler } from '../../src/broadcastjob/controller/reconciler.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { deniedBy } from './support/disrupt.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { attempt, createNamespace, deleteNamespace, eventually, kubectl, testKubeConfig } from './support/kube.js';
import { BCJ, bcjOf, eventsOf, isRunning, jobOf, live, nodeOf, podLine, podsOf, poolNodes, runToEnd, type BcjObj } from './support/broadcastjob.js';

const VKRUISE = 'vkruise.kruise-serverless.io';
let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;
/** The two nodes every edge env has (untainted: the seeds' jobs run on them). */
let base: string[];

beforeAll(async () => {
  env = await startEdgeEnv('bcj', [broadcastJobFeature]);
  await env.resync();
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [broadcastJobReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `bcj-loop-${scope.kind}` }),
  });
  base = ['bcj-node-a', 'bcj-node-b'];
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.dispose();
});

const seed = (file: string): BcjObj => {
  const obj = parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', file), 'utf8')) as BcjObj;
  return { ...obj, metadata: { ...obj.metadata, namespace: env.ns } };
};
const job = (name: string) => jobOf(env.kube, env.ns, name);
const pods = (name: string) => podsOf(env.kube, env.ns, name);
const ref = (name: string): KubeObject => ({ ...BCJ, metadata: { name, namespace: env.ns } });
const nodeRef = (name: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
const finish = (name: string, exitCode = 0) => runToEnd(env.kube, env.kubelet, env.ns, name, exitCode);
const dump = async (name: string) => `${(await pods(name)).map(podLine).join('\n')}\n${JSON.stringify((await job(name))?.status)}`;
const waitStatus = (name: string, what: string, ok: (j: BcjObj) => boolean, ms = 30_000) =>
  eventually(`${name}: ${what}`, async () => {
    const j = await job(name);
    return j && ok(j) ? j : undefined;
  }, ms, 30).catch(async (e: unknown) => {
    throw new Error(`${String(e)}\n${await dump(name)}`);
  });
const on = async (name: string, node: string) => live(await pods(name)).filter((p) => nodeOf(p) === node);

describe('started first, checked last (their clocks run meanwhile)', () => {
  it('seed 002 activeDeadlineSeconds 10, seed 000 §3.3 and seed 002 ttlSecondsAfterFinished 30: created', async () => {
    await env.kube.create(seed('002-broadcastjob-active-deadline.yaml'));
    await waitStatus('bcj-active-deadline', 'both pods running', (j) => j.status?.active === 2 && j.status.phase === 'running');
    // Seed 000: parallelism 1 — one pod at a time, each run to its end.
    const ttl000 = finish('broadcastjob-ttl');
    const ttl002 = finish('bcj-ttl');
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(most, (await pods('broadcastjob-ttl')).filter(isRunning).length);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    await env.kube.create(seed('000-broadcastjob-ttl.yaml'));
    await env.kube.create(seed('002-broadcastjob-ttl.yaml'));
    for (const name of ['broadcastjob-ttl', 'bcj-ttl']) await waitStatus(name, 'completed', (j) => j.status?.phase === 'completed' && j.status.succeeded === 2);
    sampling = false;
    await Promise.all([sampler, ttl000.stop(), ttl002.stop()]);
    expect(most).toBe(1);
  });
});

describe('the BroadcastJob webhooks', () => {
  it('default as OpenKruise: completionPolicy Always, parallelism 2147483647, failurePolicy FailFast, the pod template defaulted', async () => {
    const created = await env.kube.create<BcjObj>(bcjOf(env.ns, 'defaulted', { pool: 'none' }));
    expect(created.spec).toMatchObject({ completionPolicy: { type: 'Always' }, parallelism: 2147483647, failurePolicy: { type: 'FailFast' } });
    expect((created.spec.template as { spec: Record<string, unknown> }).spec).toMatchObject({ dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler', containers: [{ name: 'main', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' }] });
    await env.kube.delete(ref('defaulted'));
  });

  it('refuse as OpenKruise, with 500 and the field errors', async () => {
    const always = bcjOf(env.ns, 'always', { pool: 'none', podSpec: { restartPolicy: 'Always' } });
    expect(await attempt(env.kube.create(always))).toBe(`500 ${deniedBy(VKRUISE, 'spec.template.spec.restartPolicy: Invalid value: "Always": pod restartPolicy can only be Never or OnFailure')}`);
    const never = bcjOf(env.ns, 'never-ttl', { pool: 'none', spec: { completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 30 } } });
    expect(await attempt(env.kube.create(never))).toBe(`500 ${deniedBy(VKRUISE, 'spec.completionPolicy.ttlSecondsAfterFinished: Invalid value: 30: ttlSecondsAfterFinished can just work with Always CompletionPolicyType')}`);
    const preset = bcjOf(env.ns, 'preset', { pool: 'none' });
    (preset.spec.template as { metadata?: unknown }).metadata = { labels: { 'broadcastjob-name': 'x' } };
    expect(await attempt(env.kube.create(preset))).toBe(`500 ${deniedBy(VKRUISE, 'spec.template.metadata.labels: Invalid value: map[string]string{"broadcastjob-name":"x"}: "broadcastjob-name" and "broadcastjob-controller-uid" are not allowed to preset in pod labels')}`);
  });
});

describe('seed 002: the BroadcastJob examples', () => {
  it('06 (bcj-demo): a pod on every node, run to its end; kubectl get bcj shows DESIRED 2 ACTIVE 0 SUCCEEDED 2 FAILED 0', async () => {
    const done = finish('bcj-demo');
    const t0 = Date.now();
    await env.kube.create(seed('002-broadcastjob-basic.yaml'));
    const j = await waitStatus('bcj-demo', 'completed', (x) => x.status?.phase === 'completed');
    console.log(`seed 06: 2 pods created, run and the job completed ${Date.now() - t0} ms after the create`);
    await done.stop();
    expect(j.status).toMatchObject({ desired: 2, active: 0, succeeded: 2, failed: 0, conditions: [{ type: 'Complete', status: 'True', reason: 'Complete', message: 'Job completed, 2 pods succeeded, 0 pods failed' }] });
    expect(j.status?.startTime).toBeTruthy();
    expect(j.status?.completionTime).toBeTruthy();
    const table = (await kubectl('get', 'bcj', 'bcj-demo', '-n', env.ns)).split('\n');
    expect(table[0]).toMatch(/^NAME\s+DESIRED\s+ACTIVE\s+SUCCEEDED\s+FAILED\s+AGE\s*$/);
    expect(table[1]).toMatch(/^bcj-demo\s+2\s+0\s+2\s+0\s+\S+/);
    const ps = await pods('bcj-demo');
    expect(ps.map(nodeOf).sort()).toEqual(base);
    for (const p of ps) {
      expect(p.metadata.labels).toEqual({ 'broadcastjob-name': 'bcj-demo', 'broadcastjob-controller-uid': j.metadata.uid });
      expect((p.metadata as { ownerReferences?: unknown }).ownerReferences).toEqual([{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', name: 'bcj-demo', uid: j.metadata.uid, controller: true, blockOwnerDeletion: true }]);
      expect(p.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms).toEqual([{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [p.spec?.nodeName] }] }]);
      expect(p.status?.phase).toBe('Succeeded');
    }
    const events = await eventsOf(env.kube, env.ns, 'bcj-demo');
    expect(events).toEqual(expect.arrayContaining([...ps.map((p) => `Normal SuccessfulCreate: Created pod: ${p.metadata.name}`), `Normal JobComplete: Job ${env.ns}/bcj-demo is completed, 2 pods succeeded, 0 pods failed`]));
  });

  // Checked before a node is added: the deadline seed, still running, would take it too.
  it('activeDeadlineSeconds 10: Failed DeadlineExceeded at 10 s from startTime, its running pods deleted', async () => {
    const j = await waitStatus('bcj-active-deadline', 'failed', (x) => x.status?.phase === 'failed', 30_000);
    const late = Date.parse(j.status!.completionTime!) - Date.parse(j.status!.startTime!);
    console.log(`deadline seed: failed ${late} ms after startTime (deadline 10000 ms; both stamps whole seconds)`);
    expect(late).toBeGreaterThanOrEqual(10_000);
    expect(j.status).toMatchObject({ active: 0, failed: 2, succeeded: 0, conditions: [{ type: 'Failed', status: 'True', reason: 'Failed', message: `Job ${env.ns}/bcj-active-deadline was active longer than specified deadline` }] });
    await eventually('its pods gone', async () => ((await pods('bcj-active-deadline')).length === 0 ? true : undefined), 10_000, 20);
    expect(await eventsOf(env.kube, env.ns, 'bcj-active-deadline')).toContain(`Warning DeadlineExceeded: Job ${env.ns}/bcj-active-deadline was active longer than specified deadline: 0 pods succeeded, 2 pods failed`);
  });

  it('completionPolicy Never (seed 002, seed 000 §3.3): every pod ends, the job keeps running, and a node added later gets a pod', async () => {
    const done = finish('bcj-never');
    await env.kube.create(seed('002-broadcastjob-completion-never.yaml'));
    await waitStatus('bcj-never', 'both pods succeeded', (j) => j.status?.succeeded === 2 && j.status.active === 0);
    expect((await job('bcj-never'))?.status?.phase).toBe('running');
    const t0 = Date.now();
    await env.kubelet.addNodes([{ name: 'bcj-node-c' }]);
    await eventually('a pod on the new node', async () => ((await on('bcj-never', 'bcj-node-c')).length === 1 ? true : undefined), 10_000, 20);
    console.log(`Never: node added → its pod created ${Date.now() - t0} ms later`);
    const j = await waitStatus('bcj-never', '3 succeeded', (x) => x.status?.succeeded === 3 && x.status.desired === 3);
    await done.stop();
    expect(j.status?.phase).toBe('running');
    expect(j.status?.conditions ?? []).toEqual([]);
    // The user deletes it (no GC here: its pods are the namespace's to go with), and the node.
    await env.kube.delete(ref('bcj-never'));
    await env.kubelet.removeNodes(['bcj-node-c']);
  });
});

describe('nodes', () => {
  it('a node added, relabelled, tainted NoExecute, cordoned, short of resources: pods follow at once (no resync runs)', async () => {
    const name = 'trig';
    const [n1, n2, n3, n4] = ['bcj-trig-1', 'bcj-trig-2', 'bcj-trig-3', 'bcj-trig-4'];
    await env.kube.create(bcjOf(env.ns, name, { pool: 'trig', spec: { completionPolicy: { type: 'Never' } }, podSpec: { containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '2' } } }] } }));
    const t0 = Date.now();
    await env.kubelet.addNodes(poolNodes('trig', [n1, n2, n3]));
    await eventually('a pod on each new node', async () => ((await Promise.all([n1, n2, n3].map((n) => on(name, n)))).every((ps) => ps.length === 1) ? true : undefined), 10_000, 20);
    console.log(`nodes added → their pods created: ${Date.now() - t0} ms`);
    // Relabelled out of the pool: its pod no longer fits (the pod's nodeSelector) and goes.
    await env.kube.patch(nodeRef(n1), { metadata: { labels: { 'e2e.kruise-serverless.io/bcj-pool': 'elsewhere' } } });
    await eventually('the relabelled node’s pod gone', async () => ((await on(name, n1)).length === 0 ? true : undefined), 10_000, 20);
    // A NoExecute taint the pod does not tolerate, and a cordon: their pods go too.
    await env.kube.patch(nodeRef(n2), { spec: { taints: [{ key: 'e2e.kruise-serverless.io/bcj-pool', value: 'trig', effect: 'NoSchedule' }, { key: 'gone', effect: 'NoExecute' }] } });
    await env.kube.patch(nodeRef(n3), { spec: { unschedulable: true } });
    await eventually('the tainted and cordoned nodes’ pods gone', async () => ((await on(name, n2)).length + (await on(name, n3)).length === 0 ? true : undefined), 10_000, 20);
    // A node whose allocatable cpu is below the request gets no pod.
    await env.kubelet.addNodes(poolNodes('trig', [n4], { allocatable: { cpu: '1' } }));
    const j = await waitStatus(name, 'desired 0', (x) => x.status?.desired === 0 && x.status.active === 0);
    expect(await on(name, n4)).toEqual([]);
    expect(j.status?.phase).toBe('running');
    const events = await eventsOf(env.kube, env.ns, name);
    expect(events.filter((e) => e.startsWith('Normal SuccessfulDelete: Delete pod: '))).toHaveLength(3);
    await env.kube.delete(ref(name));
    await env.kubelet.removeNodes([n1, n2, n3, n4]);
  });
});

describe('parallelism and failure', () => {
  const pool = (p: string, n: number) => Array.from({ length: n }, (_, i) => `bcj-${p}-${i + 1}`);

  it('parallelism 2 over 5 nodes: never more than 2 pods active, every node run once, then Complete', async () => {
    const nodes = pool('par', 5);
    await env.kubelet.addNodes(poolNodes('par', nodes));
    const done = finish('par');
    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(most, live(await pods('par')).filter((p) => p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed').length);
        await new Promise((r) => setTimeout(r, 15));
      }
    })();
    await env.kube.create(bcjOf(env.ns, 'par', { pool: 'par', spec: { parallelism: 2 } }));
    const j = await waitStatus('par', 'completed', (x) => x.status?.phase === 'completed');
    sampling = false;
    await Promise.all([sampler, done.stop()]);
    expect(most).toBe(2);
    expect(j.status).toMatchObject({ desired: 5, succeeded: 5, active: 0, failed: 0 });
    expect((await pods('par')).map(nodeOf).sort()).toEqual(nodes);
    await env.kubelet.removeNodes(nodes);
  });

  it('FailFast: a failed pod fails the job (Failed condition, Events) and its active pods are deleted', async () => {
    const nodes = pool('ff', 3);
    await env.kubelet.addNodes(poolNodes('ff', nodes));
    await env.kube.create(bcjOf(env.ns, 'ff', { pool: 'ff' }));
    await waitStatus('ff', '3 active', (x) => x.status?.active === 3);
    const victim = live(await pods('ff')).find((p) => nodeOf(p) === nodes[0])!;
    env.kubelet.completePod(env.ns, victim.metadata.name, 1);
    const j = await waitStatus('ff', 'failed', (x) => x.status?.phase === 'failed');
    expect(j.status).toMatchObject({ active: 0, failed: 3, succeeded: 0, conditions: [{ type: 'Failed', status: 'True', reason: 'Failed', message: 'failure policy is FailurePolicyTypeFailFast and failed pod is found' }] });
    await eventually('the active pods gone', async () => ((await pods('ff')).length === 1 ? true : undefined), 10_000, 20);
    expect(await eventsOf(env.kube, env.ns, 'ff')).toContain('Warning failed pod is found: failure policy is FailurePolicyTypeFailFast and failed pod is found: 0 pods succeeded, 3 pods failed');
    await env.kubelet.removeNodes(nodes);
  });

  it('Continue: the failed pod is counted and the job completes; Pause: the job pauses with no further pod', async () => {
    const nodes = pool('cont', 2);
    await env.kubelet.addNodes(poolNodes('cont', nodes));
    await env.kube.create(bcjOf(env.ns, 'cont', { pool: 'cont', spec: { failurePolicy: { type: 'Continue' } } }));
    await env.kube.create(bcjOf(env.ns, 'pause', { pool: 'cont', spec: { parallelism: 1, failurePolicy: { type: 'Pause' } } }));
    const ps = await eventually('the pods running', async () => {
      const c = (await pods('cont')).filter(isRunning);
      const p = (await pods('pause')).filter(isRunning);
      return c.length === 2 && p.length === 1 ? [...c, ...p] : undefined;
    }, 10_000, 20);
    for (const p of ps) env.kubelet.completePod(env.ns, p.metadata.name, nodeOf(p) === nodes[0] || p.metadata.labels?.['broadcastjob-name'] === 'pause' ? 1 : 0);
    const cont = await waitStatus('cont', 'completed', (x) => x.status?.phase === 'completed');
    expect(cont.status).toMatchObject({ succeeded: 1, failed: 1, conditions: [{ type: 'Complete', message: 'Job completed, 1 pods succeeded, 1 pods failed' }] });
    const paused = await waitStatus('pause', 'paused', (x) => x.status?.phase === 'paused' && x.status.failed === 1);
    expect(paused.status).toMatchObject({ active: 0, desired: 2, succeeded: 0 });
    expect(await pods('pause')).toHaveLength(1);
    expect(await eventsOf(env.kube, env.ns, 'pause')).toContain('Warning Paused: job is paused, due to failed pod');
    await env.kubelet.removeNodes(nodes);
  });

  it('restartLimit: an OnFailure pod restarted more than restartLimit times counts as failed, and FailFast keeps it', async () => {
    const [n1] = pool('rl', 1) as [string];
    await env.kubelet.addNodes(poolNodes('rl', [n1]));
    await env.kube.create(bcjOf(env.ns, 'rl', { pool: 'rl', spec: { failurePolicy: { type: 'FailFast', restartLimit: 1 } }, podSpec: { restartPolicy: 'OnFailure' } }));
    const p = await eventually('the pod running', async () => (await pods('rl')).find(isRunning), 10_000, 20);
    const restarts = async () => (await env.kube.get<Pod>('v1', 'Pod', p.metadata.name, env.ns)).status?.containerStatuses?.[0]?.restartCount ?? 0;
    // The container crashes and comes back twice (the kubelet restarts it: OnFailure).
    for (let i = 1; i <= 2; i++) {
      env.kubelet.failContainer(env.ns, p.metadata.name, 'main');
      await eventually('the container down', async () => ((await env.kube.get<Pod>('v1', 'Pod', p.metadata.name, env.ns)).status?.containerStatuses?.[0]?.state?.terminated ? true : undefined), 10_000, 20);
      env.kubelet.recoverContainer(env.ns, p.metadata.name, 'main');
      await eventually(`restart ${i}`, async () => ((await restarts()) >= i ? true : undefined), 10_000, 20);
      if (i === 1) expect((await job('rl'))?.status?.phase).toBe('running');
    }
    const j = await waitStatus('rl', 'failed', (x) => x.status?.phase === 'failed');
    expect(j.status).toMatchObject({ failed: 1, active: 0 });
    // Failed, not active: FailFast keeps it, logs and all (OpenKruise deletes active pods only).
    const kept = await env.kube.get<Pod>('v1', 'Pod', p.metadata.name, env.ns);
    expect(kept.metadata.deletionTimestamp).toBeUndefined();
    expect((await eventsOf(env.kube, env.ns, 'rl')).filter((e) => e.includes('SuccessfulDelete'))).toEqual([]);
    await env.kubelet.removeNodes([n1]);
  });
});

describe('Events', () => {
  it('FailedCreate: a pod the API server refuses (a quota) is told as OpenKruise tells it, Warning "Error creating: <error>"', async () => {
    const kc = testKubeConfig();
    const ns = await createNamespace(kc, 'bcj-quota');
    const nodes = ['bcj-fc-1', 'bcj-fc-2'];
    try {
      await env.kubelet.addNodes(poolNodes('fc', nodes));
      await env.kube.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'one-pod', namespace: ns }, spec: { hard: { pods: '1' } } });
      // Quota admission reads quotas from its cache and refuses every pod until the status is written.
      await eventually('quota status', async () => ((await env.kube.get<KubeObject & { status?: { hard?: unknown } }>('v1', 'ResourceQuota', 'one-pod', ns)).status?.hard ? true : undefined));
      await env.kube.create(bcjOf(ns, 'fc', { pool: 'fc' }));
      const failed = await eventually('a FailedCreate Event', async () => {
        const got = (await eventsOf(env.kube, ns, 'fc')).filter((e) => e.startsWith('Warning FailedCreate: '));
        return got.length ? got : undefined;
      }, 20_000, 50);
      expect(failed[0]).toMatch(/^Warning FailedCreate: Error creating: pods "fc-[a-z0-9]+" is forbidden: exceeded quota: one-pod, requested: pods=1, used: pods=1, limited: pods=1$/);
      expect((await eventsOf(env.kube, ns, 'fc')).filter((e) => e.startsWith('Normal SuccessfulCreate: Created pod: fc-'))).toHaveLength(1);
    } finally {
      await env.kubelet.removeNodes(nodes);
      await deleteNamespace(kc, ns);
    }
  });
});

describe('the seeds started first', () => {
  it('ttlSecondsAfterFinished 30 (seed 000 §3.3, seed 002): the jobs delete themselves, and their pods go with them', async () => {
    for (const name of ['broadcastjob-ttl', 'bcj-ttl']) {
      const done = (await job(name))?.status?.completionTime;
      await eventually(`${name} gone`, async () => ((await job(name)) === undefined && (await pods(name)).length === 0 ? true : undefined), 45_000, 50).catch(async (e: unknown) => {
        throw new Error(`${String(e)}\n${await dump(name)}`);
      });
      if (done) console.log(`${name}: deleted ${Date.now() - Date.parse(done)} ms after its completionTime (ttl 30 s)`);
    }
  });
});
