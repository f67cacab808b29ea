// The Advanced StatefulSet controller end to end on a real API server, through the Node loop (a
// pod's change runs its set at once), with the fake kubelet: the seeds' StatefulSets as applied.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { statefulSetReconciler } from '../../src/statefulset/controller/reconciler.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { isReady, startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { eventually, kubectl, testKube } from './support/kube.js';
import { deleteProvisionedVolumes, startProvisioner } from './support/provisioner.js';

const ASTS = 'apps.kruise.io/v1beta1';
type Status = { replicas?: number; readyReplicas?: number; availableReplicas?: number; updatedReplicas?: number; updatedReadyReplicas?: number; currentReplicas?: number; currentRevision?: string; updateRevision?: string; observedGeneration?: number };
type Sts = KubeObject & { metadata: { name: string; generation?: number }; spec: Record<string, unknown>; status?: Status };

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;
let provisioner: { stop(): Promise<void> };

beforeAll(async () => {
  env = await startEdgeEnv('asts', []);
  provisioner = startProvisioner(env.kube, env.ns);
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [statefulSetReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `asts-loop-${scope.kind}` }),
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await provisioner?.stop();
  await env?.dispose();
  const kube = await testKube();
  await deleteProvisionedVolumes(kube);
  kube.close();
});

const seed = (file: string): Sts => parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', file), 'utf8')) as Sts;
const inNs = (obj: Sts, name = obj.metadata.name): Sts => ({ ...obj, metadata: { ...obj.metadata, name, namespace: env.ns } });
const get = (name: string) => env.kube.get<Sts>(ASTS, 'StatefulSet', name, env.ns);
const podsOf = async (app: string): Promise<Pod[]> => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${app}` })).items;
const live = (pods: Pod[]) => pods.filter((p) => !(p.metadata as { deletionTimestamp?: string }).deletionTimestamp);
const names = (pods: Pod[]) => pods.map((p) => p.metadata.name).sort();
const imageOf = (p: Pod) => p.spec?.containers[0]?.image;
const revisionOf = (p: Pod) => p.metadata.labels?.['controller-revision-hash'];
/** A seed's set with its own app label (seeds share `app: nginx`). */
function withApp(obj: Sts, app: string): Sts {
  const spec = obj.spec as { selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> } } };
  return { ...obj, spec: { ...obj.spec, selector: { matchLabels: { app } }, template: { ...spec.template, metadata: { ...spec.template.metadata, labels: { ...spec.template.metadata.labels, app } } } } };
}
const settled = (name: string, replicas: number) =>
  eventually(`${name}: ${replicas} ready and updated`, async () => {
    const { status: s, metadata } = await get(name);
    return s?.observedGeneration === metadata.generation && s?.readyReplicas === replicas && s.updatedReplicas === replicas && s.replicas === replicas && s.currentRevision === s.updateRevision ? s : undefined;
  }, 60_000, 50);
/** A merge patch replaces the whole containers list (CRDs take no strategic merge): the first container as it was, with `image`. */
const setImage = (set: Sts, image: string, spec: Record<string, unknown> = {}) => {
  const [first, ...rest] = (set.spec.template as { spec: { containers: Record<string, unknown>[] } }).spec.containers;
  return env.kube.patch(set, { spec: { ...spec, template: { spec: { containers: [{ ...first, image }, ...rest] } } } });
};

describe('a drop-in for apps/v1 StatefulSet (seed 000 §3.2: only the apiVersion changes)', () => {
  it('creates sample-0 then sample-1, each only once the one before is ready, with their identity; status and kubectl columns', async () => {
    await env.kube.create(inNs(seed('000-statefulset-migrate-apiversion.yaml')));
    const s = await settled('sample', 2);
    const pods = await podsOf('sample-asts');
    expect(names(pods)).toEqual(['sample-0', 'sample-1']);
    const [p0, p1] = pods.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)) as [Pod, Pod];
    for (const [i, p] of [p0, p1].entries()) {
      expect(p.metadata.labels).toMatchObject({ 'statefulset.kubernetes.io/pod-name': `sample-${i}`, 'apps.kubernetes.io/pod-index': String(i), 'controller-revision-hash': s.updateRevision });
      expect(p.spec).toMatchObject({ hostname: `sample-${i}`, subdomain: 'sample' });
    }
    // OrderedReady: sample-1 was created after sample-0 became ready.
    const readyAt = p0.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime as unknown as string;
    expect(Date.parse(p1.metadata.creationTimestamp as unknown as string)).toBeGreaterThanOrEqual(Date.parse(readyAt));
    expect(s).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 2, currentReplicas: 2, updatedReplicas: 2, observedGeneration: 1 });
    const table = await kubectl('get', 'statefulsets.apps.kruise.io', 'sample', '-n', env.ns);
    expect(table.split('\n')[0]).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+UPDATED\s+READY\s+AGE/);
    expect(table.split('\n')[1]).toMatch(/^sample\s+2\s+2\s+2\s+2\s+/);
  });

  it('OrderedReady scale-down removes the highest ordinal first and waits for it', async () => {
    const set = await get('sample');
    await env.kube.patch(set, { spec: { replicas: 0 } });
    const seen: string[][] = [];
    await eventually('scaled to 0', async () => {
      const now = names(live(await podsOf('sample-asts')));
      if (JSON.stringify(seen[seen.length - 1]) !== JSON.stringify(now)) seen.push(now);
      return now.length === 0 ? true : undefined;
    }, 30_000, 20);
    // Never sample-0 gone while sample-1 is still there.
    expect(seen.some((n) => n.includes('sample-1') && !n.includes('sample-0'))).toBe(false);
  });

  it('volumeClaimTemplates: PVC `<vct>-<set>-<ordinal>` per pod; whenScaled Delete removes a scaled-down pod’s PVC, Retain keeps it', async () => {
    const base = inNs(seed('000-statefulset-migrate-apiversion.yaml'), 'claims');
    const vct = [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
    const spec = base.spec as { template: { spec: { containers: Record<string, unknown>[] } } };
    const template = { ...spec.template, spec: { ...spec.template.spec, containers: [{ ...spec.template.spec.containers[0], volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } };
    const set = await env.kube.create(withApp({ ...base, spec: { ...base.spec, replicas: 3, podManagementPolicy: 'Parallel', template, volumeClaimTemplates: vct, persistentVolumeClaimRetentionPolicy: { whenScaled: 'Delete', whenDeleted: 'Retain' } } }, 'claims'));
    await settled('claims', 3);
    const pvcs = async () => (await env.kube.list<KubeObject & { metadata: { name: string; deletionTimestamp?: string } }>('v1', 'PersistentVolumeClaim', { namespace: env.ns, labelSelector: 'app=claims' })).items.filter((c) => !c.metadata.deletionTimestamp).map((c) => c.metadata.name).sort();
    expect(await pvcs()).toEqual(['data-claims-0', 'data-claims-1', 'data-claims-2']);
    for (const p of await podsOf('claims')) {
      expect((p.spec?.volumes ?? []).find((v) => v.name === 'data')?.persistentVolumeClaim?.claimName).toBe(`data-${p.metadata.name}`);
    }
    await env.kube.patch(set, { spec: { replicas: 1 } });
    await eventually('the scaled-down pods’ PVCs deleted with them', async () => (JSON.stringify(await pvcs()) === JSON.stringify(['data-claims-0']) ? true : undefined), 60_000, 100);
    // Scaling back up creates fresh PVCs and the pods mount them.
    await env.kube.patch(set, { spec: { replicas: 2 } });
    await settled('claims', 2);
    expect(await pvcs()).toEqual(['data-claims-0', 'data-claims-1']);
  });
});

describe('updates', () => {
  it('seed 002, Parallel + maxUnavailable 3 + InPlaceIfPossible: web-4, web-3, web-2 update together, in place, never more than 3 unavailable', async () => {
    const created = await env.kube.create(withApp(inNs(seed('002-statefulset-inplace-update.yaml')), 'inplace'));
    await settled('web-inplace', 5);
    const before = new Map(live(await podsOf('inplace')).map((p) => [p.metadata.name, p.metadata.uid]));
    const { metadata: { generation } } = (await setImage(created, 'nginx:1.9.1')) as Sts;
    let maxUnready = 0;
    // The order pods are first seen updated in (the three writes of a wave land one by one).
    const order: string[] = [];
    const done = await eventually('all updated in place', async () => {
      const pods = live(await podsOf('inplace'));
      maxUnready = Math.max(maxUnready, 5 - pods.filter(isReady).length);
      const updated = pods.filter((p) => imageOf(p) === 'nginx:1.9.1').map((p) => p.metadata.name).sort();
      for (const n of updated) if (!order.includes(n)) order.push(n);
      const s = (await get('web-inplace')).status;
      const rolled = (s?.observedGeneration ?? 0) >= (generation ?? 0) && updated.length === 5;
      return rolled && s?.updatedReadyReplicas === 5 && s.currentRevision === s.updateRevision && pods.every(isReady) ? pods : undefined;
    }, 60_000, 20);
    expect(order.slice(0, 3).sort()).toEqual(['web-inplace-2', 'web-inplace-3', 'web-inplace-4']);
    expect(maxUnready).toBeLessThanOrEqual(3);
    // The same pods (uids): updated in place, not recreated.
    expect(new Map(done.map((p) => [p.metadata.name, p.metadata.uid]))).toEqual(before);
  });

  it('seed 002, partition 4 → 0: first only web-4 moves, then the rest', async () => {
    const created = await env.kube.create(withApp(inNs(seed('002-statefulset-rollingupdate-parallel.yaml')), 'parted'));
    await settled('web', 5);
    const old = (await get('web')).status!.currentRevision;
    await setImage(created, 'nginx:1.9.1', { updateStrategy: { rollingUpdate: { partition: 4 } } });
    await eventually('web-4 updated and ready', async () => {
      const s = (await get('web')).status;
      return s?.updatedReadyReplicas === 1 && s.readyReplicas === 5 ? true : undefined;
    }, 60_000, 50);
    const pods = live(await podsOf('parted'));
    expect(pods.filter((p) => revisionOf(p) !== old).map((p) => p.metadata.name)).toEqual(['web-4']);
    expect(pods.filter((p) => imageOf(p) === 'nginx:1.9.1').map((p) => p.metadata.name)).toEqual(['web-4']);
    await env.kube.patch(created, { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    await settled('web', 5);
    expect(live(await podsOf('parted')).every((p) => imageOf(p) === 'nginx:1.9.1')).toBe(true);
  });

  it('seed 002, paused: no pod is updated, but scaling still happens', async () => {
    const created = await env.kube.create(inNs(seed('002-statefulset-paused.yaml')));
    await settled('sample-paused', 3);
    const old = (await get('sample-paused')).status!.currentRevision;
    await setImage(created, 'nginx:1.25', { replicas: 4 });
    await eventually('4 pods', async () => ((await get('sample-paused')).status?.readyReplicas === 4 ? true : undefined), 60_000, 50);
    const pods = live(await podsOf('sample-paused'));
    expect(pods.filter((p) => revisionOf(p) === old).map((p) => p.metadata.name).sort()).toEqual(['sample-paused-0', 'sample-paused-1', 'sample-paused-2']);
    // Unpaused, the rollout goes on (OrderedReady, ReCreate: pods are recreated).
    await env.kube.patch(created, { spec: { updateStrategy: { rollingUpdate: { paused: false } } } });
    await settled('sample-paused', 4);
    expect(live(await podsOf('sample-paused')).every((p) => imageOf(p) === 'nginx:1.25')).toBe(true);
  });
});

describe('reserveOrdinals (seed 000 §3.2.3, seed 002)', () => {
  it('replicas 4 with [1] runs 0, 2, 3, 4; reserving 3 then deletes pod 3 and creates pod 5', async () => {
    const created = await env.kube.create(inNs(seed('000-statefulset-reserve-ordinals.yaml')));
    await settled('sample-reserve-ordinals', 4);
    const n = 'sample-reserve-ordinals';
    expect(names(live(await podsOf(n)))).toEqual([`${n}-0`, `${n}-2`, `${n}-3`, `${n}-4`]);
    await env.kube.patch(created, { spec: { reserveOrdinals: [1, 3] } });
    await eventually('3 gone, 5 there', async () => {
      const now = names(live(await podsOf(n)));
      return JSON.stringify(now) === JSON.stringify([`${n}-0`, `${n}-2`, `${n}-4`, `${n}-5`]) ? true : undefined;
    }, 60_000, 50);
  });
});

describe('migration from apps/v1 (what kubectl-kruise migrate users do)', () => {
  it('an apps/v1 StatefulSet deleted with propagationPolicy Orphan and re-created as an Advanced one: its pods are adopted under the same revision, not restarted', async () => {
    const name = 'migrated';
    const spec = {
      replicas: 2, serviceName: name, podManagementPolicy: 'Parallel', selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { automountServiceAccountToken: false, terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: 'app:1' }] } },
    };
    const nativeRef = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace: env.ns } };
    await env.kube.create({ ...nativeRef, spec });
    type Owned = Pod & { metadata: { uid: string; ownerReferences?: { uid: string }[] } };
    const nativePods = await eventually(`${name}: the apps/v1 pods ready`, async () => {
      const ps = (await env.kube.list<Owned>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${name}` })).items;
      return ps.length === 2 && ps.every(isReady) ? ps : undefined;
    }, 60_000);
    const nativeRevision = revisionOf(nativePods[0]!);
    // kubectl-kruise migrate copies the stored spec, template defaults included: byte-equal revision data.
    const stored = await env.kube.get<Sts>('apps/v1', 'StatefulSet', name, env.ns);
    // kubectl delete --cascade=orphan: the set goes once the garbage collector has orphaned its pods.
    await env.kube.delete(nativeRef, { propagationPolicy: 'Orphan' });
    await eventually(`${name}: the apps/v1 set gone`, async () => ((await env.kube.get('apps/v1', 'StatefulSet', name, env.ns).catch(() => undefined)) ? undefined : true), 30_000);
    await env.kube.create({ apiVersion: ASTS, kind: 'StatefulSet', metadata: { name, namespace: env.ns }, spec: { ...spec, template: stored.spec.template } });
    const s = await settled(name, 2);
    expect(s.updateRevision).toBe(nativeRevision);
    const set = await get(name);
    const after = (await podsOf(name)) as Owned[];
    expect(after.map((p) => p.metadata.uid).sort()).toEqual(nativePods.map((p) => p.metadata.uid).sort());
    expect(after.every((p) => p.metadata.ownerReferences?.[0]?.uid === set.metadata.uid && revisionOf(p) === nativeRevision)).toBe(true);
  });
});
