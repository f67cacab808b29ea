// CloneSet end to end on a real API server, so far its validating webhook on the production Worker
// (Miniflare over HTTPS): OpenKruise's rules and messages, with no state to push first.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cloneSetFeature } from '../../src/cloneset/index.js';
import { cloneSetReconciler } from '../../src/cloneset/controller/reconciler.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { imageIdOf } from '../cluster/fake-kubelet.js';
import { deniedBy } from './support/disrupt.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { attempt as answerOf, createNamespace, deleteNamespace, eventually, testKubeConfig } from './support/kube.js';

const attempt = (call: Promise<unknown>) => answerOf(call, 'created');

const VKRUISE = 'vkruise.kruise-serverless.io';
let env: EdgeEnv;

beforeAll(async () => {
  env = await startEdgeEnv('cs', [cloneSetFeature]);
});
afterAll(async () => env?.dispose());

const seed = (file: string): KubeObject => ({ ...(parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', file), 'utf8')) as KubeObject) });
const inNs = (obj: KubeObject): KubeObject => ({ ...obj, metadata: { ...obj.metadata, namespace: env.ns } });

/** 'created', or the status and message the client sees. */
describe('the CloneSet defaulting webhook', () => {
  it('stores a CloneSet with OpenKruise’s defaults, its template’s included (imagePullPolicy Always)', async () => {
    const cs = inNs(seed('001-cloneset-basic.yaml'));
    const stored = (await env.kube.create({ ...cs, metadata: { ...cs.metadata, name: 'defaulted' } })) as KubeObject & { spec: Record<string, unknown> };
    expect(stored.spec).toMatchObject({
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'ReCreate', partition: 0, maxUnavailable: '20%', maxSurge: 0 },
      template: { spec: { dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', schedulerName: 'default-scheduler', securityContext: {}, terminationGracePeriodSeconds: 30 } },
    });
    const containers = (stored.spec.template as { spec: { containers: Record<string, unknown>[] } }).spec.containers;
    for (const c of containers) expect(c).toMatchObject({ imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' });
  });
});

describe('the CloneSet validating webhook', () => {
  it('admits the seeds’ CloneSets, as applied', async () => {
    for (const file of ['001-cloneset-basic.yaml', '001-cloneset-maxsurge-partition.yaml', '001-cloneset-scatter-strategy.yaml']) {
      expect(await attempt(env.kube.create(inNs(seed(file)))), file).toBe('created');
    }
  });

  it('refuses a selector that does not match the template, with OpenKruise’s message and 422', async () => {
    const cs = inNs(seed('001-cloneset-basic.yaml'));
    const bad = { ...cs, metadata: { name: 'mismatch', namespace: env.ns }, spec: { ...(cs.spec as object), selector: { matchLabels: { app: 'other' } } } };
    const got = await attempt(env.kube.create(bad));
    expect(got).toMatch(/^422 /);
    expect(got).toContain(deniedBy(VKRUISE, 'spec.template.metadata.labels: Invalid value: map[string]string{'));
    expect(got).toContain('`selector` does not match template `labels`');
  });

  it('refuses maxSurge with InPlaceOnly, and maxUnavailable and maxSurge both 0', async () => {
    const cs = inNs(seed('001-cloneset-basic.yaml'));
    const spec = cs.spec as Record<string, unknown>;
    expect(await attempt(env.kube.create({ ...cs, metadata: { name: 'surge', namespace: env.ns }, spec: { ...spec, updateStrategy: { type: 'InPlaceOnly', maxSurge: 1 } } })))
      .toBe(`422 ${deniedBy(VKRUISE, 'spec.updateStrategy.maxSurge: Invalid value: "1": can not use maxSurge with strategy type InPlaceOnly')}`);
    expect(await attempt(env.kube.create({ ...cs, metadata: { name: 'stuck', namespace: env.ns }, spec: { ...spec, updateStrategy: { maxUnavailable: 0, maxSurge: 0 } } })))
      .toBe(`422 ${deniedBy(VKRUISE, 'spec.updateStrategy.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: maxUnavailable and maxSurge should not both be less than 1')}`);
  });

  it('on update: the selector is immutable, and InPlaceOnly allows image changes only', async () => {
    const cs = inNs(seed('001-cloneset-basic.yaml'));
    const spec = cs.spec as { selector: unknown; template: { metadata: { labels: Record<string, string> }; spec: { containers: Record<string, unknown>[] } } };
    const created = await env.kube.create<KubeObject>({ ...cs, metadata: { name: 'inplace', namespace: env.ns }, spec: { ...spec, updateStrategy: { type: 'InPlaceOnly' } } });
    const labels = { ...spec.template.metadata.labels, extra: 'x' };
    expect(await attempt(env.kube.patch(created, { spec: { selector: { matchLabels: labels }, template: { metadata: { labels } } } })))
      .toBe(`422 ${deniedBy(VKRUISE, "spec: Forbidden: updates to cloneset spec for fields other than 'replicas', 'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', 'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden")}`);
    const [first] = spec.template.spec.containers;
    expect(await attempt(env.kube.patch(created, { spec: { template: { spec: { containers: [{ ...first, image: 'nginx:1.27' }] } } } }))).toBe('created');
    expect(await attempt(env.kube.patch(created, { spec: { template: { spec: { containers: [{ ...first, image: 'nginx:1.27', env: [{ name: 'A', value: 'b' }] }] } } } })))
      .toBe(`422 ${deniedBy(VKRUISE, 'spec: Forbidden: only allowed to update images in spec for InPlaceOnly, but found add /containers/0/env')}`);
  });
});

describe('the CloneSet controller (scale and status)', () => {
  type Pod = KubeObject & { metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string } };
  const livePods = async (app: string) =>
    ((await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${app}` })).items).filter((p) => !p.metadata.deletionTimestamp);
  const cloneSetOf = (name: string, replicas: number): KubeObject => ({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name, namespace: env.ns },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } } },
  });

  it('two back-to-back runs never double-create: fresh LISTs, no expectations', async () => {
    await env.kube.create(cloneSetOf('twice', 3));
    const scope = { kind: 'objects' as const, objects: [{ namespace: env.ns, name: 'twice' }] };
    await runReconciler(env.kube, cloneSetReconciler, { scope, identity: 'cs-e2e-1' });
    await runReconciler(env.kube, cloneSetReconciler, { scope, identity: 'cs-e2e-2' });
    const pods = await livePods('twice');
    expect(pods).toHaveLength(3);
    for (const p of pods) expect(p.metadata.name).toBe(`twice-${p.metadata.labels?.['apps.kruise.io/cloneset-instance-id']}`);
  });

  it('creates in slow-start batches: at a quota for 3 pods, 10 replicas send 1 + 2 + 4 pod creates, then 1 per run', async () => {
    const kc = testKubeConfig();
    const ns = await createNamespace(kc, 'cs-quota');
    try {
      // CPU for three pods of 100m. Quota admission reads quotas from its own cache: wait until a
      // dry-run create of a 400m pod is refused, so the first run meets the quota.
      await env.kube.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'three-pods', namespace: ns }, spec: { hard: { 'requests.cpu': '300m' } } });
      const withCpu = (obj: KubeObject, cpu: string) => JSON.parse(JSON.stringify(obj).replace('"image":"app:1"', `"image":"app:1","resources":{"requests":{"cpu":"${cpu}"}}`)) as KubeObject;
      const probe = withCpu({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probe', namespace: ns }, spec: { containers: [{ name: 'main', image: 'app:1' }] } }, '400m');
      // (Until the quota controller writes its status, admission refuses every pod: wait for that first.)
      await eventually('quota status', async () => ((await env.kube.get<KubeObject & { status?: { hard?: unknown } }>('v1', 'ResourceQuota', 'three-pods', ns)).status?.hard ? true : undefined));
      await eventually('quota enforced', async () => ((await attempt(env.kube.create(probe, { dryRun: 'All' }))).includes('exceeded quota') ? true : undefined));
      await env.kube.create(withCpu({ ...cloneSetOf('slow', 10), metadata: { name: 'slow', namespace: ns } }, '100m'));
      let podCreates = 0;
      const counting = new Proxy(env.kube, {
        get(target, prop, receiver) {
          if (prop === 'create') {
            return (obj: KubeObject, ...rest: unknown[]) => {
              if (obj.kind === 'Pod') podCreates++;
              return (target.create as (...a: unknown[]) => Promise<unknown>).call(target, obj, ...rest);
            };
          }
          const v = Reflect.get(target, prop, receiver) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      const scope = { kind: 'objects' as const, objects: [{ namespace: ns, name: 'slow' }] };
      const lines: string[] = [];
      const first = await runReconciler(counting, cloneSetReconciler, { scope, identity: 'cs-slow', log: (m) => lines.push(m) });
      expect(podCreates).toBe(7);
      expect(first.failed.filter((f) => f.write.startsWith('create Pod'))).toHaveLength(4);
      expect(lines.join('\n')).toMatch(/3 slow-start writes not sent after a failure/);
      expect((await env.kube.list('v1', 'Pod', { namespace: ns })).items).toHaveLength(3);
      // SuccessfulCreate is told for the 3 pods created, not for the refused or unsent ones.
      expect((await env.kube.list('v1', 'Event', { namespace: ns, fieldSelector: 'reason=SuccessfulCreate' })).items).toHaveLength(3);
      podCreates = 0;
      await runReconciler(counting, cloneSetReconciler, { scope, identity: 'cs-slow' });
      expect(podCreates).toBe(1);
    } finally {
      await deleteNamespace(kc, ns);
    }
  });

  it('through the Node loop: scales out and in, replaces a pod named in podsToDelete and then drops its name, and reports status', async () => {
    const stop = new AbortController();
    const loop = runLoop({
      kube: env.kube, reconcilers: [cloneSetReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
      run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `cs-loop-${scope.kind}` }),
    });
    try {
      const cs = await env.kube.create(cloneSetOf('looped', 4));
      await eventually('4 ready pods in status', async () => {
        const got = await env.kube.get<KubeObject & { status?: { readyReplicas?: number; replicas?: number; updatedReplicas?: number } }>('apps.kruise.io/v1alpha1', 'CloneSet', 'looped', env.ns);
        return got.status?.readyReplicas === 4 && got.status.updatedReplicas === 4 ? got : undefined;
      }, 30_000, 50);
      const victim = (await livePods('looped'))[0]!.metadata.name;
      await env.kube.patch(cs, { spec: { scaleStrategy: { podsToDelete: [victim] } } });
      await eventually('the named pod replaced', async () => {
        const names = (await livePods('looped')).map((p) => p.metadata.name);
        return names.length === 4 && !names.includes(victim) ? true : undefined;
      }, 30_000, 50);
      // Its name is dropped from podsToDelete once it is gone (OpenKruise's truncatePodsToDelete).
      await eventually('podsToDelete emptied', async () => {
        const got = await env.kube.get<KubeObject & { spec: { scaleStrategy?: { podsToDelete?: string[] } } }>('apps.kruise.io/v1alpha1', 'CloneSet', 'looped', env.ns);
        return (got.spec.scaleStrategy?.podsToDelete ?? []).length === 0 ? true : undefined;
      }, 30_000, 50);
      await env.kube.patch(cs, { spec: { replicas: 2 } });
      await eventually('scaled in to 2', async () => ((await livePods('looped')).length === 2 ? true : undefined), 30_000, 50);
      const status = (await env.kube.get<KubeObject & { status?: Record<string, unknown> }>('apps.kruise.io/v1alpha1', 'CloneSet', 'looped', env.ns)).status;
      expect(status).toMatchObject({ labelSelector: 'app=looped', collisionCount: 0 });
      expect(String(status?.updateRevision)).toMatch(/^looped-/);
    } finally {
      stop.abort();
      await loop;
    }
  });

  it('through the Node loop: an image change under InPlaceIfPossible updates every pod in place (same pods, new image) and reports it', async () => {
    const stop = new AbortController();
    const loop = runLoop({
      kube: env.kube, reconcilers: [cloneSetReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
      run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `cs-inplace-${scope.kind}` }),
    });
    type Status = { readyReplicas?: number; updatedReplicas?: number; updatedReadyReplicas?: number; updateRevision?: string; currentRevision?: string };
    const statusOf = async () => (await env.kube.get<KubeObject & { status?: Status }>('apps.kruise.io/v1alpha1', 'CloneSet', 'rolled', env.ns)).status;
    try {
      const base = cloneSetOf('rolled', 3);
      const cs = await env.kube.create({ ...base, spec: { ...(base.spec as object), updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 } } });
      await eventually('3 ready', async () => ((await statusOf())?.readyReplicas === 3 ? true : undefined), 30_000, 50);
      const before = new Map((await livePods('rolled')).map((p) => [p.metadata.name, (p.metadata as { uid?: string }).uid]));
      const first = await statusOf();
      await env.kube.patch(cs, { spec: { template: { spec: { containers: [{ name: 'main', image: 'app:2' }] } } } });
      const done = await eventually('all updated in place and ready', async () => {
        const s = await statusOf();
        return s?.updatedReadyReplicas === 3 && s.readyReplicas === 3 && s.updateRevision !== first?.updateRevision ? s : undefined;
      }, 60_000, 50);
      expect(done.currentRevision).toBe(done.updateRevision);
      const after = await livePods('rolled');
      // The same pods (names and uids): nothing was recreated.
      expect(new Map(after.map((p) => [p.metadata.name, (p.metadata as { uid?: string }).uid]))).toEqual(before);
      for (const p of after) {
        expect((p.spec as { containers: { image: string }[] }).containers[0]!.image).toBe('app:2');
        expect(p.metadata.labels?.['controller-revision-hash']).toBe(done.updateRevision);
      }
    } finally {
      stop.abort();
      await loop;
    }
  });
  it('through the Node loop: a new tag of the same digest (imageID unchanged, the runtime naming the old tag) completes in place (kruise#2297)', async () => {
    env.kubelet.reportImage('repo/app:v2', { image: 'repo/app:v1', imageID: imageIdOf('repo/app:v1') });
    const stop = new AbortController();
    const loop = runLoop({
      kube: env.kube, reconcilers: [cloneSetReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
      run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `cs-retag-${scope.kind}` }),
    });
    type Status = { readyReplicas?: number; updatedReadyReplicas?: number; updateRevision?: string };
    const statusOf = async () => (await env.kube.get<KubeObject & { status?: Status }>('apps.kruise.io/v1alpha1', 'CloneSet', 'retag', env.ns)).status;
    try {
      const base = cloneSetOf('retag', 2);
      const spec = base.spec as { template: { spec: { containers: { name: string; image: string }[] } } };
      spec.template.spec.containers[0]!.image = 'repo/app:v1';
      const cs = await env.kube.create({ ...base, spec: { ...spec, updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 } } });
      await eventually('2 ready', async () => ((await statusOf())?.readyReplicas === 2 ? true : undefined), 30_000, 50);
      const first = await statusOf();
      await env.kube.patch(cs, { spec: { template: { spec: { containers: [{ name: 'main', image: 'repo/app:v2' }] } } } });
      await eventually('both updated in place and ready again', async () => {
        const s = await statusOf();
        return s?.updatedReadyReplicas === 2 && s.readyReplicas === 2 && s.updateRevision !== first?.updateRevision ? s : undefined;
      }, 30_000, 50);
      for (const p of await livePods('retag')) {
        const cs0 = (p.status as { containerStatuses: { image: string; restartCount: number }[] }).containerStatuses[0]!;
        expect(cs0).toMatchObject({ image: 'repo/app:v1', restartCount: 1 });
      }
    } finally {
      stop.abort();
      await loop;
    }
  });
});
