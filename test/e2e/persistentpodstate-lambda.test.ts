// PersistentPodState on the Lambda path: creating it publishes a change event, the production
// Lambda handler records the zone of the StatefulSet's ready pod, the status write reaches the
// edge through the observer, and the recreated pod is steered back. A StatefulSet created with the
// auto-generate annotations gets its PersistentPodState from the StatefulSet's change event, and its
// pod is recorded once ready from the pod's status change event. No resync between the steps.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { persistentPodStateFeature } from '../../src/persistentpodstate/index.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';
import { DEBOUNCE_WINDOW_MS } from '../../src/edge-state/debounce.js';

const ZONE = 'e2e.kruise-serverless.io/zone';
const NODES: Record<string, string> = { 'ppsl-node-a': 'zone-a', 'ppsl-node-b': 'zone-b' };
type State = KubeObject & { metadata: { ownerReferences?: { kind?: string; name?: string; controller?: boolean }[] }; spec?: Record<string, unknown>; status?: { podStates?: Record<string, { nodeName?: string; nodeTopologyLabels?: Record<string, string> }> } };

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('ppsl', [persistentPodStateFeature], { workerBindings: lambda.bindings });
  for (const [name, zone] of Object.entries(NODES)) await env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name } }, { metadata: { labels: { [ZONE]: zone } } });
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync();
});
afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

describe('PersistentPodState through the Lambda', () => {
  it('created next to a running StatefulSet: records its pod, and the recreated pod is required back', async () => {
    await env.kube.create({
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: env.ns },
      spec: { replicas: 1, serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { automountServiceAccountToken: false, terminationGracePeriodSeconds: 0, containers: [{ name: 'main', image: 'app:1' }] } } },
    } as KubeObject);
    await env.waitReady(['db-0']);
    await env.kube.create({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PersistentPodState', metadata: { name: 'db', namespace: env.ns }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' }, requiredPersistentTopology: { nodeTopologyKeys: [ZONE] } } } as KubeObject);
    const rec = await eventually('db-0 recorded', async () => {
      const s = (await env.kube.get<State>('apps.kruise.io/v1alpha1', 'PersistentPodState', 'db', env.ns)).status?.podStates?.['db-0'];
      return s?.nodeTopologyLabels?.[ZONE] ? s : undefined;
    }, 20_000, 50);
    const old = await env.kube.get<Pod>('v1', 'Pod', 'db-0', env.ns);
    await env.kube.delete({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'db-0', namespace: env.ns } }, { gracePeriodSeconds: 0 });
    const again = await eventually('db-0 recreated', async () => {
      const p = await env.kube.get<Pod>('v1', 'Pod', 'db-0', env.ns).catch(() => undefined);
      return p && p.metadata.uid !== old.metadata.uid ? p : undefined;
    });
    expect(again.spec?.nodeSelector).toEqual({ [ZONE]: NODES[rec.nodeName!] });
  });

  it('scaled out: the new pod is recorded once it gets ready, from its status change event, after every earlier run is over', async () => {
    // db-1 starts unready (its readiness probe, say): the runs of the scale's event and of its
    // start see it unready, and are over, before it gets ready. Only its readiness can bring the record.
    env.kubelet.setReady(env.ns, 'db-1', false);
    await env.kube.patch({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: env.ns } }, { spec: { replicas: 2 } });
    await eventually('db-1 running unready, every event handled, none held', async () => {
      const p = await env.kube.get<Pod>('v1', 'Pod', 'db-1', env.ns).catch(() => undefined);
      const last = Math.max(0, ...lambda.received.map((e) => e.at));
      const handled = lambda.received.every((e) => lambda.finished.some((f) => f.summary.eventId === e.id));
      return p?.status?.phase === 'Running' && Date.now() - last > DEBOUNCE_WINDOW_MS && handled ? true : undefined;
    }, 20_000, 20);
    const state = async () => (await env.kube.get<State>('apps.kruise.io/v1alpha1', 'PersistentPodState', 'db', env.ns)).status?.podStates?.['db-1'];
    expect(await state()).toBeUndefined();
    env.kubelet.setReady(env.ns, 'db-1', true);
    const rec = await eventually('db-1 recorded', async () => {
      const s = await state();
      return s?.nodeTopologyLabels?.[ZONE] ? s : undefined;
    }, 20_000, 50);
    expect(rec.nodeTopologyLabels).toEqual({ [ZONE]: NODES[rec.nodeName!] });
    expect(lambda.received.some((e) => e.detail.kind === 'StatefulSet' && e.detail.name === 'db' && e.detail.reason === 'pod-status')).toBe(true);
  });

  it('auto-generated from a StatefulSet\'s annotations: its pod recorded once ready, and the recreated pod preferred back', async () => {
    await env.kube.create({
      apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'cache', namespace: env.ns, annotations: { 'kruise.io/auto-generate-persistent-pod-state': 'true', 'kruise.io/preferred-persistent-topology': ZONE } },
      spec: { replicas: 1, serviceName: 'cache', selector: { matchLabels: { app: 'cache' } }, template: { metadata: { labels: { app: 'cache' } }, spec: { automountServiceAccountToken: false, terminationGracePeriodSeconds: 0, containers: [{ name: 'main', image: 'app:1' }] } } },
    } as KubeObject);
    const state = () => env.kube.get<State>('apps.kruise.io/v1alpha1', 'PersistentPodState', 'cache', env.ns).catch(() => undefined);
    const generated = await eventually('cache\'s PersistentPodState', state, 20_000, 50);
    expect(generated.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'StatefulSet', name: 'cache', controller: true })]);
    expect(generated.spec).toEqual({ targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'cache' }, preferredPersistentTopology: [{ weight: 100, preference: { nodeTopologyKeys: [ZONE] } }] });
    const rec = await eventually('cache-0 recorded', async () => {
      const s = (await state())?.status?.podStates?.['cache-0'];
      return s?.nodeTopologyLabels?.[ZONE] ? s : undefined;
    }, 20_000, 50);
    expect(lambda.received.some((e) => e.detail.kind === 'StatefulSet' && e.detail.name === 'cache' && e.detail.reason === 'pod-status')).toBe(true);
    const old = await env.kube.get<Pod>('v1', 'Pod', 'cache-0', env.ns);
    await env.kube.delete({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'cache-0', namespace: env.ns } }, { gracePeriodSeconds: 0 });
    const again = await eventually('cache-0 recreated', async () => {
      const p = await env.kube.get<Pod>('v1', 'Pod', 'cache-0', env.ns).catch(() => undefined);
      return p && p.metadata.uid !== old.metadata.uid ? p : undefined;
    });
    expect(again.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution).toEqual([{ weight: 100, preference: { matchExpressions: [{ key: ZONE, operator: 'In', values: [NODES[rec.nodeName!]] }] } }]);
  });
});
