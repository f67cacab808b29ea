// ImageListPullJob end to end on a real API server, fake nodes and the fake kubelet: the webhooks
// on the production Worker, the ImageListPullJob and ImagePullJob controllers through the Node
// loop (full resync set to an hour so that nothing here waits for it). The fake kubelet reports
// each pull's imageID and refuses the pulls of images a test names. Users' steps follow each other
// with no sleep; tests wait with `eventually`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagePullJobFeature } from '../../src/imagepulljob/index.js';
import { imagePullJobReconcilerFor } from '../../src/imagepulljob/controller/reconciler.js';
import { imageListPullJobFeature } from '../../src/imagelistpulljob/index.js';
import { imageListPullJobReconciler } from '../../src/imagelistpulljob/controller/reconciler.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import type { Reconciler } from '../../src/reconcile/types.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { attempt, eventually } from './support/kube.js';

const ILPJ = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob' } as const;
const IPJ = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob' } as const;
const HELPER = { image: 'registry.example/busybox:1.36.1-musl', binary: '/bin/true' };
const NODES = ['ilpj-node-a', 'ilpj-node-b'];

type Status = { desired?: number; active?: number; completed?: number; succeeded?: number; failedImageStatuses?: { imagePullJob?: string; name?: string; message?: string }[]; startTime?: string; completionTime?: string };
type ListJob = KubeObject & { metadata: { name: string; uid?: string; labels?: Record<string, string> }; spec: Record<string, unknown>; status?: Status };
type PullJob = KubeObject & { metadata: { name: string; labels?: Record<string, string>; ownerReferences?: { kind?: string; name?: string; controller?: boolean }[]; deletionTimestamp?: string }; spec: Record<string, unknown>; status?: { desired?: number; succeeded?: number; failed?: number } };

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;

beforeAll(async () => {
  env = await startEdgeEnv('ilpj', [imagePullJobFeature, imageListPullJobFeature]);
  env.kubelet.exitOnStart('/ks-pull/true');
  stop = new AbortController();
  const reconcilers = [imagePullJobReconcilerFor({ helper: HELPER }), imageListPullJobReconciler] as Reconciler[];
  loop = runLoop({
    kube: env.kube, reconcilers, watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `ilpj-loop-${r.kind}-${scope.kind}` }),
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.dispose();
});

const listJob = (name: string, apiVersion: string = ILPJ.apiVersion) => env.kube.get<ListJob>(apiVersion, ILPJ.kind, name, env.ns).catch(() => undefined);
const pullJobs = async (name: string) =>
  (await env.kube.list<PullJob>(IPJ.apiVersion, IPJ.kind, { namespace: env.ns })).items.filter((j) => j.metadata.ownerReferences?.some((o) => o.kind === 'ImageListPullJob' && o.name === name && o.controller));
const waitStatus = (name: string, what: string, ok: (s: Status) => boolean, ms = 30_000) =>
  eventually(`${name}: ${what}`, async () => {
    const j = await listJob(name);
    return j?.status && ok(j.status) ? j : undefined;
  }, ms, 30).catch(async (e: unknown) => {
    throw new Error(`${String(e)}\n${(await pullJobs(name)).map((j) => `${j.metadata.name} ${String(j.spec.image)} ${JSON.stringify(j.status)}`).join('\n')}\n${JSON.stringify((await listJob(name))?.status)}`);
  });
const create = (name: string, spec: Record<string, unknown>, apiVersion: string = ILPJ.apiVersion) =>
  env.kube.create<ListJob>({ apiVersion, kind: ILPJ.kind, metadata: { name, namespace: env.ns }, spec: { images: ['example.com/a:1', 'example.com/b:1'], ...spec } });

describe('webhooks', () => {
  it("defaults OpenKruise's completionPolicy and pullPolicy, in either version", async () => {
    for (const [name, version] of [['defaults-beta', 'apps.kruise.io/v1beta1'], ['defaults-alpha', 'apps.kruise.io/v1alpha1']] as const) {
      const j = await create(name, { selector: { names: ['no-such-node'] }, parallelism: 0 }, version);
      expect(j.spec).toMatchObject({ completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } });
    }
  });

  it.each([
    ['no images', { images: [] }, 'image can not be empty'],
    ['duplicated images', { images: ['example.com/a:1', 'example.com/a:1'] }, 'images cannot have duplicate values'],
    ['a bad image', { images: ['Example.com/App:1'] }, 'invalid image Example.com/App:1: invalid reference format'],
    ['names and a label selector', { selector: { names: ['a'], matchLabels: { a: 'b' } } }, 'can not set both names and labelSelector in this spec.selector'],
    ['selector and podSelector', { selector: { names: ['a'] }, podSelector: { matchLabels: { a: 'b' } } }, 'can not set both selector and podSelector'],
    ['Never with a TTL', { completionPolicy: { type: 'Never', ttlSecondsAfterFinished: 10 } }, 'activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType'],
  ])('refuses %s', async (_what, spec, message) => {
    expect(await attempt(create('refused', spec))).toContain(message);
    expect(await attempt(create('refused', spec, 'apps.kruise.io/v1alpha1'))).toContain(message);
  });
});

describe('fans out one ImagePullJob per image', () => {
  it('each ImagePullJob carries the template and the hash; the list job completes once every one has', async () => {
    await create('basic', { selector: { names: NODES }, parallelism: 2, pullPolicy: { timeoutSeconds: 120 } });
    const done = await waitStatus('basic', 'completed', (s) => s.completionTime !== undefined);
    expect(done.status).toMatchObject({ desired: 2, active: 0, completed: 2, succeeded: 2 });
    expect(done.status?.failedImageStatuses).toBeUndefined();
    const hash = done.metadata.labels?.['controller-revision-hash'];
    expect(hash).toBeTruthy();
    const children = await pullJobs('basic');
    expect(children.map((c) => c.spec.image).sort()).toEqual(['example.com/a:1', 'example.com/b:1']);
    for (const c of children) {
      expect(c.metadata.labels?.['controller-revision-hash']).toBe(hash);
      expect(c.spec).toMatchObject({ selector: { names: NODES }, parallelism: 2, pullPolicy: { timeoutSeconds: 120, backoffLimit: 3 }, completionPolicy: { type: 'Always' } });
      expect(c.status).toMatchObject({ desired: 2, succeeded: 2, failed: 0 });
    }
    // Served as v1alpha1 too, same object.
    expect((await listJob('basic', 'apps.kruise.io/v1alpha1'))?.status).toMatchObject({ desired: 2, completed: 2 });
  });

  it('a failed image is listed with its ImagePullJob', async () => {
    env.kubelet.failPull('example.com/missing:1');
    await create('partial', { images: ['example.com/a:1', 'example.com/missing:1'], selector: { names: [NODES[0]!] }, pullPolicy: { backoffLimit: 0 } });
    const done = await waitStatus('partial', 'completed', (s) => s.completionTime !== undefined);
    const failed = (await pullJobs('partial')).find((c) => c.spec.image === 'example.com/missing:1')!;
    expect(done.status).toMatchObject({
      desired: 2, completed: 2, succeeded: 1,
      failedImageStatuses: [{ imagePullJob: failed.metadata.name, name: 'example.com/missing:1', message: `Please check for details which nodes failed by 'kubectl get ImagePullJob ${failed.metadata.name}'.` }],
    });
  });

  it('Never: a new image gets its ImagePullJob, a removed one loses it; a changed template replaces them all', async () => {
    await create('never', { images: ['example.com/a:1'], selector: { names: [NODES[1]!] }, completionPolicy: { type: 'Never' } });
    await waitStatus('never', 'a pulled', (s) => s.succeeded === 1);
    const ref = { apiVersion: ILPJ.apiVersion, kind: ILPJ.kind, metadata: { name: 'never', namespace: env.ns } };
    await env.kube.patch(ref, { spec: { images: ['example.com/b:1'] } });
    await eventually('b replaces a', async () => {
      const live = (await pullJobs('never')).filter((c) => !c.metadata.deletionTimestamp).map((c) => String(c.spec.image));
      return live.length === 1 && live[0] === 'example.com/b:1' ? true : undefined;
    });
    const before = (await pullJobs('never')).find((c) => c.spec.image === 'example.com/b:1')!.metadata.name;
    await env.kube.patch(ref, { spec: { parallelism: 3 } });
    await eventually('a new ImagePullJob from the new template', async () => {
      const live = (await pullJobs('never')).filter((c) => !c.metadata.deletionTimestamp);
      return live.length === 1 && live[0]!.metadata.name !== before && live[0]!.spec.parallelism === 3 ? true : undefined;
    });
    const still = await waitStatus('never', 'b pulled', (s) => s.succeeded === 1 && s.desired === 1);
    expect(still.status?.completionTime).toBeUndefined();
  });

  it('ttlSecondsAfterFinished deletes the finished list job, and its ImagePullJobs with it', async () => {
    await create('ttl', { images: ['example.com/a:1'], selector: { names: [NODES[0]!] }, completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 2 } });
    await waitStatus('ttl', 'completed', (s) => s.completionTime !== undefined);
    await eventually('the list job is gone', async () => ((await listJob('ttl')) ? undefined : true), 30_000);
    await eventually('its ImagePullJobs are gone', async () => ((await pullJobs('ttl')).length === 0 ? true : undefined), 30_000);
  });
});
