// Advanced DaemonSet v1beta1 `spec.scaleStrategy.partitionedScaling` through the Node loop (watches
// as triggers, the full resync set to an hour so nothing here waits for it), with the DaemonSet CRD
// as `kruise-serverless install` sets it up: stored as v1beta1 and converted by the edge. The user
// creates it and lowers the partition with no sleep and no push in between.
// (test/e2e/daemonset-partitioned-scaling.test.ts runs the controller by hand, several times over.)
import { afterAll, beforeAll, describe, it } from 'vitest';
import { daemonSetFeature } from '../../src/daemonset/index.js';
import { daemonSetReconciler } from '../../src/daemonset/controller/reconciler.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { deletePartitioned, installDaemonSetThroughEdge, partitionedScalingScenario, restoreDaemonSetCrd } from './support/daemonset-partitioned.js';

const NAME = 'ds-pscaleloop';
let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;

beforeAll(async () => {
  env = await startEdgeEnv(NAME, [daemonSetFeature]);
  await installDaemonSetThroughEdge(env, NAME);
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [daemonSetReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `${NAME}-${scope.kind}` }),
  });
}, 120_000);
afterAll(async () => {
  stop?.abort();
  await loop;
  await deletePartitioned(env);
  await env?.dispose();
  await restoreDaemonSetCrd(env);
});

describe('v1beta1 scaleStrategy.partitionedScaling through the Node loop', () => {
  it('partition 2 of 3 nodes holds creations to one pod (first node by name); partition 0 fills the rest', () => partitionedScalingScenario(env, 'pscaleloop'), 120_000);
});
