// BroadcastJob on the Lambda path: every reconcile runs in the production Lambda handler, triggered
// as AWS triggers it — the ObjectChanged events the Worker publishes when it admits the job, a Node
// (the node observer) or a status change of one of its pods, and the SQS wake-ups runs ask for (the
// active deadline, the TTL). Users act with no sleep and no push in between; the one-minute
// schedule never fires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { broadcastJobFeature } from '../../src/broadcastjob/index.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import type { KubeObject } from '../../src/kube/http.js';
import type { Pod } from './support/edge-env.js';
import { createNamespace, deleteNamespace, eventually, testKubeConfig } from './support/kube.js';
import { bcjOf, eventsOf, isRunning, jobOf, live, nodeOf, podLine, podsOf, poolNodes, runToEnd, type BcjObj } from './support/broadcastjob.js';

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('bcjl', [broadcastJobFeature], { workerBindings: lambda.bindings });
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync();
});
afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

const job = (name: string) => jobOf(env.kube, env.ns, name);
const pods = (name: string) => podsOf(env.kube, env.ns, name);
const runsOf = (name: string) => lambda.summaries.flatMap((s) => s.runs.filter((r) => r.reconciler === 'BroadcastJob' && (r.scope === 'all' || r.scope.some((o) => o.endsWith(`/${name}`)))));
const waitStatus = (name: string, what: string, ok: (j: BcjObj) => boolean, ms = 30_000) =>
  eventually(`${name}: ${what}`, async () => {
    const j = await job(name);
    return j && ok(j) ? j : undefined;
  }, ms, 30).catch(async (e: unknown) => {
    throw new Error(`${String(e)}\n${(await pods(name)).map(podLine).join('\n')}\n${JSON.stringify((await job(name))?.status)}`);
  });

describe('BroadcastJob through the Lambda', () => {
  it('created: a pod per node, run to its end, the job completed by runs its pods’ status events start', async () => {
    const nodes = ['bcjl-a-1', 'bcjl-a-2', 'bcjl-a-3'];
    await env.kubelet.addNodes(poolNodes('a', nodes));
    const done = runToEnd(env.kube, env.kubelet, env.ns, 'lam');
    const started = Date.now();
    await env.kube.create(bcjOf(env.ns, 'lam', { pool: 'a', spec: { parallelism: 2 } }));
    const j = await waitStatus('lam', 'completed', (x) => x.status?.phase === 'completed');
    await done.stop();
    console.log(`3 nodes, parallelism 2, through the Lambda: completed ${Date.now() - started} ms after the create`);
    expect(j.status).toMatchObject({ desired: 3, succeeded: 3, active: 0, failed: 0, conditions: [{ type: 'Complete', status: 'True' }] });
    expect((await pods('lam')).map(nodeOf).sort()).toEqual(nodes);
    expect(runsOf('lam').some((r) => r.acted && r.applied > 0)).toBe(true);
    expect(lambda.received.some((e) => e.detail.kind === 'BroadcastJob' && e.detail.reason === 'pod-status')).toBe(true);
    await env.kubelet.removeNodes(nodes);
  });

  it('Never: a node added gets its pod from the node observer’s event, and loses it to a NoExecute taint, with the SQS wake-ups stalled', async () => {
    await env.kube.create(bcjOf(env.ns, 'nev', { pool: 'n', spec: { completionPolicy: { type: 'Never' } } }));
    await waitStatus('nev', 'running', (x) => x.status?.phase === 'running');
    lambda.stallWakeUps(true);
    try {
      const started = Date.now();
      await env.kubelet.addNodes(poolNodes('n', ['bcjl-n-1']));
      await eventually('a pod on the new node', async () => (live(await pods('nev')).some((p) => nodeOf(p) === 'bcjl-n-1') ? true : undefined), 10_000, 20);
      console.log(`node added → its pod created through the Lambda: ${Date.now() - started} ms`);
      expect(lambda.published).toContainEqual(expect.objectContaining({ apiVersion: 'v1', kind: 'Node', name: 'bcjl-n-1' }));
      await env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'bcjl-n-1' } }, { spec: { taints: [{ key: 'e2e.kruise-serverless.io/bcj-pool', value: 'n', effect: 'NoSchedule' }, { key: 'gone', effect: 'NoExecute' }] } });
      await eventually('the pod gone from the tainted node', async () => (live(await pods('nev')).some((p) => nodeOf(p) === 'bcjl-n-1') ? undefined : true), 10_000, 20);
    } finally {
      lambda.stallWakeUps(false);
      await env.kubelet.removeNodes(['bcjl-n-1']);
    }
  });

  it('activeDeadlineSeconds 2 fires from its SQS wake-up (no pod changes), and ttlSecondsAfterFinished 1 deletes the job and its pods', async () => {
    const nodes = ['bcjl-d-1', 'bcjl-d-2'];
    await env.kubelet.addNodes(poolNodes('d', nodes));
    await env.kube.create(bcjOf(env.ns, 'dl', { pool: 'd', spec: { completionPolicy: { type: 'Always', activeDeadlineSeconds: 2, ttlSecondsAfterFinished: 1 } } }));
    await eventually('both pods running', async () => ((await pods('dl')).filter(isRunning).length === 2 ? true : undefined), 10_000, 20);
    const failed = await waitStatus('dl', 'failed', (x) => x.status?.phase === 'failed', 15_000);
    expect(failed.status).toMatchObject({ active: 0, failed: 2, conditions: [{ type: 'Failed', reason: 'Failed', message: `Job ${env.ns}/dl was active longer than specified deadline` }] });
    await eventually('the job and its pods gone', async () => ((await job('dl')) === undefined && (await pods('dl')).length === 0 ? true : undefined), 15_000, 50);
    // The deadline's wake-up comes through SQS (no resync runs here). The run that acted on it may be
    // that wake-up or a change event that happened to arrive after the deadline, so only its delivery is
    // checked; SQS delays are whole seconds, so it may land after the TTL's deletion.
    await eventually('the deadline wake-up delivered through SQS', async () => (lambda.summaries.some((s) => s.trigger === 'requeue' && s.runs.some((r) => r.reconciler === 'BroadcastJob')) ? true : undefined), 10_000, 50);
    await env.kubelet.removeNodes(nodes);
  });

  it('restartLimit: an OnFailure pod restarted more than restartLimit times counts as failed, and FailFast keeps it', async () => {
    await env.kubelet.addNodes(poolNodes('rl', ['bcjl-rl-1']));
    await env.kube.create(bcjOf(env.ns, 'lrl', { pool: 'rl', spec: { failurePolicy: { type: 'FailFast', restartLimit: 1 } }, podSpec: { restartPolicy: 'OnFailure' } }));
    const p = await eventually('the pod running', async () => (await pods('lrl')).find(isRunning), 10_000, 20);
    const podNow = () => env.kube.get<Pod>('v1', 'Pod', p.metadata.name, env.ns);
    // The container crashes and comes back twice (the kubelet restarts it: OnFailure).
    for (let i = 1; i <= 2; i++) {
      env.kubelet.failContainer(env.ns, p.metadata.name, 'main');
      await eventually('the container down', async () => ((await podNow()).status?.containerStatuses?.[0]?.state?.terminated ? true : undefined), 10_000, 20);
      env.kubelet.recoverContainer(env.ns, p.metadata.name, 'main');
      await eventually(`restart ${i}`, async () => (((await podNow()).status?.containerStatuses?.[0]?.restartCount ?? 0) >= i ? true : undefined), 10_000, 20);
    }
    const j = await waitStatus('lrl', 'failed', (x) => x.status?.phase === 'failed');
    expect(j.status).toMatchObject({ failed: 1, active: 0 });
    // Failed, not active: FailFast keeps it, logs and all (OpenKruise deletes active pods only).
    expect((await podNow()).metadata.deletionTimestamp).toBeUndefined();
    expect((await eventsOf(env.kube, env.ns, 'lrl')).filter((e) => e.includes('SuccessfulDelete'))).toEqual([]);
    expect(runsOf('lrl').some((r) => r.acted && r.applied > 0)).toBe(true);
    await env.kubelet.removeNodes(['bcjl-rl-1']);
  });

  it('FailedCreate: a pod the API server refuses (a quota) is told as OpenKruise tells it, Warning "Error creating: <error>"', async () => {
    const kc = testKubeConfig();
    const ns = await createNamespace(kc, 'bcjl-quota');
    const nodes = ['bcjl-fc-1', 'bcjl-fc-2'];
    try {
      await env.kubelet.addNodes(poolNodes('fc', nodes));
      await env.kube.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'one-pod', namespace: ns }, spec: { hard: { pods: '1' } } });
      // Quota admission reads quotas from its cache and refuses every pod until the status is written.
      await eventually('quota status', async () => ((await env.kube.get<KubeObject & { status?: { hard?: unknown } }>('v1', 'ResourceQuota', 'one-pod', ns)).status?.hard ? true : undefined));
      await env.kube.create(bcjOf(ns, 'lfc', { pool: 'fc' }));
      const failed = await eventually('a FailedCreate Event', async () => {
        const got = (await eventsOf(env.kube, ns, 'lfc')).filter((e) => e.startsWith('Warning FailedCreate: '));
        return got.length ? got : undefined;
      }, 20_000, 50);
      expect(failed[0]).toMatch(/^Warning FailedCreate: Error creating: pods "lfc-[a-z0-9]+" is forbidden: exceeded quota: one-pod, requested: pods=1, used: pods=1, limited: pods=1$/);
      expect((await eventsOf(env.kube, ns, 'lfc')).filter((e) => e.startsWith('Normal SuccessfulCreate: Created pod: lfc-'))).toHaveLength(1);
      expect(lambda.summaries.some((s) => s.runs.some((r) => r.reconciler === 'BroadcastJob' && (r.scope === 'all' || r.scope.includes(`${ns}/lfc`))))).toBe(true);
    } finally {
      await env.kubelet.removeNodes(nodes);
      await deleteNamespace(kc, ns);
    }
  });
});
