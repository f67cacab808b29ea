// Container launch priority on the Lambda path: the Worker publishes a pod created with barrier
// envs (observe-pod, a related-object change event), and the production Lambda handler creates its
// barrier ConfigMap with the first priority released. No resync, no push between the user's steps.
// PUB is registered as in production: its pod state is what makes the Worker register observe-pod.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { containerLaunchPriorityFeature } from '../../src/containerlaunchpriority/index.js';
import { pubFeature } from '../../src/pub/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';

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

describe('container launch priority through the Lambda', () => {
  it('a pod created Ordered gets its barrier with p_0 released', async () => {
    await env.kube.create({
      apiVersion: 'v1', kind: 'Pod',
      metadata: { name: 'ordered', namespace: env.ns, annotations: { 'apps.kruise.io/container-launch-priority': 'Ordered' } },
      spec: { nodeName: 'clpl-no-such-node', automountServiceAccountToken: false, containers: [{ name: 'a', image: 'app:1' }, { name: 'b', image: 'app:1' }] },
    } as KubeObject);
    const cm = await eventually('ordered-barrier', async () => env.kube.get<KubeObject & { data?: Record<string, string> }>('v1', 'ConfigMap', 'ordered-barrier', env.ns).catch(() => undefined), 20_000, 50);
    expect(cm.data).toEqual({ p_0: 'true' });
    expect(lambda.received.some((e) => e.detail.kind === 'Pod' && e.detail.name === 'ordered')).toBe(true);
  });
});
