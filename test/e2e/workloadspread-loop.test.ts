// WorkloadSpread through the Node loop (watches as triggers, the full resync set to an hour so
// nothing here waits for it; the edge's ledgers through its API): pods that existed before their
// WorkloadSpread are adopted into the subset of their node (annotation and, unless the
// WorkloadSpread says to ignore it, the subset patch's metadata) and counted in status. Users act
// with no sleep and no push in between. kube-controller-manager runs the ReplicaSets,
// kube-scheduler binds their pods to this file's zone nodes.
// (test/e2e/workloadspread.test.ts checks the same with `reconcile --once` run between the steps.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workloadSpreadFeature } from '../../src/workloadspread/index.js';
import { workloadSpreadReconciler } from '../../src/workloadspread/controller/reconciler.js';
import { remoteLedgers } from '../../src/edge-state/ledger-client.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { eventually } from './support/kube.js';

const ZONE = 'topology.kubernetes.io/zone';
const POOL = 'e2e.kruise-serverless.io/wsloop-pool';
const MATCHED = 'apps.kruise.io/matched-workloadspread';
const WS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread' } as const;
const NODES = ['zone-a', 'zone-b', 'zone-c'].map((zone) => ({ name: `wsloop-${zone}`, labels: { [ZONE]: zone, [POOL]: 'yes' } }));
type SubsetStatus = { name: string; replicas: number };

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;
/** Every run's report, in order. */
const reports: { scope: string; applied: number }[] = [];

beforeAll(async () => {
  env = await startEdgeEnv('wsloop', [workloadSpreadFeature]);
  await env.kubelet.addNodes(NODES);
  await env.resync(); // the install's push: nothing is configured yet
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [workloadSpreadReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: async (r, scope) => {
      const report = await runReconciler(env.kube, r, { scope, identity: `wsloop-${scope.kind}`, ledgers: remoteLedgers(env.edge) });
      reports.push({ scope: scope.kind === 'all' ? 'all' : scope.objects.map((o) => `${o.namespace}/${o.name}`).join(','), applied: report.applied });
      return report;
    },
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.kubelet.removeNodes(NODES.map((n) => n.name));
  await env?.dispose();
});

const subsetOf = (p: Pod): string => {
  const raw = p.metadata.annotations?.[MATCHED];
  return raw ? (JSON.parse(raw) as { subset: string }).subset : '';
};
const zoneOf = (p: Pod) => NODES.find((n) => n.name === p.spec?.nodeName)?.labels[ZONE] ?? '';
const podsOf = async (app: string) => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${app}` })).items;

describe('WorkloadSpread through the Node loop: pods that existed before it', () => {
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
    expect(reports.some((r) => r.applied > 0 && r.scope.split(',').includes(`${env.ns}/${name}`))).toBe(true);
  });
});
