// Advanced DaemonSet v1beta1 `spec.scaleStrategy.partitionedScaling` on the Lambda path, with the
// DaemonSet CRD as `kruise-serverless install` sets it up (stored as v1beta1, converted by the
// edge). Every reconcile runs in the production Lambda handler, triggered as AWS triggers it: the
// ObjectChanged events the Worker publishes when it admits the DaemonSet or a status change of one
// of its pods, and the SQS wake-ups runs ask for. The user creates it and lowers the partition
// with no sleep and no push in between.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonSetFeature } from '../../src/daemonset/index.js';
import { POD_STATUS_OBSERVER } from '../../src/admission/endpoints.js';
import { applyClusterSide } from '../../src/install/apply.js';
import { renderClusterSide } from '../../src/install/render.js';
import { serverKeepsNameLabel } from '../../src/install/server-version.js';
import { installCrds } from '../../src/kube/crds.js';
import { readCrdManifests } from '../../src/kube/crd-manifests.js';
import { webhookEndpoints } from '../../src/registry.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';
import { caPem } from './support/tls.js';
import { POOL, daemonSetOf, dsOf, live, nodeOf, podsOf } from './support/daemonset.js';

const NAME = 'ds-pscalel';
const DS = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet' } as const;
const DS_CRD = readCrdManifests(join(REPO_ROOT, 'infra', 'crds')).filter((c) => c.metadata?.name === 'daemonsets.apps.kruise.io');
let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv(NAME, [daemonSetFeature], { workerBindings: lambda.bindings });
  // The install with our DaemonSet CRD: conversion through the edge, storage v1beta1.
  const endpoints = webhookEndpoints([daemonSetFeature]);
  const scoped = { namespaceSelector: { matchLabels: { [`e2e.kruise-serverless.io/${NAME}`]: 'yes' } } };
  await applyClusterSide(env.kube, renderClusterSide({
    baseUrl: env.worker.url, clusterId: env.clusterId, secret: env.webhookSecret, caBundle: caPem(), crds: DS_CRD, endpoints,
    overrides: Object.fromEntries(endpoints.filter((e) => e.path.endsWith('-pod') || e.path === POD_STATUS_OBSERVER).map((e) => [e.path, scoped])),
    nameLabelKept: await serverKeepsNameLabel(env.kube),
  }));
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync(); // the install's push: nothing is configured yet
}, 120_000);
afterAll(async () => {
  await env?.kube.delete({ ...DS, metadata: { name: 'partitioned', namespace: env.ns } }).catch(() => undefined);
  await lambda?.close();
  // dispose uninstalls (the conversion back to None); the CRD goes back to the layout later files expect.
  await env?.dispose();
  await installCrds(env.kube, DS_CRD).catch(() => undefined);
});

describe('v1beta1 scaleStrategy.partitionedScaling through the Lambda', () => {
  it('partition 2 of 3 nodes holds creations to one pod (first node by name); partition 0 fills the rest', async () => {
    const nodes = ['ds-pscalel-1', 'ds-pscalel-2', 'ds-pscalel-3'];
    await env.kubelet.addNodes(nodes.map((name) => ({ name, labels: { [POOL]: 'pscalel' } })));
    const obj = daemonSetOf(env.ns, 'partitioned', { pool: 'pscalel', rollingUpdate: { partition: 2 } });
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
    expect(lambda.summaries.some((s) => s.runs.some((r) => r.reconciler === 'DaemonSet' && r.acted && r.applied > 0))).toBe(true);
    await env.kubelet.removeNodes(nodes);
  }, 120_000);
});
