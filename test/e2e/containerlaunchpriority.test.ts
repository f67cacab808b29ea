// Container launch priority end to end on a real API server: the pod webhook on the production
// Worker (after SidecarSet's, as in OpenKruise), the barrier reconciler through the Node loop (full
// resync set to an hour). The pods are bound to a node without a kubelet, and the test reports
// their containers' readiness through pods/status as a kubelet would, so each step of the barrier
// is seen. Users' steps follow each other with no sleep; tests wait with `eventually`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerLaunchPriorityFeature } from '../../src/containerlaunchpriority/index.js';
import { launchPriorityReconciler } from '../../src/containerlaunchpriority/controller/reconciler.js';
import { sidecarSetFeature } from '../../src/sidecarset/index.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import type { Reconciler } from '../../src/reconcile/types.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { attempt, eventually } from './support/kube.js';

const NODE = 'clp-no-kubelet';
const COMPLETED = 'apps.kruise.io/container-launch-priority-completed';
type ConfigMap = KubeObject & { data?: Record<string, string>; metadata: { ownerReferences?: { kind?: string; name?: string; uid?: string }[] } };

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;

beforeAll(async () => {
  env = await startEdgeEnv('clp', [sidecarSetFeature, containerLaunchPriorityFeature]);
  await env.kube.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: NODE } });
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [launchPriorityReconciler] as Reconciler[], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `clp-loop-${r.kind}-${scope.kind}` }),
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.kube.delete({ apiVersion: 'v1', kind: 'Node', metadata: { name: NODE } }).catch(() => undefined);
  await env?.dispose();
});

const createPod = (meta: Record<string, unknown>, containers: { name: string; env?: { name: string; value: string }[] }[]) =>
  env.kube.create<Pod>({ apiVersion: 'v1', kind: 'Pod', metadata: { namespace: env.ns, ...meta }, spec: { nodeName: NODE, automountServiceAccountToken: false, containers: containers.map((c) => ({ image: 'app:1', ...c })) } } as unknown as Pod);
const barrier = (pod: string) => env.kube.get<ConfigMap>('v1', 'ConfigMap', `${pod}-barrier`, env.ns).catch(() => undefined);
const barrierEnv = (p: Pod) => p.spec?.containers.map((c) => c.env?.find((e) => e.name === 'KRUISE_CONTAINER_BARRIER')?.valueFrom?.configMapKeyRef);
const waitKeys = (pod: string, keys: string[]) =>
  eventually(`${pod}-barrier holds ${keys.join(', ')}`, async () => {
    const cm = await barrier(pod);
    return cm && JSON.stringify(Object.keys(cm.data ?? {}).sort()) === JSON.stringify([...keys].sort()) ? cm : undefined;
  });
/** What the kubelet would report: these containers ready, the others waiting. */
const reportReady = async (name: string, ready: string[]) => {
  const pod = await env.kube.get<Pod>('v1', 'Pod', name, env.ns);
  const containerStatuses = pod.spec!.containers.map((c) => ({ name: c.name, image: c.image, imageID: '', ready: ready.includes(c.name), restartCount: 0, state: ready.includes(c.name) ? { running: { startedAt: new Date().toISOString() } } : { waiting: { reason: 'CreateContainerConfigError' } } }));
  await env.kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: env.ns } }, { status: { phase: 'Pending', containerStatuses } }, 'merge', 'status');
};

describe('container launch priority', () => {
  it('Ordered: barrier env 0, -1, -2; the barrier releases one priority as each container above it is ready, then the pod is marked completed', async () => {
    const pod = await createPod({ name: 'ordered', annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' } }, [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    expect(barrierEnv(pod)).toEqual([{ name: 'ordered-barrier', key: 'p_0' }, { name: 'ordered-barrier', key: 'p_-1' }, { name: 'ordered-barrier', key: 'p_-2' }]);
    const cm = await waitKeys('ordered', ['p_0']);
    expect(cm.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Pod', name: 'ordered', uid: pod.metadata.uid }]);
    await reportReady('ordered', ['a']);
    await waitKeys('ordered', ['p_0', 'p_-1']);
    await reportReady('ordered', ['a', 'b']);
    await waitKeys('ordered', ['p_0', 'p_-1', 'p_-2']);
    await eventually('ordered marked completed', async () => ((await env.kube.get<Pod>('v1', 'Pod', 'ordered', env.ns)).metadata.annotations?.[COMPLETED] === 'true' ? true : undefined));
  });

  it('KRUISE_CONTAINER_PRIORITY: the higher value first; a generateName pod is named by the webhook', async () => {
    const pod = await createPod({ generateName: 'prio-' }, [{ name: 'app' }, { name: 'proxy', env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '1000' }] }]);
    expect(pod.metadata.name).toMatch(/^prio-[a-z0-9]{5}$/);
    expect(barrierEnv(pod)).toEqual([{ name: `${pod.metadata.name}-barrier`, key: 'p_0' }, { name: `${pod.metadata.name}-barrier`, key: 'p_1000' }]);
    await waitKeys(pod.metadata.name, ['p_1000']);
    await reportReady(pod.metadata.name, ['proxy']);
    await waitKeys(pod.metadata.name, ['p_1000', 'p_0']);
  });

  it('equal priorities, or one container: left alone', async () => {
    const same = await createPod({ name: 'same' }, [{ name: 'a', env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '5' }] }, { name: 'b', env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: '5' }] }]);
    expect(barrierEnv(same)).toEqual([undefined, undefined]);
    const one = await createPod({ name: 'one', annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' } }, [{ name: 'a' }]);
    expect(barrierEnv(one)).toEqual([undefined]);
  });

  it("refuses a priority that is not an integer with strconv's message", async () => {
    expect(await attempt(createPod({ name: 'bad' }, [{ name: 'a', env: [{ name: 'KRUISE_CONTAINER_PRIORITY', value: 'high' }] }, { name: 'b' }]))).toContain('strconv.Atoi: parsing "high": invalid syntax');
  });
});
