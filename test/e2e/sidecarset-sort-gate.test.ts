// OpenKruise's EnableSortSidecarContainerByName feature gate at the edge, on a real API server: the
// production Worker started with KS_FEATURE_GATES=EnableSortSidecarContainerByName=true injects a
// SidecarSet's containers sorted by name, where with the gate off (OpenKruise's default,
// test/e2e/sidecarset.test.ts) they keep the SidecarSet's order. The SidecarSet and the pod are
// created one after the other, with no push between (the Worker answers from what it admitted).
// Decided at the edge only: no reconciler is involved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { featuresFor } from '../../src/registry.js';
import { parseFeatureGates } from '../../src/reconcile/feature-gates.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';

const GATES = 'EnableSortSidecarContainerByName=true';
let env: EdgeEnv;

beforeAll(async () => {
  // The install registers the endpoints of the features the Worker serves with the same gates.
  const features = featuresFor(parseFeatureGates(GATES)).filter((f) => f.name === 'sidecarset');
  env = await startEdgeEnv('scsort', features, { workerBindings: { KS_FEATURE_GATES: GATES } });
  await env.resync(); // the install's push: nothing is configured yet
});
afterAll(async () => {
  await env?.dispose();
});

describe('EnableSortSidecarContainerByName=true on the Worker', () => {
  it('a SidecarSet listing zeta-proxy before beta-proxy: its pod gets beta-proxy, zeta-proxy, then its own container', async () => {
    await env.kube.create({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'scsort' },
      spec: { selector: { matchLabels: { app: 'scsort' } }, namespace: env.ns, containers: [{ name: 'zeta-proxy', image: 'proxy:1' }, { name: 'beta-proxy', image: 'proxy:1' }] },
    });
    try {
      const pod = await env.createPod('scsort-pod', { app: 'scsort' });
      expect(pod.spec?.containers.map((c) => c.name)).toEqual(['beta-proxy', 'zeta-proxy', 'main']);
    } finally {
      await env.kube.delete({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', metadata: { name: 'scsort' } }).catch(() => undefined);
    }
  });
});
