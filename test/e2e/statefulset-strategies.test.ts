// Advanced StatefulSet strategies end to end on a real API server, through the Node loop with the
// fake kubelet: scaleStrategy.maxUnavailable, lifecycle hooks, a pod stuck terminating, minReadySeconds,
// unorderedUpdate, the in-place grace period, whenDeleted, and the v1alpha1 API. Each test uses its own set.
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
import { eventually, testKube } from './support/kube.js';
import { deleteProvisionedVolumes, startProvisioner } from './support/provisioner.js';

const ASTS = 'apps.kruise.io/v1beta1';
type Status = { replicas?: number; readyReplicas?: number; updatedReplicas?: number; updatedReadyReplicas?: number; currentRevision?: string; updateRevision?: string; observedGeneration?: number };
type Sts = KubeObject & { metadata: { name: string; generation?: number }; spec: Record<string, unknown>; status?: Status };

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;
let provisioner: { stop(): Promise<void> };

beforeAll(async () => {
  env = await startEdgeEnv('astss', []);
  provisioner = startProvisioner(env.kube, env.ns);
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [statefulSetReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `astss-loop-${scope.kind}` }),
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

const get = (name: string, apiVersion = ASTS) => env.kube.get<Sts>(apiVersion, 'StatefulSet', name, env.ns);
const podsOf = async (app: string): Promise<Pod[]> => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${app}` })).items;
const live = (pods: Pod[]) => pods.filter((p) => !(p.metadata as { deletionTimestamp?: string }).deletionTimestamp);
const names = (pods: Pod[]) => pods.map((p) => p.metadata.name).sort();
const imageOf = (p: Pod) => p.spec?.containers[0]?.image;
const state = (p: Pod) => p.metadata.labels?.['lifecycle.apps.kruise.io/state'];
const pod = (name: string) => env.kube.get<Pod>('v1', 'Pod', name, env.ns);

/** A set named `name` (its pods labelled app=`name`), Parallel unless `spec` says otherwise; the in-place readiness gate listed, as OpenKruise asks. */
function sts(name: string, replicas: number, spec: Record<string, unknown> = {}, labels: Record<string, string> = {}, apiVersion = ASTS): Sts {
  return {
    apiVersion, kind: 'StatefulSet', metadata: { name, namespace: env.ns },
    spec: {
      serviceName: name, replicas, podManagementPolicy: 'Parallel', selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name, ...labels } }, spec: { automountServiceAccountToken: false, readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'main', image: 'app:1' }] } },
      ...spec,
    },
  };
}
const setImage = (set: Sts, image: string) => env.kube.patch(set, { spec: { template: { spec: { containers: [{ name: 'main', image }] } } } });
const settled = (name: string, replicas: number, apiVersion = ASTS) =>
  eventually(`${name}: ${replicas} ready and updated`, async () => {
    const { status: s, metadata } = await get(name, apiVersion);
    return s?.observedGeneration === metadata.generation && s?.readyReplicas === replicas && s.updatedReplicas === replicas && s.replicas === replicas && s.currentRevision === s.updateRevision ? s : undefined;
  }, 60_000, 50);

describe('scaleStrategy.maxUnavailable (seed 000 §3.2.4, seed 004)', () => {
  it('scale-up creates pods only while fewer than that many are unavailable', async () => {
    const name = 'stream';
    // The first pods stay unready until the test lets them be.
    for (let i = 0; i < 6; i++) env.kubelet.setReady(env.ns, `${name}-${i}`, false);
    await env.kube.create(sts(name, 6, { scaleStrategy: { maxUnavailable: 2 } }));
    await eventually('two pods created', async () => (live(await podsOf(name)).length === 2 ? true : undefined), 30_000, 50);
    // While both are unready no third comes: the next pod events run the set and it waits.
    await eventually('both scheduled and reported unready', async () => (live(await podsOf(name)).every((p) => p.status?.phase === 'Running') ? true : undefined), 30_000, 50);
    expect(names(live(await podsOf(name)))).toEqual([`${name}-0`, `${name}-1`]);
    let maxUnready = 0;
    for (let i = 0; i < 6; i++) env.kubelet.setReady(env.ns, `${name}-${i}`, true);
    await eventually('all 6 ready', async () => {
      const pods = live(await podsOf(name));
      maxUnready = Math.max(maxUnready, pods.filter((p) => !isReady(p)).length);
      return pods.length === 6 && pods.every(isReady) ? true : undefined;
    }, 60_000, 20);
    expect(maxUnready).toBeLessThanOrEqual(2);
  });
});

describe('lifecycle hooks', () => {
  it('preDelete: a scaled-down pod waits in PreparingDelete until its hook label is removed, then goes', async () => {
    const name = 'predelete';
    const set = await env.kube.create(sts(name, 2, { lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } } }, { hold: 'true' }));
    await settled(name, 2);
    await env.kube.patch(set, { spec: { replicas: 1 } });
    const held = await eventually('PreparingDelete', async () => {
      const p = await pod(`${name}-1`);
      return state(p) === 'PreparingDelete' ? p : undefined;
    }, 30_000, 50);
    expect((held.metadata as { deletionTimestamp?: string }).deletionTimestamp).toBeUndefined();
    await env.kube.patch(held, { metadata: { labels: { hold: null } } });
    await eventually('deleted once the hook is off', async () => (names(live(await podsOf(name))).join() === `${name}-0` ? true : undefined), 30_000, 50);
  });

  it('inPlaceUpdate: pods wait in PreparingUpdate for the hook, update in place, and are Normal again once it is back', async () => {
    const name = 'inplacehook';
    const set = await env.kube.create(sts(name, 1, { updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } }, lifecycle: { inPlaceUpdate: { labelsHandler: { ready: 'true' } } } }, { ready: 'true' }));
    await settled(name, 1);
    const uid = (await pod(`${name}-0`)).metadata.uid;
    await setImage(set, 'app:2');
    const waiting = await eventually('PreparingUpdate', async () => {
      const p = await pod(`${name}-0`);
      return state(p) === 'PreparingUpdate' ? p : undefined;
    }, 30_000, 50);
    expect(imageOf(waiting)).toBe('app:1');
    await env.kube.patch(waiting, { metadata: { labels: { ready: null } } });
    const updated = await eventually('updated in place, waiting for the hook back (Updated)', async () => {
      const p = await pod(`${name}-0`);
      return imageOf(p) === 'app:2' && state(p) === 'Updated' ? p : undefined;
    }, 30_000, 50);
    expect(updated.metadata.uid).toBe(uid);
    await env.kube.patch(updated, { metadata: { labels: { ready: 'true' } } });
    await eventually('Normal', async () => (state(await pod(`${name}-0`)) === 'Normal' ? true : undefined), 30_000, 50);
    await settled(name, 1);
  });
});

describe('a pod stuck terminating (kruise PR#2109)', () => {
  it('under Parallel it does not hold up the other ordinals’ update, and is recreated once it goes', async () => {
    const name = 'stuck';
    const set = await env.kube.create(sts(name, 3, { updateStrategy: { rollingUpdate: { maxUnavailable: 2, podUpdatePolicy: 'InPlaceIfPossible' } } }));
    await settled(name, 3);
    const victim = await pod(`${name}-0`);
    await env.kube.patch(victim, { metadata: { finalizers: ['e2e.kruise-serverless.io/hold'] } });
    await env.kube.delete(victim);
    await setImage(set, 'app:2');
    await eventually('the others updated', async () => {
      const pods = await podsOf(name);
      return pods.filter((p) => p.metadata.name !== `${name}-0`).every((p) => imageOf(p) === 'app:2' && isReady(p)) ? true : undefined;
    }, 30_000, 50);
    expect((await pod(`${name}-0`)).metadata.uid).toBe(victim.metadata.uid);
    await env.kube.patch(await pod(`${name}-0`), { metadata: { finalizers: null } });
    await settled(name, 3);
    expect(live(await podsOf(name)).every((p) => imageOf(p) === 'app:2')).toBe(true);
  });
});

describe('minReadySeconds', () => {
  it('OrderedReady creates the next pod only once the previous one has been ready that long', async () => {
    const name = 'minready';
    await env.kube.create(sts(name, 2, { podManagementPolicy: 'OrderedReady', updateStrategy: { rollingUpdate: { minReadySeconds: 2 } } }));
    await settled(name, 2);
    const [p0, p1] = (await podsOf(name)).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)) as [Pod, Pod];
    const readyAt = Date.parse(p0.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime as unknown as string);
    expect(Date.parse(p1.metadata.creationTimestamp as unknown as string) - readyAt).toBeGreaterThanOrEqual(2_000);
  });
});

describe('unorderedUpdate.priorityStrategy (seed 000 §3.2.2)', () => {
  it('weightPriority: the pod labelled test-key=foo updates first, then bar, then the rest', async () => {
    const fixture = parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', '000-statefulset-unordered-update-weight.yaml'), 'utf8')) as Sts;
    const set = await env.kube.create({ ...fixture, metadata: { ...fixture.metadata, namespace: env.ns } });
    const n = 'sample-weight-priority';
    const app = 'sample-weight-priority-asts';
    await settled(n, 3);
    await env.kube.patch(await pod(`${n}-0`), { metadata: { labels: { 'test-key': 'bar' } } });
    await env.kube.patch(await pod(`${n}-1`), { metadata: { labels: { 'test-key': 'foo' } } });
    const old = (await get(n)).status!.currentRevision;
    await env.kube.patch(set, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } } });
    const order: string[] = [];
    await eventually('all updated', async () => {
      for (const p of await podsOf(app)) {
        if (p.metadata.labels?.['controller-revision-hash'] !== old && !order.includes(p.metadata.name)) order.push(p.metadata.name);
      }
      return order.length === 3 ? true : undefined;
    }, 60_000, 20);
    expect(order).toEqual([`${n}-1`, `${n}-0`, `${n}-2`]);
  });
});

describe('inPlaceUpdateStrategy.gracePeriodSeconds', () => {
  it('the pod leaves service first; its image changes only after the grace period', async () => {
    const name = 'grace';
    const set = await env.kube.create(sts(name, 1, { updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible', inPlaceUpdateStrategy: { gracePeriodSeconds: 2 } } } }));
    await settled(name, 1);
    await setImage(set, 'app:2');
    let notReadyAt: number | undefined;
    let imageAt: number | undefined;
    await eventually('updated', async () => {
      const p = await pod(`${name}-0`);
      const gate = p.status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady')?.status;
      if (gate === 'False') notReadyAt ??= Date.now();
      if (imageOf(p) === 'app:2') imageAt ??= Date.now();
      return imageAt !== undefined && isReady(p) ? true : undefined;
    }, 30_000, 20);
    expect(notReadyAt).toBeDefined();
    // Seconds-resolution timestamps: at least 1 s of the 2 s shows between the two samples.
    expect(imageAt! - notReadyAt!).toBeGreaterThanOrEqual(1_000);
    expect((await pod(`${name}-0`)).metadata.annotations?.['apps.kruise.io/inplace-update-grace']).toBeUndefined();
  });
});

describe('persistentVolumeClaimRetentionPolicy.whenDeleted: Delete', () => {
  it('the PVCs go with the StatefulSet', async () => {
    const name = 'gone';
    const spec = sts(name, 2).spec as { template: { spec: { containers: Record<string, unknown>[] } } };
    const template = { ...spec.template, spec: { ...spec.template.spec, containers: [{ name: 'main', image: 'app:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } };
    const set = await env.kube.create(sts(name, 2, {
      template, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
    }));
    await settled(name, 2);
    const pvcs = async () => (await env.kube.list<KubeObject & { metadata: { name: string; deletionTimestamp?: string } }>('v1', 'PersistentVolumeClaim', { namespace: env.ns, labelSelector: `app=${name}` })).items;
    expect((await pvcs()).map((c) => c.metadata.name).sort()).toEqual([`data-${name}-0`, `data-${name}-1`]);
    await env.kube.delete(set);
    await eventually('PVCs garbage collected', async () => ((await pvcs()).every((c) => c.metadata.deletionTimestamp) ? true : undefined), 60_000, 100);
  });
});

describe('apps.kruise.io/v1alpha1', () => {
  it('a v1alpha1 StatefulSet is run the same (both versions are served)', async () => {
    const name = 'alpha';
    await env.kube.create(sts(name, 2, {}, {}, 'apps.kruise.io/v1alpha1'));
    await settled(name, 2, 'apps.kruise.io/v1alpha1');
    expect(names(live(await podsOf(name)))).toEqual([`${name}-0`, `${name}-1`]);
  });
});
