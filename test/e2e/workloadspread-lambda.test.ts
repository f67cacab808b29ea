// WorkloadSpread on the Lambda path: pods that existed before their WorkloadSpread
// (support/workloadspread-existing-pods.ts). Creating it publishes a change event; the production
// Lambda handler adopts the running pods and writes status. The one-minute schedule never fires.
import { afterAll, beforeAll, describe } from 'vitest';
import { workloadSpreadFeature } from '../../src/workloadspread/index.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';
import { existingPodsCases, zoneNodes } from './support/workloadspread-existing-pods.js';

const { nodes } = zoneNodes('wsl');
let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('wsl', [workloadSpreadFeature], { workerBindings: lambda.bindings });
  await env.kubelet.addNodes(nodes);
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync(); // the install's push: nothing is configured yet
});
afterAll(async () => {
  await lambda?.close();
  await env?.kubelet.removeNodes(nodes.map((n) => n.name));
  await env?.dispose();
});

describe('WorkloadSpread through the Lambda: pods that existed before it', () => {
  existingPodsCases('wsl', () => env, async (name) => {
    // Its summary is recorded when the handler returns, a moment after its last write is visible.
    await eventually(`a Lambda run of ${name} that wrote`, async () => (lambda.summaries.some((s) => s.runs.some((r) => r.reconciler === 'WorkloadSpread' && r.acted && r.applied > 0 && (r.scope === 'all' || r.scope.includes(`${env.ns}/${name}`)))) ? true : undefined), 10_000, 20)
      .catch((e: unknown) => {
        throw new Error(`${String(e)}\n${lambda.describeRuns()}`);
      });
  });
});
