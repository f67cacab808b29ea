// Container launch priority on the Lambda path: the Worker publishes a pod created with barrier
// envs (observe-pod, a related-object change event), and the production Lambda handler creates its
// barrier ConfigMap with the first priority released; as its containers report ready (through
// pods/status, as a kubelet would), the runs' SQS wake-ups release the next priorities and mark
// the pod completed. No resync, no push between the user's steps; the one-minute schedule never
// fires. PUB is registered as in production: its pod state is what makes the Worker register
// observe-pod.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerLaunchPriorityFeature } from '../../src/containerlaunchpriority/index.js';
import { pubFeature } from '../../src/pub/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';

const COMPLETED = 'apps.kruise.io/container-launch-priority-completed';
type ConfigMap = KubeObject & { data?: Record<string, string> };

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('clpl', [containerLaunchPriorityFeature, pubFeature], { workerBindings: lambda.bindings });
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync();
});
afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

const barrier = (pod: string) => env.kube.get<ConfigMap>('v1', 'ConfigMap', `${pod}-barrier`, env.ns).catch(() => undefined);
const waitKeys = (pod: string, keys: string[]) =>
  eventually(`${pod}-barrier holds ${keys.join(', ')}`, async () => {
    const cm = await barrier(pod);
    return cm && JSON.stringify(Object.keys(cm.data ?? {}).sort()) === JSON.stringify([...keys].sort()) ? cm : undefined;
  }, 20_000, 50);
/** What the kubelet would report: these containers ready, the others waiting. */
const reportReady = async (name: string, ready: string[]) => {
  const pod = await env.kube.get<Pod>('v1', 'Pod', name, env.ns);
  const containerStatuses = pod.spec!.containers.map((c) => ({ name: c.name, image: c.image, imageID: '', ready: ready.includes(c.name), restartCount: 0, state: ready.includes(c.name) ? { running: { startedAt: new Date().toISOString() } } : { waiting: { reason: 'CreateContainerConfigError' } } }));
  await env.kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: env.ns } }, { status: { phase: 'Pending', containerStatuses } }, 'merge', 'status');
};

describe('container launch priority through the Lambda', () => {
  it('a pod created Ordered gets its barrier with p_0 released; each priority follows as the containers above it are ready, then the pod is marked completed', async () => {
    await env.kube.create({
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name: 'ordered', namespace: env.ns, annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' } },
      spec: { nodeName: 'clpl-no-such-node', automountServiceAccountToken: false, containers: [{ name: 'a', image: 'app:1' }, { name: 'b', image: 'app:1' }, { name: 'c', image: 'app:1' }] },
    } as KubeObject);
    const cm = await waitKeys('ordered', ['p_0']);
    expect(cm.data).toEqual({ p_0: 'true' });
    expect(lambda.received.some((e) => e.detail.kind === 'Pod' && e.detail.name === 'ordered')).toBe(true);
    await reportReady('ordered', ['a']);
    await waitKeys('ordered', ['p_0', 'p_-1']);
    await reportReady('ordered', ['a', 'b']);
    await waitKeys('ordered', ['p_0', 'p_-1', 'p_-2']);
    await eventually('ordered marked completed', async () => ((await env.kube.get<Pod>('v1', 'Pod', 'ordered', env.ns)).metadata.annotations?.[COMPLETED] === 'true' ? true : undefined), 20_000, 50);
    // Nothing but the Lambda ran it, and the steps after the creation came from SQS wake-ups.
    expect(lambda.summaries.some((s) => s.trigger === 'requeue' && s.runs.some((r) => r.reconciler === 'Pod' && r.acted && r.applied > 0))).toBe(true);
  });
});
