// The scenario both paths run (the Node loop, the Lambda handler): pods that existed before their
// WorkloadSpread are adopted into the subset of their node (annotation and, unless the
// WorkloadSpread says to ignore it, the subset patch's metadata) and counted in status. Users act
// with no sleep and no push in between. kube-controller-manager runs the ReplicaSets,
// kube-scheduler binds their pods to the zone nodes.
import { expect, it } from 'vitest';
import type { KubeObject } from '../../../src/kube/http.js';
import type { EdgeEnv, Pod } from './edge-env.js';
import { eventually } from './kube.js';

const ZONE = 'topology.kubernetes.io/zone';
const MATCHED = 'apps.kruise.io/matched-workloadspread';
const WS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread' } as const;
type SubsetStatus = { name: string; replicas: number };

/** Three zone nodes in their own pool, named `<prefix>-zone-x`. */
export function zoneNodes(prefix: string) {
  const pool = `e2e.kruise-serverless.io/${prefix}-pool`;
  return { pool, nodes: ['zone-a', 'zone-b', 'zone-c'].map((zone) => ({ name: `${prefix}-${zone}`, labels: { [ZONE]: zone, [pool]: 'yes' } })) };
}

/**
 * Registers the two cases. `env` is read when a case runs (set up in beforeAll); `ranFor(name)`
 * checks that a run of the path under test wrote for that WorkloadSpread.
 */
export function existingPodsCases(prefix: string, env: () => EdgeEnv, ranFor: (name: string) => Promise<void>): void {
  const { pool, nodes } = zoneNodes(prefix);
  const subsetOf = (p: Pod): string => {
    const raw = p.metadata.annotations?.[MATCHED];
    return raw ? (JSON.parse(raw) as { subset: string }).subset : '';
  };
  const zoneOf = (p: Pod) => nodes.find((n) => n.name === p.spec?.nodeName)?.labels[ZONE] ?? '';
  const podsOf = async (app: string) => (await env().kube.list<Pod>('v1', 'Pod', { namespace: env().ns, labelSelector: `app=${app}` })).items;
  const subsets = nodes.map((n) => n.labels[ZONE]).map((zone) => ({
    name: zone, requiredNodeSelectorTerm: { matchExpressions: [{ key: ZONE, operator: 'In', values: [zone] }] }, patch: { metadata: { labels: { 'spread-zone': zone } } },
  }));

  it.each([
    ['are matched to the subset of their node, with the subset patch\'s metadata', 'legacy', {}, true],
    ['with ignore-patch-existing-pods-metadata: "true", get only the annotation', 'legacy-bare', { 'workloadspread.kruise.io/ignore-patch-existing-pods-metadata': 'true' }, false],
  ])('%s', async (_what, name, annotations, labelled) => {
    const { kube, ns } = env();
    await kube.create({
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name, namespace: ns },
      spec: { replicas: 3, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { nodeSelector: { [pool]: 'yes' }, automountServiceAccountToken: false, terminationGracePeriodSeconds: 0, containers: [{ name: 'main', image: 'app:1' }] } } },
    } as KubeObject);
    const before = await eventually(`3 scheduled pods of ${name}`, async () => {
      const pods = await podsOf(name);
      return pods.length === 3 && pods.every((p) => !p.metadata.deletionTimestamp && p.spec?.nodeName) ? pods : undefined;
    }, 60_000, 50);
    expect(before.map(subsetOf)).toEqual(['', '', '']);
    await kube.create({ ...WS, metadata: { name, namespace: ns, annotations }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name }, subsets } });
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
      const ws = await kube.get<KubeObject & { status?: { subsetStatuses?: SubsetStatus[] } }>(WS.apiVersion, WS.kind, name, ns);
      return (ws.status?.subsetStatuses ?? []).reduce((n, s) => n + s.replicas, 0) === 3 ? true : undefined;
    }, 20_000, 50);
    await ranFor(name);
  });
}
