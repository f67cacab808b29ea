// Pushes late, on the Worker path: our own delay must never block the cluster. The edge's only
// push was listed ten minutes ago (as when the reconciler stopped pushing ten minutes back: the
// pusher's clock is set back instead of the test sleeping), so every collection it pushed is past
// its handlers' limits unless an admission wrote to it since. A SidecarSet applied and a pod
// created at once are still admitted: the SidecarSet validated and the pod injected from the last
// known state, with a warning naming the feature, the collection and its age, and both counted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES, stateCollections } from '../../src/registry.js';
import { pushCollections } from '../../src/edge-state/push.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { trustingFetch } from './support/tls.js';
import './provided.js';

const SS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' };
const TEN_MINUTES = 10 * 60_000;
let env: EdgeEnv;

type Summary = {
  collections: Record<string, { ageMs: number; pushAgeMs: number }>;
  fallbacks: { endpoint: string; feature: string; reason: string; count: number }[];
};

beforeAll(async () => {
  env = await startEdgeEnv('late', FEATURES);
  await pushCollections(env.edge, (v, k, o) => env.kube.list(v, k, o), stateCollections(FEATURES), () => Date.now() - TEN_MINUTES);
});

afterAll(async () => {
  await env?.kube.delete({ ...SS, metadata: { name: 'late-agent' } }).catch(() => undefined);
  await env?.dispose();
});

const summary = async (): Promise<Summary> => {
  const res = await trustingFetch(`${env.worker.url}/clusters/${env.clusterId}/sync`, { headers: { authorization: `Bearer ${env.edge.syncToken}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as Summary;
};

describe('the last push was ten minutes ago', () => {
  it('a SidecarSet, then a pod it selects: validated and injected from the last known state, with a warning, counted', async () => {
    await env.kube.create<KubeObject>({ ...SS, metadata: { name: 'late-agent' }, spec: {
      selector: { matchLabels: { app: 'late' } }, containers: [{ name: 'late-agent', image: 'agent:1' }],
    } });
    const pod = await env.createPod('late-0', { app: 'late' });
    expect((pod.spec?.containers ?? []).map((c) => c.name)).toEqual(['late-agent', 'main']);

    // The warning the API server only logs: the same pod's review sent straight to the edge.
    const body = JSON.stringify({
      apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
      request: {
        uid: 'late-review', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
        namespace: env.ns, operation: 'CREATE', userInfo: { username: 'e2e' }, dryRun: false,
        object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'late-1', namespace: env.ns, labels: { app: 'late' } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } },
      },
    });
    const res = await trustingFetch(`${env.worker.url}/clusters/${env.clusterId}/${env.webhookSecret}/mutate-pod`, { method: 'POST', body });
    const { response } = (await res.json()) as { response: { allowed: boolean; patch?: string; warnings?: string[] } };
    expect(response.allowed).toBe(true);
    expect(Buffer.from(response.patch ?? '', 'base64').toString()).toContain('late-agent');
    expect(response.warnings).toContainEqual(expect.stringMatching(/^sidecarset: answered from the last known state: state collection "namespaces" is stale \(6\d\d(\.\d)?s old, limit 180s\)/));

    const after = await summary();
    // The SidecarSet's write-through made its collection current; the namespaces were only pushed.
    expect(after.collections.sidecarsets!.ageMs).toBeLessThan(TEN_MINUTES / 2);
    expect(after.collections.sidecarsets!.pushAgeMs).toBeGreaterThanOrEqual(TEN_MINUTES);
    expect(after.collections.namespaces!.ageMs).toBeGreaterThanOrEqual(TEN_MINUTES);
    expect(after.fallbacks).toContainEqual({ endpoint: 'validate-kruise', feature: 'sidecarset', reason: 'stale', count: 1 });
    expect(after.fallbacks).toContainEqual(expect.objectContaining({ endpoint: 'mutate-pod', feature: 'sidecarset', reason: 'stale' }));
    expect(after.fallbacks.find((f) => f.endpoint === 'mutate-pod' && f.feature === 'sidecarset')!.count).toBeGreaterThanOrEqual(2);
  });
});
