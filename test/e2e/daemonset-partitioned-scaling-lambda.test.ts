// Advanced DaemonSet v1beta1 `spec.scaleStrategy.partitionedScaling` on the Lambda path, with the
// DaemonSet CRD as `kruise-serverless install` sets it up (stored as v1beta1, converted by the
// edge). Every reconcile runs in the production Lambda handler, triggered as AWS triggers it: the
// ObjectChanged events the Worker publishes when it admits the DaemonSet or a status change of one
// of its pods, and the SQS wake-ups runs ask for. The user creates it and lowers the partition
// with no sleep and no push in between.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonSetFeature } from '../../src/daemonset/index.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { deletePartitioned, installDaemonSetThroughEdge, partitionedScalingScenario, restoreDaemonSetCrd } from './support/daemonset-partitioned.js';

const NAME = 'ds-pscalel';
let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv(NAME, [daemonSetFeature], { workerBindings: lambda.bindings });
  await installDaemonSetThroughEdge(env, NAME);
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync(); // the install's push: nothing is configured yet
}, 120_000);
afterAll(async () => {
  await deletePartitioned(env);
  await lambda?.close();
  await env?.dispose();
  await restoreDaemonSetCrd(env);
});

describe('v1beta1 scaleStrategy.partitionedScaling through the Lambda', () => {
  it('partition 2 of 3 nodes holds creations to one pod (first node by name); partition 0 fills the rest', async () => {
    await partitionedScalingScenario(env, 'pscalel');
    expect(lambda.summaries.some((s) => s.runs.some((r) => r.reconciler === 'DaemonSet' && r.acted && r.applied > 0))).toBe(true);
  }, 120_000);
});
