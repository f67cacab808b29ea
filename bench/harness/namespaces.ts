// The cluster state the real path reads: a namespaces collection of a mid-sized cluster, pushed
// through the sync API exactly as a reconciler would (Node: into a MemoryStateStore; Worker:
// into the cluster's Durable Object).
import { pushCollections, type EdgeTarget } from '../../src/edge-state/push.js';
import type { Lister } from '../../src/edge-state/live-state.js';
import { NAMESPACES } from '../../test/e2e/fixtures/stamp-feature.js';
import { BENCH_NAMESPACE } from './pod-review.js';

export const NAMESPACE_COUNT = 200;
export const BENCH_TEAM = 'payments-core';

function namespace(name: string, i: number): Record<string, unknown> {
  const team = name === BENCH_NAMESPACE ? BENCH_TEAM : `team-${i % 17}`;
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      resourceVersion: String(1000 + i),
      labels: { 'kubernetes.io/metadata.name': name, team, env: i % 3 ? 'prod' : 'staging' },
      annotations: { 'scheduler.alpha.kubernetes.io/node-selector': 'node.kubernetes.io/pool=general' },
    },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Active' },
  };
}

const listNamespaces: Lister = async () => ({
  resourceVersion: '5000',
  items: [BENCH_NAMESPACE, ...Array.from({ length: NAMESPACE_COUNT - 1 }, (_, i) => `ns-${i}`)].map(namespace),
});

/** Pushes the namespaces collection; throws if the edge did not take all of it. */
export async function pushNamespaces(edge: EdgeTarget): Promise<void> {
  const [result] = await pushCollections(edge, listNamespaces, [NAMESPACES]);
  if (result?.meta.count !== NAMESPACE_COUNT) throw new Error(`namespaces push: edge holds ${result?.meta.count} of ${NAMESPACE_COUNT}`);
}
