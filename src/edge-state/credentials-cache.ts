// How long an isolate trusts the cluster credentials it read: every webhook request checks its
// URL secret against them, so they are read once per few seconds, not once per request. A change
// made through this isolate (create, rotate, remove) drops its entry at once; one made through
// another isolate is seen here within CREDENTIALS_CACHE_MS.
import type { ClusterCredentials, ClusterRegistry } from './auth.js';

export const CREDENTIALS_CACHE_MS = 5_000;

export type CachedRegistry = ClusterRegistry & { forget(clusterId: string): void };

export function cachedRegistry(read: (clusterId: string) => Promise<ClusterCredentials | undefined>, now: () => number = Date.now): CachedRegistry {
  const cache = new Map<string, { value: ClusterCredentials | undefined; until: number }>();
  return {
    async credentials(clusterId) {
      const hit = cache.get(clusterId);
      if (hit && hit.until > now()) return hit.value;
      const value = await read(clusterId);
      cache.set(clusterId, { value, until: now() + CREDENTIALS_CACHE_MS });
      return value;
    },
    forget: (clusterId) => void cache.delete(clusterId),
  };
}
