// What the partitionedScaling e2e files share: the install with our DaemonSet CRD (stored as
// v1beta1, converted by the edge, as `kruise-serverless install` sets it up), its undoing, and the
// scenario both triggered paths (the Node loop, the Lambda handler) run.
import { join } from 'node:path';
import { expect } from 'vitest';
import { daemonSetFeature } from '../../../src/daemonset/index.js';
import { POD_STATUS_OBSERVER } from '../../../src/admission/endpoints.js';
import { applyClusterSide } from '../../../src/install/apply.js';
import { renderClusterSide } from '../../../src/install/render.js';
import { serverKeepsNameLabel } from '../../../src/install/server-version.js';
import { installCrds } from '../../../src/kube/crds.js';
import { readCrdManifests } from '../../../src/kube/crd-manifests.js';
import { webhookEndpoints } from '../../../src/registry.js';
import { REPO_ROOT } from '../../cluster/control-plane.js';
import type { EdgeEnv } from './edge-env.js';
import { eventually } from './kube.js';
import { caPem } from './tls.js';
import { POOL, daemonSetOf, dsOf, live, nodeOf, podsOf } from './daemonset.js';

export const DS_V1BETA1 = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet' } as const;
const DS_CRD = readCrdManifests(join(REPO_ROOT, 'infra', 'crds')).filter((c) => c.metadata?.name === 'daemonsets.apps.kruise.io');

/** Installs our DaemonSet CRD and the DaemonSet webhooks, pod endpoints scoped to this file's namespace. */
export async function installDaemonSetThroughEdge(env: EdgeEnv, name: string): Promise<void> {
  const endpoints = webhookEndpoints([daemonSetFeature]);
  const scoped = { namespaceSelector: { matchLabels: { [`e2e.kruise-serverless.io/${name}`]: 'yes' } } };
  await applyClusterSide(env.kube, renderClusterSide({
    baseUrl: env.worker.url, clusterId: env.clusterId, secret: env.webhookSecret, caBundle: caPem(), crds: DS_CRD, endpoints,
    overrides: Object.fromEntries(endpoints.filter((e) => e.path.endsWith('-pod') || e.path === POD_STATUS_OBSERVER).map((e) => [e.path, scoped])),
    nameLabelKept: await serverKeepsNameLabel(env.kube),
  }));
}

/** After `env.dispose()` (which uninstalls: the conversion back to None): the CRD as later files expect it. */
export const restoreDaemonSetCrd = (env: EdgeEnv) => installCrds(env.kube, DS_CRD).catch(() => undefined);

export const deletePartitioned = (env: EdgeEnv) =>
  env.kube.delete({ ...DS_V1BETA1, metadata: { name: 'partitioned', namespace: env.ns } }).catch(() => undefined);

/** Partition 2 of 3 nodes holds creations to one pod (first node by name); partition 0 fills the rest. */
export async function partitionedScalingScenario(env: EdgeEnv, pool: string): Promise<void> {
  const nodes = [1, 2, 3].map((i) => `ds-${pool}-${i}`);
  await env.kubelet.addNodes(nodes.map((name) => ({ name, labels: { [POOL]: pool } })));
  const obj = daemonSetOf(env.ns, 'partitioned', { pool, rollingUpdate: { partition: 2 } });
  await env.kube.create({ ...obj, apiVersion: DS_V1BETA1.apiVersion, spec: { ...obj.spec, scaleStrategy: { partitionedScaling: true } } });
  await eventually('status: 3 desired, 1 scheduled', async () => {
    const st = (await dsOf(env.kube, env.ns, 'partitioned')).status;
    return st?.desiredNumberScheduled === 3 && st.currentNumberScheduled === 1 ? st : undefined;
  }, 30_000, 50);
  expect(live(await podsOf(env.kube, env.ns, 'partitioned')).map(nodeOf)).toEqual([nodes[0]]);
  await env.kube.patch({ ...DS_V1BETA1, metadata: { name: 'partitioned', namespace: env.ns } }, { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } });
  const all = await eventually('a pod on every node', async () => {
    const ps = live(await podsOf(env.kube, env.ns, 'partitioned'));
    return ps.length === 3 ? ps : undefined;
  }, 30_000, 50);
  expect(all.map(nodeOf).sort()).toEqual(nodes);
  await env.kubelet.removeNodes(nodes);
}
