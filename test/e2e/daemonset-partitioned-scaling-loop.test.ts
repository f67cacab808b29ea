// Advanced DaemonSet v1beta1 `spec.scaleStrategy.partitionedScaling` through the Node loop (watches
// as triggers, the full resync set to an hour so nothing here waits for it), with the DaemonSet CRD
// as `kruise-serverless install` sets it up: stored as v1beta1 and converted by the edge. The user
// creates it and lowers the partition with no sleep and no push in between.
// (test/e2e/daemonset-partitioned-scaling.test.ts runs the controller by hand, several times over.)
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonSetFeature } from '../../src/daemonset/index.js';
import { daemonSetReconciler } from '../../src/daemonset/controller/reconciler.js';
import { POD_STATUS_OBSERVER } from '../../src/admission/endpoints.js';
import { applyClusterSide } from '../../src/install/apply.js';
import { renderClusterSide } from '../../src/install/render.js';
import { serverKeepsNameLabel } from '../../src/install/server-version.js';
import { installCrds } from '../../src/kube/crds.js';
import { readCrdManifests } from '../../src/kube/crd-manifests.js';
import { webhookEndpoints } from '../../src/registry.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { eventually } from './support/kube.js';
import { caPem } from './support/tls.js';
import { POOL, daemonSetOf, dsOf, live, nodeOf, podsOf } from './support/daemonset.js';

const NAME = 'ds-pscaleloop';
const DS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet' } as const;
const DS_CRD = readCrdManifests(join(REPO_ROOT, 'infra', 'crds')).filter((c) => c.metadata?.name === 'daemonsets.apps.kruise.io');
let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;

beforeAll(async () => {
  env = await startEdgeEnv(NAME, [daemonSetFeature]);
  // The install with our DaemonSet CRD: conversion through the edge, storage v1beta1.
  const endpoints = webhookEndpoints([daemonSetFeature]);
  const scoped = { namespaceSelector: { matchLabels: { [`e2e.kruise-serverless.io/${NAME}`]: 'yes' } } };
  await applyClusterSide(env.kube, renderClusterSide({
    baseUrl: env.worker.url, clusterId: env.clusterId, secret: env.webhookSecret, caBundle: caPem(), crds: DS_CRD, endpoints,
    overrides: Object.fromEntries(endpoints.filter((e) => e.path.endsWith('-pod') || e.path === POD_STATUS_OBSERVER).map((e) => [e.path, scoped])),
    nameLabelKept: await serverKeepsNameLabel(env.kube),
  }));
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [daemonSetReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `${NAME}-${scope.kind}` }),
  });
}, 120_000);
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.kube.delete({ ...DS, metadata: { name: 'partitioned', namespace: env.ns } }).catch(() => undefined);
  // dispose uninstalls (the conversion back to None); the CRD goes back to the layout later files expect.
  await env?.dispose();
  await installCrds(env.kube, DS_CRD).catch(() => undefined);
});

describe('v1beta1 scaleStrategy.partitionedScaling through the Node loop', () => {
  it('partition 2 of 3 nodes holds creations to one pod (first node by name); partition 0 fills the rest', async () => {
    const nodes = ['ds-pscaleloop-1', 'ds-pscaleloop-2', 'ds-pscaleloop-3'];
    await env.kubelet.addNodes(nodes.map((name) => ({ name, labels: { [POOL]: 'pscaleloop' } })));
    const obj = daemonSetOf(env.ns, 'partitioned', { pool: 'pscaleloop', rollingUpdate: { partition: 2 } });
    await env.kube.create({ ...obj, apiVersion: DS.apiVersion, spec: { ...obj.spec, scaleStrategy: { partitionedScaling: true } } });
    await eventually('status: 3 desired, 1 scheduled', async () => {
      const st = (await dsOf(env.kube, env.ns, 'partitioned')).status;
      return st?.desiredNumberScheduled === 3 && st.currentNumberScheduled === 1 ? st : undefined;
    }, 30_000, 50);
    expect(live(await podsOf(env.kube, env.ns, 'partitioned')).map(nodeOf)).toEqual([nodes[0]]);
    await env.kube.patch({ ...DS, metadata: { name: 'partitioned', namespace: env.ns } }, { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
    const all = await eventually('a pod on every node', async () => {
      const ps = live(await podsOf(env.kube, env.ns, 'partitioned'));
      return ps.length === 3 ? ps : undefined;
    }, 30_000, 50);
    expect(all.map(nodeOf).sort()).toEqual(nodes);
    await env.kubelet.removeNodes(nodes);
  }, 120_000);
});
