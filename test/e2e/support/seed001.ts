// Seed 001's maxSurge 20% / maxUnavailable 0 / partition 3 rollout on 5 replicas, checked the same
// way whichever path drives the controller (Node loop or Lambda).
import { expect } from 'vitest';

type PodLike = { metadata: { uid?: string }; spec?: { containers: { image?: string }[] } };
const imageOf = (p: PodLike) => p.spec?.containers[0]?.image;

/**
 * At partition 3 after the image change to nginx:1.25: one surge pod at most (6 alive), never
 * fewer than 5 ready, 3 pods left on nginx:alpine, and one of the 2 new pods an original one
 * updated in place.
 */
export function expectSeed001AtPartition3(before: readonly PodLike[], partial: readonly PodLike[], seen: { maxLive: number; minReady: number }): void {
  expect(seen.maxLive).toBe(6);
  expect(seen.minReady).toBeGreaterThanOrEqual(5);
  expect(partial.filter((p) => imageOf(p) === 'nginx:alpine')).toHaveLength(3);
  const originals = new Set(before.map((p) => p.metadata.uid));
  expect(partial.filter((p) => imageOf(p) === 'nginx:1.25' && originals.has(p.metadata.uid))).toHaveLength(1);
}
