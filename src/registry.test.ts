import { describe, expect, it } from 'vitest';
import type { ClusterState, Snapshot } from './edge-state/contracts.js';
import { FeatureGateError } from './reconcile/feature-gates.js';
import { FEATURES, featureExplainers, featuresFromEnv } from './registry.js';
import { NAMESPACES_COLLECTION, SIDECARSETS_COLLECTION, SIDECARSET_REVISIONS_COLLECTION } from './sidecarset/collections.js';
import { defaultSidecarSet } from './sidecarset/defaults.js';
import type { SidecarSet } from './sidecarset/types.js';

const set = (name: string, container: string): SidecarSet =>
  defaultSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet',
    metadata: { name, annotations: { 'kruise.io/sidecarset-hash': `h-${name}`, 'kruise.io/sidecarset-hash-without-image': `w-${name}` } },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: container, image: `${container}:1` }] },
  } as SidecarSet);

const snap = (items: unknown[]): Snapshot<unknown> => ({ items, resourceVersion: '1', observedAt: 1_000 });
const state: ClusterState = {
  collection: async <T>(name: string) => {
    const all: Record<string, unknown[]> = { [SIDECARSETS_COLLECTION]: [set('b', 'zeta'), set('a', 'beta')], [NAMESPACES_COLLECTION]: [{ metadata: { name: 'prod' } }], [SIDECARSET_REVISIONS_COLLECTION]: [] };
    return all[name] ? (snap(all[name]) as Snapshot<T>) : undefined;
  },
};
const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'prod', labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } };

async function injectedOrder(env: Record<string, string | undefined>): Promise<unknown> {
  const explain = featureExplainers(featuresFromEnv(env)).sidecarset!;
  const r = await explain(pod, state, { clusterId: 'c', now: 5_000 });
  return (r.body as { containers?: string[] }).containers ?? r.body;
}

describe('featuresFromEnv: KS_FEATURE_GATES reaches the webhooks', () => {
  it('unset: the default list; EnableSortSidecarContainerByName=true: injected sidecars sorted by name', async () => {
    expect(featuresFromEnv({})).toBe(FEATURES);
    expect(await injectedOrder({})).toEqual(['zeta', 'beta', 'main']);
    expect(await injectedOrder({ KS_FEATURE_GATES: 'EnableSortSidecarContainerByName=true' })).toEqual(['beta', 'zeta', 'main']);
  });

  it('a bad gate is a clear error', () => {
    expect(() => featuresFromEnv({ KS_FEATURE_GATES: 'EnableSortSidecarContainerByName=yes' })).toThrow(FeatureGateError);
  });
});
