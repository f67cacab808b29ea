// WorkloadSpread on the Lambda path: pods that existed before their WorkloadSpread. Creating it
// publishes a change event; the production Lambda handler adopts the running pods into the subset
// of their node (annotation and, unless the WorkloadSpread says to ignore it, the subset patch's
// metadata) and writes status. Users act with no sleep and no push in between; the one-minute
// schedule never fires. kube-controller-manager runs the ReplicaSets, kube-scheduler binds their
// pods to this file's zone nodes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workloadSpreadFeature } from '../../src/workloadspread/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';

const ZONE = 'topology.kubernetes.io/zone';
const POOL = 'e2e.kruise-serverless.io/wsl-pool';
const MATCHED = 'apps.kruise.io/matched-workloadspread';
const WS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread' } as const;
const NODES = ['zone-a', 'zone-b', 'zone-c'].map((zone) => ({ name: `wsl-${zone}`, labels: { [ZONE]: zone, [POOL]: 'yes' } }));
type SubsetStatus = { name: string; replicas: number };

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('wsl', [workloadSpreadFeature], { workerBindings: lambda.bindings });
  await env.kubelet.addNodes(NODES);
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync(); // the install's push: nothing is configured yet
});
afterAll(async () => {
  await lambda?.close();
  await env?.kubelet.removeNodes(NODES.map((n) => n.name));
  await env?.dispose();
});

const subsetOf = (p: Pod): string => {
  const raw = p.metadata.annotations?.[MATCHED];
  return raw ? (JSON.parse(raw) as { subset: string }).subset : '';
};
const zoneOf = (p: Pod) => NODES.find((n) => n.name === p.spec?.nodeName)?.labels[ZONE] ?? '';
const podsOf = async (app: string) => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${app}` })).items;

describe('WorkloadSpread through the Lambda: pods that existed before it', () => {
  const subsets = NODES.map((n) => n.labels[ZONE]).map((zone) => ({
    name: zone, requiredNodeSelectorTerm: { matchExpressions: [{ key: ZONE, operator: 'In', values: [zone] }] }, patch: { metadata: { labels: { 'spread-zone': zone } } },
  }));

  it.each([
    ['are matched to the subset of their node, with the subset patch\'s metadata', 'legacy', {}, true],
    ['with ignore-patch-existing-pods-metadata: "true", get only the annotation', 'legacy-bare', { 'workloadspread.kruise.io/ignore-patch-existing-pods-metadata': 'true' }, false],
  ])('%s', async (_what, name, annotations, labelled) => {
    await env.kube.create({
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: env.ns },
      spec: { replicas: 3, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { nodeSelector: { [POOL]: 'yes' }, automountServiceAccountToken: false, terminationGracePeriodSeconds: 0, containers: [{ name: 'main', image: 'app:1' }] } } },
    } as KubeObject);
    const before = await eventually(`3 scheduled pods of ${name}`, async () => {
      const pods = await podsOf(name);
      return pods.length === 3 && pods.every((p) => !p.metadata.deletionTimestamp && p.spec?.nodeName) ? pods : undefined;
    }, 60_000, 50);
    expect(before.map(subsetOf)).toEqual(['', '', '']);
    await env.kube.create({ ...WS, metadata: { name, namespace: env.ns, annotations }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name }, subsets } });
    const after = await eventually('every pod adopted', async () => {
      const pods = await podsOf(name);
      return pods.every((p) => subsetOf(p) !== '') ? pods : undefined;
    }, 20_000, 50);
    expect(after.map((p) => p.metadata.name).sort()).toEqual(before.map((p) => p.metadata.name).sort());
    for (const p of after) {
      expect(subsetOf(p)).toBe(zoneOf(p));
      expect(p.metadata.labels?.['spread-zone']).toBe(labelled ? zoneOf(p) : undefined);
    }
    await eventually('status counts the 3', async () => {
      const ws = await env.kube.get<KubeObject & { status?: { subsetStatuses?: SubsetStatus[] } }>(WS.apiVersion, WS.kind, name, env.ns);
      return (ws.status?.subsetStatuses ?? []).reduce((n, s) => n + s.replicas, 0) === 3 ? true : undefined;
    }, 20_000, 50);
    // Its summary is recorded when the handler returns, a moment after its last write is visible.
    await eventually(`a Lambda run of ${name} that wrote`, async () => (lambda.summaries.some((s) => s.runs.some((r) => r.reconciler === 'WorkloadSpread' && r.acted && r.applied > 0 && (r.scope === 'all' || r.scope.includes(`${env.ns}/${name}`)))) ? true : undefined), 10_000, 20)
      .catch((e: unknown) => {
        throw new Error(`${String(e)}\n${JSON.stringify(lambda.summaries.map((s) => ({ trigger: s.trigger, runs: s.runs.map((r) => `${r.reconciler} ${JSON.stringify(r.scope)} acted=${r.acted} applied=${r.applied}`) })))}`);
      });
  });
});
