// Cluster state read live from the API server (Node and Lambda, which hold credentials): one
// LIST per collection, cached for a short TTL so a burst of admissions costs one read.
import type { CollectionSpec, ClusterState, Lister, Snapshot } from './types.js';

export type { Lister } from './types.js';

export class LiveClusterState implements ClusterState {
  private readonly cache = new Map<string, { snap: Promise<Snapshot>; until: number }>();
  private readonly specs: Map<string, CollectionSpec>;

  constructor(
    private readonly list: Lister,
    specs: CollectionSpec[],
    private readonly ttlMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {
    this.specs = new Map(specs.map((s) => [s.name, s]));
  }

  async collection<T>(name: string): Promise<Snapshot<T> | undefined> {
    const spec = this.specs.get(name);
    if (!spec) return undefined;
    const hit = this.cache.get(name);
    if (hit && hit.until > this.now()) return (await hit.snap) as Snapshot<T>;
    const observedAt = this.now();
    const snap = listCollection(this.list, spec).then((r) => ({
      items: r.items,
      resourceVersion: r.resourceVersion,
      observedAt,
    }));
    this.cache.set(name, { snap, until: observedAt + this.ttlMs });
    snap.catch(() => this.cache.delete(name));
    return (await snap) as Snapshot<T>;
  }
}

/** A collection's items as pushed: computed, or LISTed and projected. */
export async function listCollection(list: Lister, spec: CollectionSpec): Promise<{ items: Record<string, unknown>[]; resourceVersion: string }> {
  if (spec.compute) return spec.compute(list);
  const r = await list(spec.apiVersion, spec.kind, spec.select);
  return { items: spec.project ? r.items.map(spec.project) : r.items, resourceVersion: r.resourceVersion };
}
