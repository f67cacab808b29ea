// Taking over a cluster as OpenKruise 1.9 leaves its CRDs: v1beta1 is the storage version and in
// status.storedVersions. Our installer applies our CRDs over them (keeping every stored version),
// points their conversion at our edge's /convert, and objects stored as v1beta1 read as both
// versions through it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startLocalWorker, type LocalWorker } from '../../scripts/local-worker.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { applyClusterSide, uninstallClusterSide } from '../../src/install/apply.js';
import { renderClusterSide } from '../../src/install/render.js';
import { installCrds } from '../../src/kube/crds.js';
import { readCrdManifests } from '../../src/kube/crd-manifests.js';
import { isNotFound } from '../../src/kube/errors.js';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { eventually, testKube } from './support/kube.js';
import { caPem, localServingCert, trustingFetch } from './support/tls.js';

const CLUSTER = 'versions-e2e';
const ADMIN = 'versions-admin';
const CRD_API = 'apiextensions.k8s.io/v1';
const NAMES = ['sidecarsets.apps.kruise.io', 'daemonsets.apps.kruise.io'];
// Less the `default: ""` of LocalObjectReference.name: kube-apiserver 1.20 reads it as null and refuses the CRD.
const openKruiseCrd = (plural: string) => parse(readFileSync(join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'openkruise-v1.9.0', `apps.kruise.io_${plural}.yaml`), 'utf8').replace(/^\s*default: ""\n/gm, '')) as KubeObject;
const OPENKRUISE_CRDS = NAMES.map((n) => openKruiseCrd(n.split('.')[0]!));
const OUR_CRDS = readCrdManifests(join(REPO_ROOT, 'infra', 'crds')).filter((c) => NAMES.includes(c.metadata?.name ?? ''));
const NS = 'default';
const DS_NAME = 'ks-versions-ds';

type Crd = KubeObject & { spec: { versions: { name: string; served: boolean; storage: boolean }[]; conversion?: { strategy: string; webhook?: { clientConfig?: { url?: string } } } }; status?: { storedVersions?: string[] } };
type Obj = KubeObject & { metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec: Record<string, unknown>; status?: Record<string, unknown> };

let kube: KubeHttp;
let worker: LocalWorker;
let secret = '';

/** Deletes the CRD (and every object of it) and waits until it is gone. */
async function replaceCrd(crd: KubeObject): Promise<void> {
  await kube.delete({ apiVersion: CRD_API, kind: 'CustomResourceDefinition', metadata: { name: crd.metadata!.name } }).catch((e: unknown) => { if (!isNotFound(e)) throw e; });
  await eventually(`CRD ${crd.metadata!.name} deleted`, async () => kube.get(CRD_API, 'CustomResourceDefinition', crd.metadata!.name!).then(() => undefined, (e: unknown) => (isNotFound(e) ? true : undefined)), 60_000, 200);
  await kube.create(crd);
}

beforeAll(async () => {
  kube = await testKube();
  worker = await startLocalWorker({ tls: localServingCert('versions-edge'), adminToken: ADMIN });
  const res = await trustingFetch(`${worker.url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ clusterId: CLUSTER }) });
  expect(res.status).toBe(201);
  secret = ((await res.json()) as { webhookSecret: string }).webhookSecret;
  // The cluster as OpenKruise 1.9 leaves it: its CRDs, and objects stored as v1beta1.
  for (const crd of OPENKRUISE_CRDS) await replaceCrd(crd);
  for (const name of NAMES) {
    await eventually(`${name} established`, async () => {
      const live = await kube.get<Crd & { status?: { conditions?: { type: string; status: string }[] } }>(CRD_API, 'CustomResourceDefinition', name);
      return live.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') ? true : undefined;
    }, 60_000, 200);
  }
}, 180_000);

afterAll(async () => {
  await uninstallClusterSide(kube).catch(() => undefined);
  // Later files get our CRDs as global setup installed them.
  for (const crd of OUR_CRDS) await replaceCrd(crd).catch(() => undefined);
  await installCrds(kube, OUR_CRDS).catch(() => undefined);
  await worker?.dispose();
  kube?.close();
}, 180_000);

describe('taking over OpenKruise 1.9 CRDs', () => {
  it('keeps the v1beta1 stored objects readable as both versions through the edge', async () => {
    // Stored by "OpenKruise": v1beta1 objects with the fields v1alpha1 spells differently.
    await kube.create({
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet',
      metadata: { name: 'ks-versions-log', labels: { team: 'a' } },
      spec: { customVersion: 'v2', namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'prod' } }, selector: { matchLabels: { app: 'web' } }, containers: [{ name: 'log', image: 'log:1' }] },
    });
    const ds = await kube.create<Obj>({
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet',
      metadata: { name: DS_NAME, namespace: NS },
      spec: {
        selector: { matchLabels: { app: DS_NAME } }, scaleStrategy: { partitionedScaling: true },
        template: { metadata: { labels: { app: DS_NAME } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } },
      },
    });
    await kube.replace({ ...ds, status: { currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0, updatedNumberScheduled: 0, updateRevision: '6d4b9c' } }, 'status');
    for (const name of NAMES) expect((await kube.get<Crd>(CRD_API, 'CustomResourceDefinition', name)).status?.storedVersions).toEqual(['v1beta1']);

    const log: string[] = [];
    await applyClusterSide(kube, renderClusterSide({ baseUrl: worker.url, clusterId: CLUSTER, secret, caBundle: caPem(), endpoints: [], crds: OUR_CRDS }), { log: (m) => log.push(m) });

    for (const name of NAMES) {
      const live = await kube.get<Crd>(CRD_API, 'CustomResourceDefinition', name);
      expect(live.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([['v1alpha1', true, false], ['v1beta1', true, true]]);
      expect(live.spec.conversion).toMatchObject({ strategy: 'Webhook', webhook: { clientConfig: { url: `${worker.url}/clusters/${CLUSTER}/${secret}/convert` } } });
      expect(live.status?.storedVersions).toContain('v1beta1');
    }

    const alphaSet = await kube.get<Obj>('apps.kruise.io/v1alpha1', 'SidecarSet', 'ks-versions-log');
    expect(alphaSet.metadata.labels).toEqual({ team: 'a', 'apps.kruise.io/sidecarset-custom-version': 'v2' });
    expect(alphaSet.spec).toMatchObject({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'prod' } }, containers: [{ name: 'log', image: 'log:1' }] });
    expect(alphaSet.spec.customVersion).toBeUndefined();
    const betaSet = await kube.get<Obj>('apps.kruise.io/v1beta1', 'SidecarSet', 'ks-versions-log');
    expect(betaSet.spec.customVersion).toBe('v2');
    expect(betaSet.metadata.labels).toEqual({ team: 'a' });

    const alphaDs = await kube.get<Obj>('apps.kruise.io/v1alpha1', 'DaemonSet', DS_NAME, NS);
    expect(alphaDs.metadata.annotations?.['daemonset.kruise.io/progressive-create-pod']).toBe('true');
    expect(alphaDs.spec.scaleStrategy).toBeUndefined();
    expect(alphaDs.status?.daemonSetHash).toBe('6d4b9c');
    const betaDs = await kube.get<Obj>('apps.kruise.io/v1beta1', 'DaemonSet', DS_NAME, NS);
    expect(betaDs.spec.scaleStrategy).toEqual({ partitionedScaling: true });
    expect(betaDs.status?.updateRevision).toBe('6d4b9c');
  });

  it('writes v1alpha1 through the edge into v1beta1 storage', async () => {
    await kube.create({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'ks-versions-ns' }, spec: { namespace: 'prod', containers: [{ name: 'log', image: 'log:1' }] } });
    const beta = await kube.get<Obj>('apps.kruise.io/v1beta1', 'SidecarSet', 'ks-versions-ns');
    expect(beta.spec.namespaceSelector).toEqual({ matchLabels: { 'kubernetes.io/metadata.name': 'prod' } });
    expect(beta.spec.namespace).toBeUndefined();
  });

  it('refuses CRDs that would drop a stored version, before applying anything', async () => {
    const alphaOnly = OUR_CRDS.map((c) => ({ ...c, metadata: { ...c.metadata, annotations: {} }, spec: { ...(c.spec as object), versions: (c.spec as Crd['spec']).versions.filter((v) => v.name === 'v1alpha1').map((v) => ({ ...v, storage: true })) } }));
    await expect(applyClusterSide(kube, alphaOnly)).rejects.toThrow(/sidecarsets.apps.kruise.io: stores objects as v1beta1 \(status.storedVersions\)/);
  });
});
