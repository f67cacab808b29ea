// PodProbeMarker on the Lambda path: a pod has reported its probe's result as a condition (as a
// virtual kubelet's runtime does); creating the PodProbeMarker publishes a change event, and the
// production Lambda handler marks the pod by its policy. No resync between the steps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podProbeMarkerFeature } from '../../src/podprobemarker/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('ppml', [podProbeMarkerFeature], { workerBindings: lambda.bindings });
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync();
});
afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

describe('PodProbeMarker through the Lambda', () => {
  it('created over a pod that reported its condition: the pod gets the policy\'s labels', async () => {
    await env.createPod('room-0', { app: 'room' });
    await env.waitReady(['room-0']);
    await env.kube.patch({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'room-0', namespace: env.ns } }, { status: { conditions: [{ type: 'game.kruise.io/idle', status: 'False' }] } }, 'strategic', 'status');
    await env.kube.create({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name: 'room', namespace: env.ns },
      spec: {
        selector: { matchLabels: { app: 'room' } },
        probes: [{ name: 'idle', containerName: 'main', podConditionType: 'game.kruise.io/idle', probe: { exec: { command: ['/idle.sh'] } }, markerPolicy: [{ state: 'Succeeded', labels: { idle: 'true' } }, { state: 'Failed', labels: { idle: 'false' }, annotations: { 'controller.kubernetes.io/pod-deletion-cost': '100' } }] }],
      },
    } as KubeObject);
    const marked = await eventually('room-0 marked busy', async () => {
      const p = await env.kube.get<Pod>('v1', 'Pod', 'room-0', env.ns);
      return p.metadata.labels?.idle === 'false' ? p : undefined;
    }, 20_000, 50);
    expect(marked.metadata.annotations?.['controller.kubernetes.io/pod-deletion-cost']).toBe('100');
  });
});
