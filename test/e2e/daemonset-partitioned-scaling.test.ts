// Advanced DaemonSet v1beta1 `spec.scaleStrategy.partitionedScaling` on a real API server, with the
// DaemonSet CRD as `kruise-serverless install` sets it up: stored as v1beta1 and converted by the
// edge (a CRD without the edge stores v1alpha1, whose schema has no scaleStrategy, so the API
// server drops the field there). The controller runs through the Node path's runner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonSetFeature } from '../../src/daemonset/index.js';
import { daemonSetReconciler } from '../../src/daemonset/controller/reconciler.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { eventually } from './support/kube.js';
import { deletePartitioned, installDaemonSetThroughEdge, restoreDaemonSetCrd } from './support/daemonset-partitioned.js';
import { POOL, daemonSetOf, live, nodeOf, podsOf } from './support/daemonset.js';

const NAME = 'ds-pscale';
let env: EdgeEnv;

beforeAll(async () => {
  env = await startEdgeEnv(NAME, [daemonSetFeature]);
  await installDaemonSetThroughEdge(env, NAME);
}, 120_000);
afterAll(async () => {
  await deletePartitioned(env);
  await env?.dispose();
  await restoreDaemonSetCrd(env);
});

describe('v1beta1 scaleStrategy.partitionedScaling', () => {
  it('partition 2 of 3 nodes holds creations to one pod (first node by name); partition 0 fills the rest', async () => {
    const nodes = ['ds-pscale-1', 'ds-pscale-2', 'ds-pscale-3'];
    await env.kubelet.addNodes(nodes.map((name) => ({ name, labels: { [POOL]: 'pscale' } })));
    const obj = daemonSetOf(env.ns, 'partitioned', { pool: 'pscale', rollingUpdate: { partition: 2 } });
    await env.kube.create({ ...obj, apiVersion: 'apps.kruise.io/v1beta1', spec: { ...obj.spec, scaleStrategy: { partitionedScaling: true } } });
    const run = async () => {
      const report = await runReconciler(env.kube, daemonSetReconciler, { scope: { kind: 'objects', objects: [{ namespace: env.ns, name: 'partitioned' }] }, identity: NAME });
      expect(JSON.stringify(report.failed)).toBe('[]');
    };
    // Several runs: a run that held creations back must keep holding them.
    for (let i = 0; i < 3; i++) await run();
    const held = await eventually('one pod', async () => {
      const ps = live(await podsOf(env.kube, env.ns, 'partitioned'));
      return ps.length === 1 ? ps : undefined;
    });
    expect(held.map(nodeOf)).toEqual([nodes[0]]);
    await env.kube.patch({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', metadata: { name: 'partitioned', namespace: env.ns } }, { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    await run();
    const all = await eventually('a pod on every node', async () => {
      const ps = live(await podsOf(env.kube, env.ns, 'partitioned'));
      return ps.length === 3 ? ps : undefined;
    });
    expect(all.map(nodeOf).sort()).toEqual(nodes);
  }, 120_000);
});
