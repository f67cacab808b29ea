// ImagePullJob on the Lambda path: every reconcile runs in the production Lambda handler, triggered
// as AWS triggers it — the ObjectChanged events the Worker publishes when it admits the job or a
// pull pod's status changes, and the SQS wake-ups runs ask for (a pull's timeout on a node whose
// kubelet never answers). Users act with no sleep and no push in between; the one-minute
// schedule never fires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagePullJobFeature } from '../../src/imagepulljob/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';

const IPJ = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob' } as const;
const LIVE = ['ipjl-node-a', 'ipjl-node-b'];
const DEAD = 'ipjl-dead-0';

type Status = { desired?: number; active?: number; succeeded?: number; failed?: number; failedNodes?: string[]; completionTime?: string };
type Job = KubeObject & { status?: Status };

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('ipjl', [imagePullJobFeature], { workerBindings: lambda.bindings });
  env.kubelet.exitOnStart('/ks-pull/true');
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync();
});
afterAll(async () => {
  await lambda?.close();
  await env?.kube.delete({ apiVersion: 'v1', kind: 'Node', metadata: { name: DEAD } }).catch(() => undefined);
  await env?.dispose();
});

const job = (name: string) => env.kube.get<Job>(IPJ.apiVersion, IPJ.kind, name, env.ns).catch(() => undefined);
const pullPods = async (name: string) => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `imagepulljob.kruise-serverless.io/name=${name}` })).items;
const waitStatus = (name: string, what: string, ok: (s: Status) => boolean, ms = 30_000) =>
  eventually(`${name}: ${what}`, async () => {
    const j = await job(name);
    return j?.status && ok(j.status) ? j : undefined;
  }, ms, 30).catch(async (e: unknown) => {
    throw new Error(`${String(e)}\n${(await pullPods(name)).map((p) => `${p.metadata.name} ${p.spec?.nodeName} ${p.status?.phase}`).join('\n')}\n${JSON.stringify((await job(name))?.status)}`);
  });

describe('ImagePullJob through the Lambda', () => {
  it('created: one node after the other (parallelism 1), each moved on by its pull pod\'s status event', async () => {
    await env.kube.create({ ...IPJ, metadata: { name: 'lam', namespace: env.ns }, spec: { image: 'example.com/app:1', selector: { names: LIVE } } });
    const done = await waitStatus('lam', 'completed', (s) => s.completionTime !== undefined);
    expect(done.status).toMatchObject({ desired: 2, succeeded: 2, failed: 0, active: 0 });
    expect((await pullPods('lam')).map((p) => p.spec?.nodeName).sort()).toEqual(LIVE);
    expect(lambda.received.some((e) => e.detail.kind === 'ImagePullJob' && e.detail.reason === 'pod-status')).toBe(true);
  });

  it('a kubelet that never answers: the pull timeout fires from its SQS wake-up, and the node fails', async () => {
    await env.kube.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: DEAD } });
    await env.kube.create({ ...IPJ, metadata: { name: 'silent', namespace: env.ns }, spec: { image: 'example.com/app:1', selector: { names: [DEAD] }, pullPolicy: { timeoutSeconds: 2, backoffLimit: 0 } } });
    const done = await waitStatus('silent', 'completed', (s) => s.completionTime !== undefined, 20_000);
    expect(done.status).toMatchObject({ desired: 1, succeeded: 0, failed: 1, failedNodes: [DEAD] });
    // No pod status changes on that node: only the wake-up could have run the job after the timeout
    // (its summary is recorded once the handler returns, after the status write).
    const woke = (s: LambdaPath['summaries'][number]) => s.trigger === 'requeue' && s.runs.some((r) => r.reconciler === 'ImagePullJob' && r.acted && (r.scope === 'all' || r.scope.some((o) => o.endsWith('/silent'))));
    await eventually('the wake-up run recorded', async () => (lambda.summaries.some(woke) ? true : undefined), 10_000, 50).catch((e: unknown) => {
      throw new Error(`${String(e)}\n${lambda.describeRuns()}`);
    });
  });

  it('a node whose kubelet lists the image gets no pull pod; the other pulls, its pod carrying sandboxConfig labels and annotations', async () => {
    const [has, lacks] = ['ipjl-has-image', 'ipjl-lacks-image'];
    await env.kubelet.addNodes([{ name: has, labels: { 'e2e.kruise-serverless.io/ipjl': 'images' } }, { name: lacks, labels: { 'e2e.kruise-serverless.io/ipjl': 'images' } }]);
    try {
      const nodeRef = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
      // The kubelet's list: the wanted image among 49 others; the other node lists 50 others (capped: no proof either way).
      const others = (n: number) => Array.from({ length: n }, (_, i) => ({ names: [`docker.io/library/other${i}:1`], sizeBytes: 1000 - i }));
      await env.kube.patch(nodeRef(has), { status: { images: [{ names: ['example.com/app@sha256:' + 'd'.repeat(64), 'example.com/app:cached'], sizeBytes: 2000 }, ...others(49)] } }, 'merge', 'status');
      await env.kube.patch(nodeRef(lacks), { status: { images: others(50) } }, 'merge', 'status');
      await env.kube.create({
        ...IPJ, metadata: { name: 'cached', namespace: env.ns },
        spec: {
          image: 'example.com/app:cached', selector: { matchLabels: { 'e2e.kruise-serverless.io/ipjl': 'images' } }, parallelism: 2,
          sandboxConfig: { labels: { team: 'storage' }, annotations: { 'example.com/note': 'pre-pull' } },
        },
      });
      const done = await waitStatus('cached', 'completed on both nodes', (s) => s.completionTime !== undefined && s.succeeded === 2);
      expect(done.status).toMatchObject({ desired: 2, succeeded: 2, failed: 0 });
      const pods = await pullPods('cached');
      expect(pods.map((p) => p.spec?.nodeName)).toEqual([lacks]);
      expect(pods[0]!.metadata.labels).toMatchObject({ team: 'storage' });
      expect(pods[0]!.metadata.annotations).toMatchObject({ 'example.com/note': 'pre-pull' });
      expect(lambda.summaries.some((s) => s.runs.some((r) => r.reconciler === 'ImagePullJob' && r.acted && (r.scope === 'all' || r.scope.some((o) => o.endsWith('/cached')))))).toBe(true);
    } finally {
      await env.kubelet.removeNodes([has, lacks]);
    }
  });
});
