// Cluster state read live from the API server (Node and Lambda, which hold credentials): one
// LIST per collection, cached for a short TTL so a burst of admissions costs one read. What this
// process admits is written through on top (edge-state/admitted.ts), so the TTL never hides it.
// A LIST that fails answers the last one that succeeded, with its age (observedAt, or a later
// admitted write: currentAt): handlers decide from the last known state as their needs say.
import type { CollectionSpec, ClusterState, Lister, Snapshot } from './contracts.js';
import { itemKey, type SyncItem } from './sync.js';
import { projectItem, recordWrites, settledBy, withOverlay, type AdmittedWrite, type Overlay } from './admitted.js';

export type { Lister } from './contracts.js';

export class LiveClusterState implements ClusterState {
  private readonly cache = new Map<string, { snap: Promise<Snapshot>; until: number }>();
  private readonly specs: Map<string, CollectionSpec>;
  private readonly overlays = new Map<string, Overlay>();
  private readonly admitted = new Map<string, number>();
  private readonly lastGood = new Map<string, Snapshot>();
  private readonly writtenAt = new Map<string, number>();

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
    let snap = hit && hit.until > this.now() ? hit.snap : undefined;
    if (!snap) {
      const observedAt = this.now();
      const listed = listCollection(this.list, spec).then((r) => {
        const got: Snapshot = { items: r.items, resourceVersion: r.resourceVersion, observedAt };
        if (observedAt >= (this.lastGood.get(name)?.observedAt ?? Number.NEGATIVE_INFINITY)) this.lastGood.set(name, got);
        return got;
      });
      // Deletion protection (uncachedLive) decides from the cluster as it is, never from memory.
      const last = spec.uncachedLive ? undefined : this.lastGood.get(name);
      const answer = last ? listed.catch(() => last) : listed;
      this.cache.set(name, { snap: answer, until: observedAt + (spec.uncachedLive ? 0 : this.ttlMs) });
      // A failed LIST is tried again by the next request.
      listed.catch(() => {
        if (this.cache.get(name)?.snap === answer) this.cache.delete(name);
      });
      snap = answer;
    }
    const listed = await snap;
    const written = this.writtenAt.get(name);
    const currentAt = written !== undefined && written > listed.observedAt ? written : listed.observedAt;
    const overlay = this.overlays.get(name);
    if (!overlay?.size) return { ...listed, currentAt } as Snapshot<T>;
    const items = new Map(listed.items.map((i) => [itemKey(i as SyncItem), i as SyncItem]));
    for (const k of settledBy(overlay, listed.observedAt, items)) overlay.delete(k);
    // Handlers memoize by version: admitted writes make a version of their own.
    const version = overlay.size ? `${listed.resourceVersion}+${this.admitted.get(name) ?? 0}` : listed.resourceVersion;
    return { ...listed, currentAt, resourceVersion: version, items: withOverlay(items, overlay) } as Snapshot<T>;
  }

  /** Writes what this process admitted through to what it reads (before answering). */
  async admit(writes: readonly AdmittedWrite[]): Promise<void> {
    recordWrites(this.overlays, writes);
    for (const name of new Set(writes.map((w) => w.collection))) this.admitted.set(name, (this.admitted.get(name) ?? 0) + 1);
    for (const w of writes) if (w.admittedAt > (this.writtenAt.get(w.collection) ?? Number.NEGATIVE_INFINITY)) this.writtenAt.set(w.collection, w.admittedAt);
  }
}

/** A collection's items as pushed: computed, or LISTed and projected. */
export async function listCollection(list: Lister, spec: CollectionSpec): Promise<{ items: Record<string, unknown>[]; resourceVersion: string }> {
  if (spec.compute) return spec.compute(list);
  const r = await list(spec.apiVersion, spec.kind, spec.select);
  return { items: r.items.map((o) => projectItem(spec, o)), resourceVersion: r.resourceVersion };
}
