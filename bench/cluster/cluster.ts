// The benchmark's cluster: its own control plane (test/cluster: etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler), our CRDs, fake nodes with the fake kubelet, and
// counted API clients (the benchmark's own, the kubelet's) so that writes the API server saw can be
// attributed. Plus the workloads the scenarios roll, and waiting for them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeHttp, type KubeObject } from '../../src/kube/http.js';
import { loadKubeConfig } from '../../src/kube/node-client.js';
import { installCrds } from '../../src/kube/crds.js';
import { readCrdManifests } from '../../src/kube/crd-manifests.js';
import { isAlreadyExists, isNotFound } from '../../src/kube/errors.js';
import { REPO_ROOT, startControlPlane, stopControlPlane, type ControlPlane } from '../../test/cluster/control-plane.js';
import { FakeKubelet } from '../../test/cluster/fake-kubelet.js';
import { countRequests, traceRequests, type Tally } from './counting.js';
import { kubeconfigVia, startCountingProxy, type CountingProxy } from './counting-proxy.js';
import { APISERVER_PROFILE_DIR } from './apiserver-profile.js';

export const CONTROL_PLANE = 'bench-cloneset';
export const CLONESET = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
export const DEPLOYMENT = { apiVersion: 'apps/v1', kind: 'Deployment' } as const;
export const IMAGE = (v: number) => `registry.example.com/bench/app:${v}`;

export type BenchCluster = {
  cp: ControlPlane;
  /** The benchmark's own client (setup, polling, spec changes), counted. */
  kube: KubeHttp;
  own: Tally;
  kubelet: FakeKubelet;
  /** The fake kubelet's client, counted. */
  kubeletRequests: Tally;
  /** With `countClients`: kube-controller-manager's and the Node loop's requests and response bytes, each through its own counting proxy. */
  proxies?: { native: CountingProxy; loop: CountingProxy; loopKubeconfig: string };
  close(): Promise<void>;
};

export type Pod = KubeObject & {
  metadata: { name: string; namespace: string; uid: string; labels?: Record<string, string>; deletionTimestamp?: string };
  spec: { containers: { name: string; image: string }[] };
  status?: { conditions?: { type: string; status: string }[]; containerStatuses?: { name: string; image: string }[] };
};

export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    const v = await check().catch((e: unknown) => void (last = e));
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`);
    await sleep(everyMs);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `name`: the control plane's (its state directory); bench/workloads/main.ts runs its own. */
export async function startBenchCluster(nodes: { count: number; podsEach: number }, log: (m: string) => void, name: string = CONTROL_PLANE, countClients = false): Promise<BenchCluster> {
  // A control plane left by a killed run under this name: start afresh (its etcd is wiped).
  await stopControlPlane(name);
  let native: CountingProxy | undefined;
  const cp = await startControlPlane(name, log, {
    ...(countClients ? {
      controllerManagerVia: async (apiserver: string, pki: ControlPlane['pki']) => {
        native = await startCountingProxy(apiserver, { ca: readFileSync(pki.caCert, 'utf8'), cert: readFileSync(pki.apiserverCert, 'utf8'), key: readFileSync(pki.apiserverKey, 'utf8') });
        return native.server;
      },
    } : {}),
    ...(APISERVER_PROFILE_DIR ? { profiling: true } : {}),
  });
  let proxies: BenchCluster['proxies'];
  if (native) {
    const loop = await startCountingProxy(cp.server, { ca: readFileSync(cp.pki.caCert, 'utf8'), cert: readFileSync(cp.pki.apiserverCert, 'utf8'), key: readFileSync(cp.pki.apiserverKey, 'utf8') });
    proxies = { native, loop, loopKubeconfig: kubeconfigVia(cp.kubeconfig, loop.server, join(cp.dir, 'kubeconfig-loop')) };
  }
  const kube = await KubeHttp.fromKubeConfig(loadKubeConfig(cp.kubeconfig));
  const own = countRequests(kube);
  const kubeletKube = await KubeHttp.fromKubeConfig(loadKubeConfig(cp.kubeconfig));
  const kubeletRequests = countRequests(kubeletKube);
  if (process.env.KS_BENCH_TRACE === '2') traceRequests(kubeletKube, 'kubelet');
  await installCrds(kube, readCrdManifests(join(REPO_ROOT, 'infra', 'crds')));
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kruise-system' } }).catch((e: unknown) => {
    if (!isAlreadyExists(e)) throw e;
  });
  // With the clients counted (the kubelet-model figures), the fake kubelet keeps its pods as a real one does: an informer (one LIST, then a WATCH).
  const kubelet = new FakeKubelet(kubeletKube, 100, { podSource: countClients ? 'informer' : 'etcd' });
  await kubelet.addNodes(Array.from({ length: nodes.count }, (_, i) => ({ name: `bench-node-${i}`, allocatable: { pods: String(nodes.podsEach) } })));
  kubelet.start();
  return {
    cp, kube, own, kubelet, kubeletRequests, ...(proxies ? { proxies } : {}),
    async close() {
      await kubelet.stop();
      await proxies?.loop.close();
      kube.close();
      kubeletKube.close();
      await stopControlPlane(name, true);
      await proxies?.native.close();
    },
  };
}

/** Creates a namespace and waits for its default ServiceAccount (pods are refused before it exists). */
export async function createNamespace(kube: KubeHttp, name: string): Promise<void> {
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await until(`namespace ${name}'s default service account`, async () => (await kube.get('v1', 'ServiceAccount', 'default', name)) && true, 60_000, 100);
}

/** Deletes namespaces and waits until they are gone (their pods finalised by the fake kubelet). */
export async function deleteNamespaces(kube: KubeHttp, names: readonly string[], timeoutMs = 300_000): Promise<void> {
  for (const name of names) await kube.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }).catch((e: unknown) => {
    if (!isNotFound(e)) throw e;
  });
  await until(`namespaces ${names.join(', ')} to be deleted`, async () => {
    for (const name of names) {
      const gone = await kube.get('v1', 'Namespace', name).then(() => false, (e: unknown) => isNotFound(e));
      if (!gone) return undefined;
    }
    return true;
  }, timeoutMs, 1000);
}

/** The pod template every workload shares: one container, a readiness probe (the fake kubelet reports ready at once). */
export function podTemplate(app: string, image: string): Record<string, unknown> {
  return {
    metadata: { labels: { app } },
    spec: {
      automountServiceAccountToken: false,
      containers: [{ name: 'main', image, ports: [{ containerPort: 8080 }], readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5 } }],
    },
  };
}

export function cloneSet(name: string, namespace: string, replicas: number, image: string, type: 'InPlaceIfPossible' | 'ReCreate' = 'ReCreate'): KubeObject {
  return {
    ...CLONESET, metadata: { name, namespace },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: podTemplate(name, image), updateStrategy: { type, maxUnavailable: '20%' } },
  };
}

/** maxSurge 0, like the CloneSets (whose default maxSurge is 0): the same 20% of pods down at a time. */
export function deployment(name: string, namespace: string, replicas: number, image: string): KubeObject {
  return {
    ...DEPLOYMENT, metadata: { name, namespace },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: podTemplate(name, image), strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '20%', maxSurge: 0 } } },
  };
}

/** The JSON patch that changes the one container's image (CRDs take no strategic merge). */
export const imagePatch = (image: string) => [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }];

export const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const runs = (p: Pod, image: string) => p.spec.containers[0]?.image === image && p.status?.containerStatuses?.find((s) => s.name === 'main')?.image === image;

export async function podsOf(kube: KubeHttp, namespace: string, app: string): Promise<Pod[]> {
  return (await kube.list<Pod>('v1', 'Pod', { namespace, labelSelector: `app=${app}` })).items;
}

/** Exactly `replicas` pods, none terminating, each running `image` and Ready. */
export function rolledOut(pods: readonly Pod[], replicas: number, image: string): boolean {
  return pods.length === replicas && pods.every((p) => !p.metadata.deletionTimestamp && runs(p, image) && isReady(p));
}
