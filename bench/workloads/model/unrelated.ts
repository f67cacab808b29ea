// Group 3's unrelated-objects variant: pods that no workload owns and no node runs (another
// scheduler's name, so kube-scheduler leaves them Pending; the fake kubelet, reading the watch
// cache, skips them at no etcd cost), `inNamespace` of them beside the rollout and the rest up to
// `inCluster` in a namespace of their own. Created fast by a client of its own; removed after.
import { KubeHttp } from '../../../src/kube/http.js';
import { loadKubeConnection } from '../../../src/kube/kubeconfig.js';
import { createNamespace, deleteNamespaces, until, type BenchCluster } from '../../cluster/cluster.js';

export const UNRELATED_NAMESPACE = 'bench-unrelated';
const LABEL = 'bench.kruise-serverless.io/unrelated';
const IN_FLIGHT = 48;

/** A pod of about 1.5 KB, as a small real one: labels, an annotation, env, resources. */
function unrelatedPod(namespace: string, i: number) {
  return {
    apiVersion: 'v1', kind: 'Pod',
    metadata: {
      name: `unrelated-${String(i).padStart(5, '0')}`, namespace,
      labels: { [LABEL]: 'yes', app: `unrelated-${i % 50}`, tier: 'backend', 'app.kubernetes.io/part-of': 'unrelated' },
      annotations: { 'bench.kruise-serverless.io/note': 'owned by nothing, bound to no node' },
    },
    spec: {
      schedulerName: 'bench-no-scheduler', automountServiceAccountToken: false,
      containers: [{
        name: 'main', image: `registry.example.com/bench/unrelated:${i % 7}`, ports: [{ containerPort: 8080 }],
        env: Array.from({ length: 6 }, (_, k) => ({ name: `SETTING_${k}`, value: `value-${k}-${i}` })),
        resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { cpu: '100m', memory: '64Mi' } },
      }],
    },
  };
}

async function createPods(kube: KubeHttp, namespace: string, from: number, to: number): Promise<void> {
  let next = from;
  const worker = async () => {
    while (next < to) await kube.create(unrelatedPod(namespace, next++));
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

/** Creates the pods; returns how long it took and a function that removes them. */
export async function addUnrelatedPods(c: BenchCluster, namespace: string, inNamespace: number, inCluster: number, log: (m: string) => void): Promise<{ ms: number; remove(): Promise<void> }> {
  const fast = KubeHttp.connect(await loadKubeConnection(c.cp.kubeconfig), { limits: { qps: 5_000, burst: 5_000, maxInFlight: IN_FLIGHT } });
  const t0 = performance.now();
  try {
    await createPods(fast, namespace, 0, inNamespace);
    if (inCluster > inNamespace) {
      await createNamespace(fast, UNRELATED_NAMESPACE);
      await createPods(fast, UNRELATED_NAMESPACE, inNamespace, inCluster);
    }
  } finally {
    fast.close();
  }
  const ms = performance.now() - t0;
  log(`unrelated pods: ${inNamespace} in ${namespace}, ${Math.max(0, inCluster - inNamespace)} in ${UNRELATED_NAMESPACE}, created in ${(ms / 1000).toFixed(0)} s`);
  return {
    ms,
    async remove() {
      await c.kube.request('DELETE', `/api/v1/namespaces/${namespace}/pods`, { query: { labelSelector: LABEL } });
      if (inCluster > inNamespace) await deleteNamespaces(c.kube, [UNRELATED_NAMESPACE], 600_000);
      await until('the unrelated pods to be gone', async () => ((await c.kube.list('v1', 'Pod', { namespace, labelSelector: LABEL, limit: 1 })).items.length === 0 ? true : undefined), 300_000, 1000);
    },
  };
}
