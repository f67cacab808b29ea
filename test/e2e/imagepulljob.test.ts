// ImagePullJob and CloneSet image pre-download end to end on a real API server, fake nodes and the
// fake kubelet: the webhooks on the production Worker, the controllers through the Node loop (the
// full resync set to an hour so that nothing here waits for it). The fake kubelet reports each
// pull container's imageID (the pull is done), lets the pull pods' static `true` exit at once,
// and refuses the pulls of the images a test names (ErrImagePull, then ImagePullBackOff). Two
// nodes without a kubelet (created directly: their pods never get a status) hold pulls open, as
// a node whose kubelet is gone would. Users' steps follow each other with no sleep; tests wait
// with `eventually`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneSetFeature } from '../../src/cloneset/index.js';
import { cloneSetReconcilerFor } from '../../src/cloneset/controller/reconciler.js';
import { imagePullJobFeature } from '../../src/imagepulljob/index.js';
import { imagePullJobReconcilerFor } from '../../src/imagepulljob/controller/reconciler.js';
import { FEATURE_GATE_DEFAULTS } from '../../src/reconcile/feature-gates.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import type { Reconciler } from '../../src/reconcile/types.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { attempt, eventually } from './support/kube.js';

const IPJ = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob' } as const;
const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const HELPER = { image: 'registry.example/busybox:1.36.1-musl', binary: '/bin/true' };
const LIVE = ['ipj-node-a', 'ipj-node-b'];
const DEAD = ['ipj-dead-0', 'ipj-dead-1'];

type Status = { desired?: number; active?: number; succeeded?: number; failed?: number; failedNodes?: string[]; message?: string; startTime?: string; completionTime?: string };
type Job = KubeObject & { metadata: { name: string; namespace: string; uid?: string; labels?: Record<string, string>; ownerReferences?: { kind?: string; name?: string; controller?: boolean }[] }; spec: Record<string, unknown>; status?: Status };
type Revision = KubeObject & { metadata: { name: string; labels?: Record<string, string> } };

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;

beforeAll(async () => {
  env = await startEdgeEnv('ipj', [imagePullJobFeature, cloneSetFeature]);
  env.kubelet.exitOnStart('/ks-pull/true');
  for (const name of DEAD) await env.kube.create({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'e2e.kruise-serverless.io/ipj': 'dead' } } });
  stop = new AbortController();
  const reconcilers = [
    imagePullJobReconcilerFor({ helper: HELPER }),
    cloneSetReconcilerFor({ gates: { ...FEATURE_GATE_DEFAULTS, PreDownloadImageForInPlaceUpdate: true } }),
  ] as Reconciler[];
  loop = runLoop({
    kube: env.kube, reconcilers, watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `ipj-loop-${r.kind}-${scope.kind}` }),
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  for (const name of DEAD) await env?.kube.delete({ apiVersion: 'v1', kind: 'Node', metadata: { name } }).catch(() => undefined);
  await env?.dispose();
});

const ref = (name: string): KubeObject => ({ ...IPJ, metadata: { name, namespace: env.ns } });
const job = (name: string) => env.kube.get<Job>(IPJ.apiVersion, IPJ.kind, name, env.ns).catch(() => undefined);
const pullPods = async (name: string) => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `imagepulljob.kruise-serverless.io/name=${name}` })).items;
const podLine = (p: Pod) => `${p.metadata.name} ${p.spec?.nodeName} attempt=${p.metadata.labels?.['imagepulljob.kruise-serverless.io/attempt']} ${p.status?.phase ?? '-'}${p.metadata.deletionTimestamp ? ' deleting' : ''}`;
const events = async (kind: string, name: string) =>
  (await env.kube.list<KubeObject & { reason?: string; message?: string; type?: string; involvedObject?: { name?: string; kind?: string } }>('v1', 'Event', { namespace: env.ns })).items
    .filter((e) => e.involvedObject?.name === name && e.involvedObject.kind === kind)
    .map((e) => `${e.type} ${e.reason}: ${e.message}`);
const waitStatus = (name: string, what: string, ok: (s: Status) => boolean, ms = 30_000) =>
  eventually(`${name}: ${what}`, async () => {
    const j = await job(name);
    return j?.status && ok(j.status) ? j : undefined;
  }, ms, 30).catch(async (e: unknown) => {
    throw new Error(`${String(e)}\n${(await pullPods(name)).map(podLine).join('\n')}\n${JSON.stringify((await job(name))?.status)}`);
  });
const create = (name: string, spec: Record<string, unknown>) => env.kube.create<Job>({ ...IPJ, metadata: { name, namespace: env.ns }, spec: { image: 'example.com/app:1', ...spec } });

describe('webhooks', () => {
  it("defaults OpenKruise's completionPolicy, pullPolicy and imagePullPolicy", async () => {
    const j = await create('defaults', { selector: { names: ['no-such-node'] }, parallelism: 0 });
    expect(j.spec).toMatchObject({ completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent' });
  });

  it.each([
    ['names and a label selector', { selector: { names: ['a'], matchLabels: { a: 'b' } } }, 'can not set both names and labelSelector in this spec.selector'],
    ['duplicated names', { selector: { names: ['a', 'a'] } }, 'duplicated name in selector names'],
    ['selector and podSelector', { selector: { names: ['a'] }, podSelector: { matchLabels: { a: 'b' } } }, 'can not set both selector and podSelector'],
    ['a bad image', { image: 'Example.com/App:1' }, 'invalid image Example.com/App:1: invalid reference format'],
    ['a percentage', { parallelism: '50%' }, 'parallelism does not support percentage value'],
    ['a negative parallelism', { parallelism: -1 }, 'parallelism must be non-negative'],
    ['a deadline under the timeout', { completionPolicy: { type: 'Always', activeDeadlineSeconds: 10 } }, 'completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds(default 600)'],
    ['Never with a TTL', { completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 10 } }, 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType'],
  ])('refuses %s', async (_what, spec, message) => {
    expect(await attempt(create('refused', spec))).toContain(message);
  });

  it('keeps pullSecrets immutable', async () => {
    await create('secrets', { selector: { names: ['no-such-node'] }, pullSecrets: ['a'], parallelism: 0 });
    expect(await attempt(env.kube.patch(ref('secrets'), { spec: { pullSecrets: ['b'] } }))).toContain('spec.pullSecrets is immutable');
  });
});

describe('pulls through the kubelet', () => {
  it('one pinned pull pod per node, the job\'s secrets and pull policy; done once the kubelet reports the imageID', async () => {
    await create('basic', { selector: { names: LIVE }, parallelism: 2, pullSecrets: ['registry-cred'], imagePullPolicy: 'Always', pullPolicy: { timeoutSeconds: 120 } });
    const done = await waitStatus('basic', 'completed, both nodes pulled', (s) => s.completionTime !== undefined && s.succeeded === 2);
    expect(done.status).toMatchObject({ desired: 2, active: 0, succeeded: 2, failed: 0, message: 'job has completed' });
    const pods = await pullPods('basic');
    expect(pods.map((p) => p.spec?.nodeName).sort()).toEqual(LIVE);
    for (const p of pods) {
      expect(p.status?.phase).toBe('Succeeded');
      expect(p.status?.containerStatuses?.[0]?.imageID).toMatch(/^docker-pullable:\/\/example.com\/app@sha256:/);
      expect(p.spec).toMatchObject({
        restartPolicy: 'Never', activeDeadlineSeconds: 120, tolerations: [{ operator: 'Exists' }], imagePullSecrets: [{ name: 'registry-cred' }],
        initContainers: [{ name: 'helper', image: HELPER.image, command: ['cp', '/bin/true', '/ks-pull/true'] }],
        containers: [{ name: 'pull', image: 'example.com/app:1', imagePullPolicy: 'Always', command: ['/ks-pull/true'] }],
      });
      expect(p.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'ImagePullJob', name: 'basic', controller: true });
    }
  });

  it('a label selector; parallelism holds the other nodes back while a kubelet does not answer; the timeout and backoffLimit fail that node', async () => {
    // Dead nodes sort first: they take both slots, and hold them until their two attempts time out.
    await env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name: LIVE[0]! } }, { metadata: { labels: { 'e2e.kruise-serverless.io/ipj-pool': 'yes' } } });
    for (const name of DEAD) await env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name } }, { metadata: { labels: { 'e2e.kruise-serverless.io/ipj-pool': 'yes' } } });
    await create('held', { selector: { matchLabels: { 'e2e.kruise-serverless.io/ipj-pool': 'yes' } }, parallelism: 2, pullPolicy: { timeoutSeconds: 2, backoffLimit: 1 } });
    const held = await waitStatus('held', 'two pulls active', (s) => s.active === 2 && s.desired === 3);
    expect(held.status?.succeeded ?? 0).toBe(0);
    expect((await pullPods('held')).map((p) => p.spec?.nodeName).filter((n) => n === LIVE[0])).toEqual([]);
    const done = await waitStatus('held', 'completed', (s) => s.completionTime !== undefined);
    expect(done.status).toMatchObject({ desired: 3, succeeded: 1, failed: 2, failedNodes: DEAD, message: 'job has completed' });
    const said = await events('ImagePullJob', 'held');
    for (const n of DEAD) {
      expect(said).toContain(`Warning PullImageFailed: Node ${n}: attempt 0 failed (no pull within 2s); retrying, attempt 1 of 2`);
      expect(said).toContain(`Warning PullImageFailed: Node ${n}: attempt 1 failed (no pull within 2s); no retries left`);
    }
  });

  it('a pull the kubelet refuses (ErrImagePull) is retried backoffLimit times, then the node fails', async () => {
    env.kubelet.failPull('example.com/missing:1');
    await create('refused-pull', { image: 'example.com/missing:1', selector: { names: [LIVE[1]!] }, pullPolicy: { backoffLimit: 2 } });
    const done = await waitStatus('refused-pull', 'completed', (s) => s.completionTime !== undefined);
    expect(done.status).toMatchObject({ desired: 1, succeeded: 0, failed: 1, failedNodes: [LIVE[1]] });
    const said = await events('ImagePullJob', 'refused-pull');
    expect(said.filter((e) => /attempt [012] failed \(pull: (ErrImagePull|ImagePullBackOff): /.test(e))).toHaveLength(3);
    expect(said.some((e) => e.includes('attempt 2 failed') && e.includes('no retries left'))).toBe(true);
    // The last attempt's pod stops: its kubelet would keep backing off.
    await eventually('no pull pod left waiting', async () => ((await pullPods('refused-pull')).every((p) => p.metadata.deletionTimestamp || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') ? true : undefined));
  });

  it('activeDeadlineSeconds ends the job with every unfinished node failed', async () => {
    await create('deadline', { selector: { names: [DEAD[0]!, LIVE[0]!] }, parallelism: 2, pullPolicy: { timeoutSeconds: 2, backoffLimit: 100 }, completionPolicy: { type: 'Always', activeDeadlineSeconds: 4 } });
    const done = await waitStatus('deadline', 'past its deadline', (s) => s.completionTime !== undefined);
    expect(done.status).toMatchObject({ desired: 2, succeeded: 1, failed: 1, failedNodes: [DEAD[0]], message: 'job exceeds activeDeadlineSeconds' });
  });

  it('ttlSecondsAfterFinished deletes the finished job, and its pods with it', async () => {
    await create('ttl', { selector: { names: [LIVE[0]!] }, completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 3 } });
    await waitStatus('ttl', 'completed', (s) => s.completionTime !== undefined);
    await eventually('the job is gone', async () => ((await job('ttl')) ? undefined : true), 30_000);
    await eventually('its pods are gone', async () => ((await pullPods('ttl')).length === 0 ? true : undefined), 30_000);
  });

  it('Never: keeps running, and pulls on a node that joins the selection', async () => {
    await create('never', { selector: { matchLabels: { 'e2e.kruise-serverless.io/ipj-never': 'yes' } }, completionPolicy: { type: 'Never' }, parallelism: 5 });
    await waitStatus('never', 'nothing to do yet', (s) => s.desired === 0);
    await env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name: LIVE[1]! } }, { metadata: { labels: { 'e2e.kruise-serverless.io/ipj-never': 'yes' } } });
    const one = await waitStatus('never', 'the labelled node pulled', (s) => s.succeeded === 1);
    expect(one.status).toMatchObject({ desired: 1, active: 0, succeeded: 1, message: 'job is running, progress 100.0%' });
    expect(one.status?.completionTime).toBeUndefined();
    await env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name: LIVE[0]! } }, { metadata: { labels: { 'e2e.kruise-serverless.io/ipj-never': 'yes' } } });
    const two = await waitStatus('never', 'the second node pulled', (s) => s.succeeded === 2);
    expect(two.status?.completionTime).toBeUndefined();
  });

  it('podSelector: the nodes running the selected pods', async () => {
    for (const [i, node] of LIVE.entries()) {
      await env.kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `web-${i}`, namespace: env.ns, labels: { app: 'ipj-web' } }, spec: { nodeName: node, containers: [{ name: 'c', image: 'web:1' }] } });
    }
    await create('by-pods', { podSelector: { matchLabels: { app: 'ipj-web' } }, parallelism: 2 });
    const done = await waitStatus('by-pods', 'completed', (s) => s.completionTime !== undefined);
    expect(done.status).toMatchObject({ desired: 2, succeeded: 2, failed: 0 });
  });
});

describe('node images and the sandbox config', () => {
  it('a node whose kubelet lists the image gets no pull pod; the other pulls, its pod carrying sandboxConfig labels and annotations', async () => {
    const [has, lacks] = ['ipj-has-image', 'ipj-lacks-image'];
    await env.kubelet.addNodes([{ name: has, labels: { 'e2e.kruise-serverless.io/ipj': 'images' } }, { name: lacks, labels: { 'e2e.kruise-serverless.io/ipj': 'images' } }]);
    try {
      const nodeRef = (name: string) => ({ apiVersion: 'v1', kind: 'Node', metadata: { name } });
      // The kubelet's list: the wanted image among 49 others; the other node lists 50 others (capped: no proof either way).
      const others = (n: number) => Array.from({ length: n }, (_, i) => ({ names: [`docker.io/library/other${i}:1`], sizeBytes: 1000 - i }));
      await env.kube.patch(nodeRef(has), { status: { images: [{ names: ['example.com/app@sha256:' + 'd'.repeat(64), 'example.com/app:cached'], sizeBytes: 2000 }, ...others(49)] } }, 'merge', 'status');
      await env.kube.patch(nodeRef(lacks), { status: { images: others(50) } }, 'merge', 'status');
      await create('cached', {
        image: 'example.com/app:cached', selector: { matchLabels: { 'e2e.kruise-serverless.io/ipj': 'images' } }, parallelism: 2,
        sandboxConfig: { labels: { team: 'storage' }, annotations: { 'example.com/note': 'pre-pull' } },
      });
      const done = await waitStatus('cached', 'completed on both nodes', (s) => s.completionTime !== undefined && s.succeeded === 2);
      expect(done.status).toMatchObject({ desired: 2, succeeded: 2, failed: 0 });
      const pods = await pullPods('cached');
      expect(pods.map((p) => p.spec?.nodeName)).toEqual([lacks]);
      expect(pods[0]!.metadata.labels).toMatchObject({ team: 'storage' });
      expect(pods[0]!.metadata.annotations).toMatchObject({ 'example.com/note': 'pre-pull' });
    } finally {
      await env.kubelet.removeNodes([has, lacks]);
    }
  });
});

describe('CloneSet image pre-download (PreDownloadImageForInPlaceUpdate)', () => {
  const createCloneSet = (name: string, replicas: number, annotations: Record<string, string>, strategy: Record<string, unknown>) =>
    env.kube.create({
      ...CS, metadata: { name, namespace: env.ns, annotations },
      spec: { replicas, selector: { matchLabels: { app: name } }, updateStrategy: strategy, template: { metadata: { labels: { app: name } }, spec: { imagePullSecrets: [{ name: 'registry-cred' }], containers: [{ name: 'main', image: 'example.com/web:1' }] } } },
    });
  const revisions = async (name: string) => (await env.kube.list<Revision>('apps/v1', 'ControllerRevision', { namespace: env.ns })).items.filter((r) => r.metadata.name.startsWith(`${name}-`));
  const statusOf = async (name: string) => (await env.kube.get<KubeObject & { status?: { readyReplicas?: number; updateRevision?: string; currentRevision?: string; updatedReplicas?: number } }>(CS.apiVersion, CS.kind, name, env.ns)).status ?? {};

  it('an in-place image update gets an ImagePullJob on its pods\' nodes; it goes once the revisions converge', async () => {
    await createCloneSet('web', 4, { 'apps.kruise.io/image-predownload-parallelism': '2' }, { type: 'InPlaceIfPossible', partition: 4, maxUnavailable: 1 });
    await eventually('4 ready pods', async () => ((await statusOf('web')).readyReplicas === 4 ? true : undefined));
    await env.kube.patch({ ...CS, metadata: { name: 'web', namespace: env.ns } }, { spec: { template: { spec: { containers: [{ name: 'main', image: 'example.com/web:2' }] } } } });
    const update = await eventually('a new update revision', async () => {
      const s = await statusOf('web');
      return s.updateRevision && s.updateRevision !== s.currentRevision ? s.updateRevision : undefined;
    });
    const name = `${update}-main`;
    const j = await waitStatus(name, 'completed on the pods\' nodes', (s) => s.completionTime !== undefined);
    const nodes = new Set((await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: 'app=web' })).items.filter((p) => !p.metadata.labels?.['imagepulljob.kruise-serverless.io/name']).map((p) => p.spec?.nodeName));
    expect(j.status).toMatchObject({ desired: nodes.size, succeeded: nodes.size, failed: 0 });
    expect(j.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'CloneSet', name: 'web', controller: true });
    expect(j.spec).toMatchObject({
      image: 'example.com/web:2', parallelism: 2, pullSecrets: ['registry-cred'],
      pullPolicy: { backoffLimit: 1, timeoutSeconds: 300 }, completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 600 },
      podSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'controller-revision-hash', operator: 'NotIn' }] },
    });
    expect(j.metadata.labels).toMatchObject({ app: 'web' });
    const labelled = (await revisions('web')).find((r) => r.metadata.name === update);
    expect(labelled?.metadata.labels?.['apps.kruise.io/pre-predownload-created']).toBe('true');
    expect(await events('CloneSet', 'web')).toContain(`Normal CreatedImagePullJob: created ImagePullJob ${name} for image: example.com/web:2`);
    // The pull pods do not carry the CloneSet's labels: they are not its pods, nor its Services' endpoints.
    expect((await pullPods(name)).every((p) => p.metadata.labels?.['app'] === undefined)).toBe(true);

    await env.kube.patch({ ...CS, metadata: { name: 'web', namespace: env.ns } }, { spec: { updateStrategy: { partition: 0 } } });
    await eventually('the revisions converged', async () => {
      const s = await statusOf('web');
      return s.currentRevision === s.updateRevision && s.updatedReplicas === 4 ? true : undefined;
    }, 60_000);
    await eventually('the ImagePullJob is deleted', async () => ((await job(name)) ? undefined : true));
  });

  it('3 replicas or fewer: the revision is labelled ignored, no job', async () => {
    await createCloneSet('small', 3, {}, { type: 'InPlaceIfPossible', partition: 3 });
    await eventually('3 ready pods', async () => ((await statusOf('small')).readyReplicas === 3 ? true : undefined));
    await env.kube.patch({ ...CS, metadata: { name: 'small', namespace: env.ns } }, { spec: { template: { spec: { containers: [{ name: 'main', image: 'example.com/web:2' }] } } } });
    const ignored = await eventually('the update revision labelled ignored', async () => {
      const s = await statusOf('small');
      const r = (await revisions('small')).find((x) => x.metadata.name === s.updateRevision && s.updateRevision !== s.currentRevision);
      return r?.metadata.labels?.['apps.kruise.io/image-predownload-ignored'] === 'true' ? r : undefined;
    });
    expect(await job(`${ignored.metadata.name}-main`)).toBeUndefined();
  });
});
