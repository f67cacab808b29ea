// PersistentPodState end to end on a real API server: a native StatefulSet run by the
// controller-manager, pods scheduled by the scheduler onto the fake kubelet's two nodes (one zone
// label each), the pod webhook on the production Worker reading the PersistentPodStates the edge
// holds (kept current by the observer of their status writes), and the reconciler through the
// Node loop. Users' steps follow each other with no sleep; tests wait with `eventually`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { persistentPodStateFeature } from '../../src/persistentpodstate/index.js';
import { persistentPodStateReconciler } from '../../src/persistentpodstate/controller/reconciler.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import type { Reconciler } from '../../src/reconcile/types.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { attempt, eventually } from './support/kube.js';

const PPS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PersistentPodState' } as const;
const ZONE = 'e2e.kruise-serverless.io/zone';
const NODES = { 'pps-node-a': 'zone-a', 'pps-node-b': 'zone-b' } as Record<string, string>;
type State = KubeObject & { metadata: { name: string; ownerReferences?: { kind?: string; name?: string; controller?: boolean }[] }; spec: Record<string, unknown>; status?: { podStates?: Record<string, { nodeName?: string; nodeTopologyLabels?: Record<string, string> }> } };

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;

beforeAll(async () => {
  env = await startEdgeEnv('pps', [persistentPodStateFeature]);
  for (const [name, zone] of Object.entries(NODES)) await env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name } }, { metadata: { labels: { [ZONE]: zone } } });
  await env.resync();
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [persistentPodStateReconciler] as Reconciler[], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `pps-loop-${r.kind}-${scope.kind}` }),
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.dispose();
});

const statefulSet = (name: string, annotations: Record<string, string> = {}) => env.kube.create({
  apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name, namespace: env.ns, annotations },
  spec: {
    replicas: 1, serviceName: name, selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { automountServiceAccountToken: false, terminationGracePeriodSeconds: 0, containers: [{ name: 'main', image: 'app:1' }] } },
  },
});
const state = (name: string) => env.kube.get<State>(PPS.apiVersion, PPS.kind, name, env.ns).catch(() => undefined);
const pod = (name: string) => env.kube.get<Pod>('v1', 'Pod', name, env.ns).catch(() => undefined);
const recorded = (pps: string, podName: string) =>
  eventually(`${pps} records ${podName}`, async () => {
    const s = (await state(pps))?.status?.podStates?.[podName];
    return s?.nodeTopologyLabels?.[ZONE] ? s : undefined;
  });

describe('PersistentPodState', () => {
  it('records the zone of a ready pod; the recreated pod is required back into it', async () => {
    await statefulSet('db');
    await env.kube.create({ ...PPS, metadata: { name: 'db-state', namespace: env.ns }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' }, requiredPersistentTopology: { nodeTopologyKeys: [ZONE] } } });
    const first = await recorded('db-state', 'db-0');
    expect(first.nodeTopologyLabels).toEqual({ [ZONE]: NODES[first.nodeName!] });
    const old = await pod('db-0');
    await env.kube.delete({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'db-0', namespace: env.ns } }, { gracePeriodSeconds: 0 });
    const again = await eventually('db-0 recreated', async () => {
      const p = await pod('db-0');
      return p && p.metadata.uid !== old?.metadata.uid ? p : undefined;
    });
    expect(again.spec?.nodeSelector).toEqual({ [ZONE]: NODES[first.nodeName!] });
    expect(again.metadata.annotations?.['kruise.io/injected-persistent-pod-state']).toBe('db-state');
  });

  it('auto-generated from the StatefulSet\'s annotations, with a preferred term', async () => {
    await statefulSet('cache', { 'kruise.io/auto-generate-persistent-pod-state': 'true', 'kruise.io/preferred-persistent-topology': ZONE });
    const generated = await eventually('cache\'s PersistentPodState', () => state('cache'));
    expect(generated.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'StatefulSet', name: 'cache', controller: true })]);
    expect(generated.spec).toEqual({ targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'cache' }, preferredPersistentTopology: [{ weight: 100, preference: { nodeTopologyKeys: [ZONE] } }] });
    const first = await recorded('cache', 'cache-0');
    const old = await pod('cache-0');
    await env.kube.delete({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'cache-0', namespace: env.ns } }, { gracePeriodSeconds: 0 });
    const again = await eventually('cache-0 recreated', async () => {
      const p = await pod('cache-0');
      return p && p.metadata.uid !== old?.metadata.uid ? p : undefined;
    });
    expect(again.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution).toEqual([{ weight: 100, preference: { matchExpressions: [{ key: ZONE, operator: 'In', values: [NODES[first.nodeName!]] }] } }]);
  });

  it('refuses a second PersistentPodState on the same workload, and one without a topology', async () => {
    expect(await attempt(env.kube.create({ ...PPS, metadata: { name: 'db-twice', namespace: env.ns }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' }, requiredPersistentTopology: { nodeTopologyKeys: [ZONE] } } }))).toContain('targetReference is in conflict with other PersistentPodState db-state');
    expect(await attempt(env.kube.create({ ...PPS, metadata: { name: 'bare', namespace: env.ns }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'x' } } }))).toContain('TopologyConstraint and TopologyPreference cannot be empty at the same time');
  });
});
