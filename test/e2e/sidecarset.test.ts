// SidecarSet end to end on a real API server: the production Worker (Miniflare over HTTPS) serves
// the pod injection, SidecarSet defaulting and validation webhooks and the explain endpoint; the
// state it answers from is what it admitted itself (read-your-writes: no push between a SidecarSet,
// a whitelist or a revision and the pods that depend on it) on top of the install's push; the
// SidecarSet controller rolls sidecar images in place on pods the fake kubelet runs. The seeds'
// SidecarSet examples are applied as they are (namespaces and selectors adapted to the test).
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { parse } from 'yaml';
import type { V1Pod } from '@kubernetes/client-node';
import { startLocalWorker, type LocalWorker } from '../../scripts/local-worker.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { FakeKubelet } from '../cluster/fake-kubelet.js';
import { webhookEndpoints } from '../../src/registry.js';
import { sidecarSetFeature } from '../../src/sidecarset/index.js';
import { pubFeature } from '../../src/pub/index.js';
import { renderClusterSide } from '../../src/install/render.js';
import { applyClusterSide, uninstallClusterSide } from '../../src/install/apply.js';
import { reconcile } from '../../src/cli/reconcile.js';
import { makeReconcileHandler } from '../../src/aws/reconcile-handler.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { sidecarSetReconciler } from '../../src/sidecarset/controller/reconciler.js';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { isAlreadyExists, isNotFound } from '../../src/kube/errors.js';
import { createNamespace, deleteNamespace, eventually, testKube, testKubeConfig } from './support/kube.js';
import { caPem, localServingCert, trustingFetch } from './support/tls.js';
import './provided.js';

const kc = testKubeConfig();
const CLUSTER = 'sidecarset-e2e';
const ADMIN = 'sidecarset-admin';
const SCOPE_LABEL = 'e2e.kruise-serverless.io/sidecarset';
const SS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' };
let kube: KubeHttp;
let worker: LocalWorker;
let kubelet: FakeKubelet;
let events: Server;
let creds: { webhookSecret: string; syncToken: string };
let ns = '';
let other = '';
const published: { Detail: string }[] = [];
const created: { name: string }[] = [];

type Meta = { name: string; namespace?: string; resourceVersion?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
type Pod = V1Pod & KubeObject & { metadata: Meta };
type SidecarSetObj = KubeObject & { metadata: Meta; spec: Record<string, unknown>; status?: Record<string, unknown> };

const seed = (file: string) => parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', file), 'utf8')) as SidecarSetObj;

/** The reconcilers' full resync with an edge: controllers act, then every collection is pushed. */
async function resync(): Promise<void> {
  const lines: string[] = [];
  const code = await reconcile(kube, {
    once: true, dryRun: false, resyncSeconds: 0, watch: false, identity: 'sidecarset-e2e',
    edge: { url: worker.url, clusterId: CLUSTER, syncToken: creds.syncToken, caFile: inject('caCert') },
    log: () => undefined, out: (l) => lines.push(l),
  });
  expect(code, lines.join('\n')).toBe(0);
}

async function createSet(obj: SidecarSetObj): Promise<SidecarSetObj> {
  await kube.delete({ ...SS, metadata: { name: obj.metadata.name } }).catch((e: unknown) => {
    if (!isNotFound(e)) throw e;
  });
  const out = await kube.create<SidecarSetObj>({ ...SS, ...obj });
  created.push({ name: obj.metadata.name! });
  return out;
}

async function createPod(name: string, labels: Record<string, string>, spec: Partial<V1Pod['spec']> = {}, namespace = ns, annotations?: Record<string, string>): Promise<Pod> {
  return kube.create<Pod>({
    apiVersion: 'v1', kind: 'Pod',
    metadata: { name, namespace, labels, ...(annotations ? { annotations } : {}) },
    spec: { containers: [{ name: 'main', image: 'app:1' }], ...spec },
  });
}

const names = (cs: { name: string }[] | undefined) => (cs ?? []).map((c) => c.name);
const containerOf = (p: Pod, name: string) => p.spec?.containers.find((c) => c.name === name);

beforeAll(async () => {
  kube = await testKube();
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system' } }).catch((e: unknown) => {
    if (!isAlreadyExists(e)) throw e;
  });
  ns = await createNamespace(kc, 'sidecarset', { [SCOPE_LABEL]: 'yes', env: 'prod' });
  other = await createNamespace(kc, 'sidecarset-other', { [SCOPE_LABEL]: 'yes', env: 'dev' });
  kubelet = new FakeKubelet(kube, 100);
  await kubelet.addNodes([{ name: 'ss-node-a' }, { name: 'ss-node-b' }]);
  kubelet.start();

  events = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const { Entries } = JSON.parse(body) as { Entries: { Detail: string }[] };
      published.push(...Entries);
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      res.end(JSON.stringify({ FailedEntryCount: 0, Entries: Entries.map((_, i) => ({ EventId: `e-${published.length}-${i}` })) }));
    });
  });
  await new Promise<void>((r) => events.listen(0, '127.0.0.1', r));
  worker = await startLocalWorker({
    tls: localServingCert('sidecarset-edge'), adminToken: ADMIN,
    bindings: {
      KS_EVENT_BUS_NAME: 'kruise-serverless', AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE', AWS_SECRET_ACCESS_KEY: 'example',
      KS_EVENTBRIDGE_ENDPOINT: `http://127.0.0.1:${(events.address() as { port: number }).port}/`,
    },
  });
  const res = await trustingFetch(`${worker.url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}` }, body: JSON.stringify({ clusterId: CLUSTER }) });
  expect(res.status).toBe(201);
  creds = (await res.json()) as typeof creds;
  // Only this file's namespaces send pods to the webhook: other test files run their own pods.
  await applyClusterSide(kube, renderClusterSide({
    baseUrl: worker.url, clusterId: CLUSTER, secret: creds.webhookSecret, caBundle: caPem(), crds: [],
    // PUB too: the controller's in-place updates must respect PodUnavailableBudgets.
    endpoints: webhookEndpoints([sidecarSetFeature, pubFeature]),
    overrides: {
      'mutate-pod': { namespaceSelector: { matchLabels: { [SCOPE_LABEL]: 'yes' } } },
      'validate-pod': { namespaceSelector: { matchLabels: { [SCOPE_LABEL]: 'yes' } } },
    },
  }));
});

afterAll(async () => {
  await uninstallClusterSide(kube).catch(() => undefined);
  for (const s of created) await kube.delete({ ...SS, metadata: { name: s.name } }).catch(() => undefined);
  await kubelet?.stop();
  await kubelet?.removeNodes(['ss-node-a', 'ss-node-b']).catch(() => undefined);
  await deleteNamespace(kc, ns);
  await deleteNamespace(kc, other);
  await worker?.dispose();
  events?.close();
  kube.close();
});

describe('before any state is pushed', () => {
  it('admits pods unchanged (our delay never fails a pod creation; the warning says no state was synced)', async () => {
    expect(names((await createPod('early', { app: 'nginx' })).spec?.containers)).toEqual(['main']);
  });
});

describe('injection of the seeds’ SidecarSets', () => {
  beforeAll(async () => {
    await resync();
  });

  it('seed 000 basic: sidecar1 first, its volume, IS_INJECTED and the hash annotations', async () => {
    const s = seed('000-sidecarset-basic.yaml');
    s.spec.namespace = ns;
    const stored = await createSet(s);
    // Our mutating webhook defaulted it and wrote both hashes (§2.2).
    expect(stored.metadata.annotations?.['kruise.io/sidecarset-hash']).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{64}$/);
    expect((stored.spec.containers as { podInjectPolicy?: string }[])[0]?.podInjectPolicy).toBe('BeforeAppContainer');
    const p = await createPod('basic', { app: 'nginx' });
    expect(names(p.spec?.containers)).toEqual(['sidecar1', 'main']);
    expect(containerOf(p, 'sidecar1')?.env).toEqual([{ name: 'IS_INJECTED', value: 'true' }]);
    expect(p.spec?.volumes?.map((v) => v.name)).toContain('log-volume');
    const hash = JSON.parse(p.metadata.annotations!['kruise.io/sidecarset-hash']!) as Record<string, { hash: string; sidecarList: string[] }>;
    expect(hash['test-sidecarset']).toMatchObject({ hash: stored.metadata.annotations!['kruise.io/sidecarset-hash'], sidecarList: ['sidecar1'] });
    expect(p.metadata.annotations?.['kruise.io/sidecarset-injected-list']).toBe('test-sidecarset');
    // spec.namespace confines it: the same labels elsewhere get nothing.
    const elsewhere = await createPod('basic-other', { app: 'nginx' }, {}, other);
    expect(names(elsewhere.spec?.containers)).toEqual(['main']);
  });

  it('seed 000 container injection: transferEnv from main, hostPath volume, BeforeAppContainer', async () => {
    await createSet(seed('000-sidecarset-container-injection.yaml'));
    const p = await createPod('transfer', { app: 'sample' }, { containers: [{ name: 'main', image: 'app:1', env: [{ name: 'PROXY_IP', value: '10.1.2.3' }] }] });
    expect(names(p.spec?.containers)).toEqual(['nginx', 'main']);
    expect(containerOf(p, 'nginx')?.env).toEqual([{ name: 'IS_INJECTED', value: 'true' }, { name: 'PROXY_IP', value: '10.1.2.3' }]);
    expect(p.spec?.volumes?.find((v) => v.name === 'nginx-conf')?.hostPath?.path).toBe('/data/nginx/conf');
  });

  it('shareVolumePolicy enabled: the sidecar mounts the app’s volumes', async () => {
    await createSet({ ...SS, metadata: { name: 'share-volumes' }, spec: {
      selector: { matchLabels: { app: 'share' } },
      containers: [{ name: 'log-agent', image: 'busybox:1.36', shareVolumePolicy: { type: 'enabled' }, podInjectPolicy: 'AfterAppContainer' }],
    } });
    const p = await createPod('share', { app: 'share' }, {
      containers: [{ name: 'main', image: 'app:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }],
      volumes: [{ name: 'data', emptyDir: {} }],
    });
    expect(names(p.spec?.containers)).toEqual(['main', 'log-agent']);
    expect(containerOf(p, 'log-agent')?.volumeMounts?.map((m) => m.mountPath)).toContain('/data');
  });

  it('injectionStrategy.paused: no injection until unpaused', async () => {
    const set = await createSet({ ...SS, metadata: { name: 'pausable' }, spec: {
      selector: { matchLabels: { app: 'pausable' } }, injectionStrategy: { paused: true },
      containers: [{ name: 'pause-agent', image: 'busybox:1.36' }],
    } });
    expect(names((await createPod('paused', { app: 'pausable' })).spec?.containers)).toEqual(['main']);
    await kube.patch(set, { spec: { injectionStrategy: { paused: false } } });
    expect(names((await createPod('unpaused', { app: 'pausable' })).spec?.containers)).toEqual(['pause-agent', 'main']);
  });

  it('seed 000 hot upgrade and seed 003: the -1/-2 pair, the empty image, version annotations', async () => {
    await createSet(seed('003-sidecarset-hot-upgrade.yaml'));
    const p = await createPod('hot', { app: 'nginx-sidecar-hotupgrade' });
    expect(names(p.spec?.containers)).toEqual(['nginx-sidecar-1', 'nginx-sidecar-2', 'main']);
    expect(containerOf(p, 'nginx-sidecar-2')?.image).toBe('empty:1.0.0');
    expect(p.metadata.annotations).toMatchObject({
      'version.sidecarset.kruise.io/nginx-sidecar-1': '1', 'versionalt.sidecarset.kruise.io/nginx-sidecar-1': '0',
      'version.sidecarset.kruise.io/nginx-sidecar-2': '0', 'versionalt.sidecarset.kruise.io/nginx-sidecar-2': '1',
      'kruise.io/sidecarset-working-hotupgrade-container': '{"nginx-sidecar":"nginx-sidecar-1"}',
    });
    await createSet(seed('000-sidecarset-hot-upgrade.yaml'));
    const q = await createPod('hot-000', { app: 'hotupgrade' });
    expect(names(q.spec?.containers)).toEqual(['sidecar-1', 'sidecar-2', 'main']);
  });

  it('seed 000 patchPodMetadata: refused without a whitelist, then merged into the pod’s annotations', async () => {
    const s = seed('000-sidecarset-patch-pod-metadata.yaml');
    await expect(createSet(s)).rejects.toThrow(/SidecarSet patch metadata whitelist not found/);
    await kube.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kruise-configuration', namespace: 'kruise-system' }, data: {
      SidecarSet_PatchPodMetadata_WhiteList: JSON.stringify({ rules: [{ allowedAnnotationKeyExprs: ['^oom-score$', '^custom.example.com/', '^apps.kruise.io/container-launch-priority$'] }] }),
    } }).catch((e: unknown) => {
      if (!isAlreadyExists(e)) throw e;
    });
    await createSet(s);
    const p = await createPod('patched', { app: 'sidecarset-patch-metadata' }, {}, ns, { 'oom-score': '{"main": 2}' });
    expect(p.metadata.annotations).toMatchObject({
      'oom-score': '{"log-agent":1,"main":2}',
      'custom.example.com/sidecar-configuration': '{"command": "/home/admin/bin/start.sh", "log-level": "3"}',
      'apps.kruise.io/container-launch-priority': 'Ordered',
    });
  });

  it('init containers (sorted, After by default) and image pull secrets', async () => {
    await createSet({ ...SS, metadata: { name: 'inits' }, spec: {
      selector: { matchLabels: { app: 'inits' } },
      initContainers: [{ name: 'z-setup', image: 'busybox:1.36' }, { name: 'a-first', image: 'busybox:1.36', podInjectPolicy: 'BeforeAppContainer' }, { name: 'm-setup', image: 'busybox:1.36' }],
      containers: [{ name: 'inits-agent', image: 'busybox:1.36' }],
      imagePullSecrets: [{ name: 'registry-a' }, { name: 'registry-b' }],
    } });
    const p = await createPod('inits', { app: 'inits' }, { initContainers: [{ name: 'own', image: 'busybox:1.36' }], imagePullSecrets: [{ name: 'registry-b' }] });
    expect(names(p.spec?.initContainers)).toEqual(['a-first', 'own', 'm-setup', 'z-setup']);
    expect(p.spec?.imagePullSecrets).toEqual([{ name: 'registry-b' }, { name: 'registry-a' }]);
  });

  it.each([
    ['a transferEnv source read from metadata.name', { containers: [{ name: 'bad-env', image: 'busybox:1.36', transferEnv: [{ sourceContainerNameFrom: { fieldRef: { fieldPath: 'metadata.name' } }, envName: 'X' }] }] },
      /field label not supported: metadata.name/],
    ['a HotUpgrade sidecar without hotUpgradeEmptyImage', { containers: [{ name: 'bad-hot', image: 'busybox:1.36', upgradeStrategy: { upgradeType: 'HotUpgrade' } }] },
      /hotUpgradeEmptyImage/],
    ['partition together with selector', { containers: [{ name: 'bad-us', image: 'busybox:1.36' }], updateStrategy: { partition: 1, selector: { matchLabels: { a: 'b' } } } },
      /Partition and Selector cannot be used together/],
  ])('validation refuses %s', async (_n, spec, message) => {
    await expect(createSet({ ...SS, metadata: { name: 'invalid' }, spec: { selector: { matchLabels: { app: 'invalid' } }, ...spec } })).rejects.toThrow(message);
  });

  it('validation at the edge: a container name another overlapping set injects is refused', async () => {
    await expect(createSet({ ...SS, metadata: { name: 'clash' }, spec: {
      selector: { matchLabels: { app: 'nginx' } }, containers: [{ name: 'sidecar1', image: 'busybox:1.36' }],
    } })).rejects.toThrow(/container sidecar1 already exist in test-sidecarset/);
  });

  // Kubernetes 1.20 has no native sidecars (SidecarContainers is 1.28+): the SidecarSet keeps
  // restartPolicy (its containers are free-form), but the API server drops it from the pod's init
  // container before our webhook sees it. What 1.20 shows: the set is accepted, its native sidecar is
  // injected after the pod's own init containers, and recorded in sidecarList as a sidecar.
  it('native sidecar init containers (restartPolicy Always): accepted, injected after the pod’s init containers, listed as sidecars', async () => {
    const stored = await createSet({ ...SS, metadata: { name: 'native' }, spec: {
      selector: { matchLabels: { app: 'native' } }, updateStrategy: { type: 'NotUpdate' },
      initContainers: [{ name: 'native-proxy', image: 'envoy:1', restartPolicy: 'Always' }, { name: 'native-setup', image: 'busybox:1.36' }],
    } });
    expect((stored.spec.initContainers as { restartPolicy?: string }[])[0]?.restartPolicy).toBe('Always');
    const p = await createPod('native', { app: 'native' }, { initContainers: [{ name: 'own', image: 'busybox:1.36' }] });
    expect(names(p.spec?.initContainers)).toEqual(['own', 'native-proxy', 'native-setup']);
    const hash = JSON.parse(p.metadata.annotations!['kruise.io/sidecarset-hash']!) as Record<string, { sidecarList: string[] }>;
    expect(hash['native']?.sidecarList).toEqual(['native-proxy']);
  });

  it('validation: a native sidecar cannot be rolled in place (RollingUpdate), as in OpenKruise', async () => {
    await expect(createSet({ ...SS, metadata: { name: 'native-rolling' }, spec: {
      selector: { matchLabels: { app: 'native-rolling' } },
      initContainers: [{ name: 'rolling-proxy', image: 'envoy:1', restartPolicy: 'Always' }],
    } })).rejects.toThrow('spec.updateStrategy: Required value: The initContainer in-place upgrade is not currently supported.');
  });

  it('resourcesPolicy: the sidecar is sized from the pod’s containers (the regex defaults to .* in the CRD)', async () => {
    const stored = await createSet({ ...SS, metadata: { name: 'sized' }, spec: {
      selector: { matchLabels: { app: 'sized' } },
      containers: [{ name: 'sized-proxy', image: 'envoy:1', resourcesPolicy: { targetContainersMode: 'sum', resourcesExpr: {
        limits: { cpu: 'max(cpu*50%, 50m)', memory: 'memory*30%' }, requests: { cpu: 'cpu*50%', memory: '100Mi' },
      } } }],
    } });
    expect((stored.spec.containers as { resourcesPolicy?: { targetContainersNameRegex?: string } }[])[0]?.resourcesPolicy?.targetContainersNameRegex).toBe('.*');
    const p = await createPod('sized', { app: 'sized' }, { containers: [
      { name: 'main', image: 'app:1', resources: { limits: { cpu: '200m', memory: '200Mi' }, requests: { cpu: '50m', memory: '100Mi' } } },
      { name: 'worker', image: 'app:1', resources: { limits: { cpu: '400m', memory: '400Mi' }, requests: { cpu: '100m', memory: '200Mi' } } },
    ] });
    expect(containerOf(p, 'sized-proxy')?.resources).toEqual({ limits: { cpu: '300m', memory: '180Mi' }, requests: { cpu: '75m', memory: '100Mi' } });
  });

  it('resourcesPolicy: no container matching the regex refuses the pod, with OpenKruise’s message', async () => {
    await createSet({ ...SS, metadata: { name: 'sized-strict' }, spec: {
      selector: { matchLabels: { app: 'sized-strict' } },
      containers: [{ name: 'strict-proxy', image: 'envoy:1', resourcesPolicy: { targetContainersMode: 'max', targetContainersNameRegex: '^engine-.*$', resourcesExpr: { limits: { cpu: 'cpu' } } } }],
    } });
    await expect(createPod('sized-strict', { app: 'sized-strict' })).rejects.toThrow('no containers match the regex pattern "^engine-.*$"');
  });

  it.each([
    ['resourcesPolicy together with resources', { containers: [{ name: 'both', image: 'envoy:1', resources: { limits: { cpu: '1' } },
      resourcesPolicy: { targetContainersMode: 'sum', resourcesExpr: { limits: { cpu: 'cpu' } } } }] }, /spec\[0\]\.resourcesPolicy: Invalid value: .*resourcesPolicy and resources cannot be configured together/],
    ['a resourcesPolicy expression that does not evaluate', { containers: [{ name: 'bad-expr', image: 'envoy:1',
      resourcesPolicy: { targetContainersMode: 'sum', resourcesExpr: { requests: { memory: 'memory / 0' } } } }] },
      /spec\[0\]\.resourcesPolicy\.resourcesExpr\.requests\.memory: Invalid value: .*memory \/ 0.*: invalid expression: division by zero/],
    ['a resourcesPolicy on a plain init container', { updateStrategy: { type: 'NotUpdate' }, initContainers: [{ name: 'plain-init', image: 'busybox:1.36',
      resourcesPolicy: { targetContainersMode: 'sum', resourcesExpr: { limits: { cpu: 'cpu' } } } }] }, /resourcesPolicy is only supported for containers with RestartPolicy Always/],
    ['an unknown targetContainersMode (the CRD’s enum)', { containers: [{ name: 'bad-mode', image: 'envoy:1',
      resourcesPolicy: { targetContainersMode: 'avg', resourcesExpr: { limits: { cpu: 'cpu' } } } }] }, /targetContainersMode: Unsupported value: .*avg/],
  ])('validation refuses %s', async (_n, spec, message) => {
    await expect(createSet({ ...SS, metadata: { name: 'invalid-fields' }, spec: { selector: { matchLabels: { app: 'invalid' } }, ...spec } })).rejects.toThrow(message);
  });

  it('shareVolumeDevicePolicy enabled: the sidecar maps the app’s volume devices', async () => {
    await createSet({ ...SS, metadata: { name: 'share-devices' }, spec: {
      selector: { matchLabels: { app: 'share-devices' } },
      containers: [{ name: 'disk-agent', image: 'busybox:1.36', shareVolumeDevicePolicy: { type: 'enabled' }, podInjectPolicy: 'AfterAppContainer' }],
    } });
    const p = await createPod('share-devices', { app: 'share-devices' }, {
      containers: [{ name: 'main', image: 'app:1', volumeDevices: [{ name: 'block', devicePath: '/dev/xvdb' }] }],
      volumes: [{ name: 'block', persistentVolumeClaim: { claimName: 'block-claim' } }],
    });
    expect(names(p.spec?.containers)).toEqual(['main', 'disk-agent']);
    expect(containerOf(p, 'disk-agent')?.volumeDevices).toEqual([{ name: 'block', devicePath: '/dev/xvdb' }]);
  });
});

describe('revisions (injectionStrategy.revision)', () => {
  it('a pod gets the pinned ControllerRevision’s containers, and records it', async () => {
    const v1 = await createSet({ ...SS, metadata: { name: 'pinned', labels: { 'apps.kruise.io/sidecarset-custom-version': 'v1' } }, spec: {
      selector: { matchLabels: { app: 'pinned' } }, containers: [{ name: 'pinned-agent', image: 'agent:1' }],
    } });
    await resync(); // the controller stores revision 1 (labelled custom-version v1)
    await kube.patch(v1, { metadata: { labels: { 'apps.kruise.io/sidecarset-custom-version': 'v2' } },
      spec: { containers: [{ name: 'pinned-agent', image: 'agent:2' }], injectionStrategy: { revision: { customVersion: 'v1', policy: 'Always' } } } });
    const p = await createPod('pinned', { app: 'pinned' });
    expect(containerOf(p, 'pinned-agent')?.image).toBe('agent:1');
    const entry = (JSON.parse(p.metadata.annotations!['kruise.io/sidecarset-hash']!) as Record<string, { controllerRevision?: string }>)['pinned'];
    expect(entry?.controllerRevision).toMatch(/^pinned-/);
  });

  it('seed 000 injection revision: refused until the named ControllerRevision exists, then injected from it', async () => {
    const s = seed('000-sidecarset-injection-revision.yaml');
    await expect(createSet(s)).rejects.toThrow(/Cannot find specific ControllerRevision/);
    await kube.create({
      apiVersion: 'apps/v1', kind: 'ControllerRevision', revision: 1,
      metadata: { name: 'sidecarset-revision-67b8f5f9c7', namespace: 'kruise-system', labels: { 'kruise.io/sidecarset-name': 'sidecarset-revision' } },
      data: { spec: { $patch: 'replace', containers: [{ name: 'sidecar', image: 'nginx:1.20', podInjectPolicy: 'BeforeAppContainer' }] } },
    }).catch((e: unknown) => {
      if (!isAlreadyExists(e)) throw e;
    });
    await createSet(s);
    const p = await createPod('seed-revision', { app: 'sidecarset-revision' });
    expect(containerOf(p, 'sidecar')?.image).toBe('nginx:1.20');
  });
});

describe('explain endpoint', () => {
  it('answers which sets a pod gets and why the others do not, behind the path secret', async () => {
    const url = `${worker.url}/clusters/${CLUSTER}/${creds.webhookSecret}/explain/sidecarset`;
    const body = JSON.stringify({ pod: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } }, namespace: other });
    const res = await trustingFetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { injected: string[]; sets: { sidecarSet: string; injected: boolean; reason: string }[] };
    expect(answer.injected).toEqual([]);
    expect(answer.sets.find((s) => s.sidecarSet === 'test-sidecarset')).toEqual({
      sidecarSet: 'test-sidecarset', injected: false, reason: `spec.namespace is "${ns}" and the pod is in "${other}"`,
    });
    const wrong = await trustingFetch(url.replace(creds.webhookSecret, creds.syncToken), { method: 'POST', body });
    expect(wrong.status).toBe(404);
  });
});

describe('controller', () => {
  const ROLL = 'roll';
  const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
  const rollPods = async () => (await kube.list<Pod>('v1', 'Pod', { namespace: ns, labelSelector: `app=${ROLL}` })).items.filter((p) => !p.metadata.deletionTimestamp);

  it('status and revisions; an image change rolls through 10 pods in place, never more than maxUnavailable at once', async () => {
    await createSet({ ...SS, metadata: { name: ROLL }, spec: {
      selector: { matchLabels: { app: ROLL } }, updateStrategy: { type: 'RollingUpdate', maxUnavailable: 2 },
      containers: [{ name: 'roll-agent', image: 'agent:1' }],
    } });
    await kube.create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: ROLL, namespace: ns }, spec: {
      replicas: 10, selector: { matchLabels: { app: ROLL } },
      template: { metadata: { labels: { app: ROLL } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } },
    } });
    await eventually('10 ready pods with the sidecar', async () => {
      const pods = await rollPods();
      return pods.length === 10 && pods.every((p) => isReady(p) && containerOf(p, 'roll-agent')?.image === 'agent:1') ? pods : undefined;
    }, 90_000, 250);
    await runReconciler(kube, sidecarSetReconciler, { scope: { kind: 'all' }, identity: 'sidecarset-e2e' });
    const before = await kube.get<SidecarSetObj>(SS.apiVersion, SS.kind, ROLL);
    expect(before.status).toMatchObject({ matchedPods: 10, updatedPods: 10, readyPods: 10, updatedReadyPods: 10, observedGeneration: 1 });
    expect(before.status?.latestRevision).toMatch(/^roll-/);

    kubelet.setRestartReadyDelay(1_500);
    await kube.patch(before, { spec: { containers: [{ name: 'roll-agent', image: 'agent:2' }] } });
    let maxUnavailable = 0;
    const deadline = Date.now() + 100_000;
    for (;;) {
      await runReconciler(kube, sidecarSetReconciler, { scope: { kind: 'all' }, identity: 'sidecarset-e2e' });
      const pods = await rollPods();
      // Unavailable: not Ready, or the new image not yet running.
      const unavailable = pods.filter((p) => !isReady(p) || p.status?.containerStatuses?.find((s) => s.name === 'roll-agent')?.image !== containerOf(p, 'roll-agent')?.image);
      maxUnavailable = Math.max(maxUnavailable, unavailable.length);
      expect(unavailable.length).toBeLessThanOrEqual(2);
      const done = pods.length === 10 && unavailable.length === 0 && pods.every((p) => containerOf(p, 'roll-agent')?.image === 'agent:2');
      if (done) break;
      if (Date.now() > deadline) throw new Error('the rollout did not finish');
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(maxUnavailable).toBeGreaterThan(0); // the rollout really went through unavailable pods
    const pods = await rollPods();
    // In place: the same pods, the sidecar restarted once, the app container untouched.
    expect(pods.every((p) => p.status?.containerStatuses?.find((s) => s.name === 'roll-agent')?.restartCount === 1)).toBe(true);
    expect(pods.every((p) => p.status?.containerStatuses?.find((s) => s.name === 'main')?.restartCount === 0)).toBe(true);
    await runReconciler(kube, sidecarSetReconciler, { scope: { kind: 'all' }, identity: 'sidecarset-e2e' });
    const after = await kube.get<SidecarSetObj>(SS.apiVersion, SS.kind, ROLL);
    expect(after.status).toMatchObject({ matchedPods: 10, updatedPods: 10, readyPods: 10, updatedReadyPods: 10, observedGeneration: 2 });
    expect(after.status?.latestRevision).not.toBe(before.status?.latestRevision);
    const revisions = await kube.list<KubeObject>('apps/v1', 'ControllerRevision', { namespace: 'kruise-system', labelSelector: `kruise.io/sidecarset-name=${ROLL}` });
    expect(revisions.items.length).toBe(2);
    kubelet.setRestartReadyDelay(0);
    await kube.delete({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: ROLL, namespace: ns } }, { propagationPolicy: 'Background' });
  }, 240_000);

  it('updateStrategy: NotUpdate and paused hold the old image; partition keeps that many pods back', async () => {
    const pods = ['hold-0', 'hold-1', 'hold-2', 'hold-3'];
    const set = await createSet({ ...SS, metadata: { name: 'hold' }, spec: {
      selector: { matchLabels: { app: 'hold' } }, updateStrategy: { type: 'NotUpdate' }, containers: [{ name: 'hold-agent', image: 'hold:1' }],
    } });
    for (const name of pods) await createPod(name, { app: 'hold' });
    const images = async () => Promise.all(pods.map(async (n) => containerOf(await kube.get<Pod>('v1', 'Pod', n, ns), 'hold-agent')?.image));
    const settle = async () => {
      for (let i = 0; i < 6; i++) {
        await runReconciler(kube, sidecarSetReconciler, { scope: { kind: 'all' }, identity: 'sidecarset-e2e' });
        await new Promise((r) => setTimeout(r, 300));
      }
    };
    await eventually('4 ready pods', async () => {
      const ready = await Promise.all(pods.map(async (n) => isReady(await kube.get<Pod>('v1', 'Pod', n, ns))));
      return ready.every(Boolean) ? true : undefined;
    });
    const current = await kube.patch<SidecarSetObj>(set, { spec: { containers: [{ name: 'hold-agent', image: 'hold:2' }] } });
    await settle();
    expect(await images()).toEqual(['hold:1', 'hold:1', 'hold:1', 'hold:1']);
    const paused = await kube.patch<SidecarSetObj>(current, { spec: { updateStrategy: { type: 'RollingUpdate', paused: true, maxUnavailable: 4 } } });
    await settle();
    expect(await images()).toEqual(['hold:1', 'hold:1', 'hold:1', 'hold:1']);
    await kube.patch(paused, { spec: { updateStrategy: { type: 'RollingUpdate', paused: false, partition: 3, maxUnavailable: 4 } } });
    await settle();
    expect((await images()).filter((i) => i === 'hold:2')).toHaveLength(1);
  }, 120_000);

  it('a PodUnavailableBudget holds the rollout back: never more pods updating than it allows', async () => {
    const APP = 'guarded';
    await createSet({ ...SS, metadata: { name: APP }, spec: {
      selector: { matchLabels: { app: APP } }, updateStrategy: { type: 'RollingUpdate', maxUnavailable: 4 },
      containers: [{ name: 'guard-agent', image: 'guard:1' }],
    } });
    await kube.create({ apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: APP, namespace: ns },
      spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: APP }, maxUnavailable: 1 } });
    await kube.create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: APP, namespace: ns }, spec: {
      replicas: 4, selector: { matchLabels: { app: APP } },
      template: { metadata: { labels: { app: APP } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } },
    } });
    const guarded = async () => (await kube.list<Pod>('v1', 'Pod', { namespace: ns, labelSelector: `app=${APP}` })).items.filter((p) => !p.metadata.deletionTimestamp);
    await eventually('4 ready guarded pods', async () => {
      const pods = await guarded();
      return pods.length === 4 && pods.every(isReady) ? pods : undefined;
    }, 60_000, 250);
    expect((await guarded()).every((p) => p.metadata.annotations?.['kruise.io/related-pub'] === APP)).toBe(true);
    await resync(); // the PUB's status and the edge's budget: 1 may be disrupted
    kubelet.setRestartReadyDelay(1_500);
    const set = await kube.get<SidecarSetObj>(SS.apiVersion, SS.kind, APP);
    await kube.patch(set, { spec: { containers: [{ name: 'guard-agent', image: 'guard:2' }] } });
    let most = 0;
    const deadline = Date.now() + 120_000;
    for (;;) {
      await resync();
      const pods = await guarded();
      const unavailable = pods.filter((p) => !isReady(p) || p.status?.containerStatuses?.find((c) => c.name === 'guard-agent')?.image !== containerOf(p, 'guard-agent')?.image);
      most = Math.max(most, unavailable.length);
      // maxUnavailable 4 would take all four at once; the PUB allows one.
      expect(unavailable.length).toBeLessThanOrEqual(1);
      if (pods.length === 4 && unavailable.length === 0 && pods.every((p) => containerOf(p, 'guard-agent')?.image === 'guard:2')) break;
      if (Date.now() > deadline) throw new Error('the guarded rollout did not finish');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(most).toBe(1);
    kubelet.setRestartReadyDelay(0);
    await kube.delete({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: APP, namespace: ns } }, { propagationPolicy: 'Background' });
  }, 180_000);

  it('hot upgrade: the idle container takes the new image, then the old one goes empty', async () => {
    const set = await createSet({ ...SS, metadata: { name: 'hot-roll' }, spec: {
      selector: { matchLabels: { app: 'hot-roll' } },
      containers: [{ name: 'mesh', image: 'mesh:1', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'mesh:empty' } }],
    } });
    await createPod('hot-roll', { app: 'hot-roll' });
    await eventually('the hot pod ready', async () => {
      const p = await kube.get<Pod>('v1', 'Pod', 'hot-roll', ns);
      return isReady(p) ? p : undefined;
    });
    await kube.patch(set, { spec: { containers: [{ name: 'mesh', image: 'mesh:2', upgradeStrategy: { upgradeType: 'HotUpgrade', hotUpgradeEmptyImage: 'mesh:empty' } }] } });
    const p = await eventually('mesh-2 on mesh:2 and mesh-1 emptied', async () => {
      await runReconciler(kube, sidecarSetReconciler, { scope: { kind: 'all' }, identity: 'sidecarset-e2e' });
      const pod = await kube.get<Pod>('v1', 'Pod', 'hot-roll', ns);
      return containerOf(pod, 'mesh-2')?.image === 'mesh:2' && containerOf(pod, 'mesh-1')?.image === 'mesh:empty' ? pod : undefined;
    }, 60_000, 300);
    // The working container's version is the SidecarSet's resourceVersion at the swap; after the
    // flip the old container's version and the working one's versionalt are "0" (OpenKruise).
    expect(p.metadata.annotations).toMatchObject({
      'kruise.io/sidecarset-working-hotupgrade-container': '{"mesh":"mesh-2"}',
      'version.sidecarset.kruise.io/mesh-1': '0',
      'versionalt.sidecarset.kruise.io/mesh-2': '0',
    });
    expect(p.metadata.annotations?.['version.sidecarset.kruise.io/mesh-2']).toMatch(/^[1-9]\d*$/);
  }, 120_000);

  it('the SidecarSet webhook publishes a change event; delivered to the reconcile Lambda it updates that set’s status', async () => {
    await createSet({ ...SS, metadata: { name: 'evented' }, spec: { selector: { matchLabels: { app: 'evented' } }, containers: [{ name: 'ev', image: 'ev:1' }] } });
    const entry = await eventually('an ObjectChanged event for evented', async () => published.find((e) => e.Detail.includes('"evented"')));
    const detail = JSON.parse(entry.Detail) as Record<string, unknown>;
    expect(detail).toMatchObject({ clusterId: CLUSTER, apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', name: 'evented', reason: 'created' });
    const template = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'lambda', 'object-changed-event.json'), 'utf8')) as Record<string, unknown>;
    const handler = makeReconcileHandler({ reconcilers: [sidecarSetReconciler], clusterId: CLUSTER, run: (r, scope) => runReconciler(kube, r, { scope, identity: 'sidecarset-e2e' }) });
    const summary = await handler({ ...template, source: 'kruise-serverless', 'detail-type': 'ObjectChanged', detail });
    expect(summary).toMatchObject({ ok: true, runs: [{ reconciler: 'SidecarSet', scope: ['evented'], acted: true }] });
    const set = await kube.get<SidecarSetObj>(SS.apiVersion, SS.kind, 'evented');
    expect(set.status).toMatchObject({ observedGeneration: 1, matchedPods: 0 });
  });
});
