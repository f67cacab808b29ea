// The edge's state for one cluster, in memory: each collection's pushed items plus the overlay of
// admitted writes (admitted.ts), and a stamp that changes whenever what handlers would read
// changes, so readers elsewhere (other isolates) can ask "anything new since stamp S?" in one
// call. The Durable Object persists around it; the in-memory store uses it as it is.
import { planSyncWrite, type CollectionMeta, type EdgeVersions, type SyncItem, type SyncPayload, type SyncWritePlan } from './sync.js';
import type { Snapshot } from './contracts.js';
import { recordWrites, settledBy, withOverlay, type AdmittedWrite, type Overlay } from './admitted.js';

type Held = { meta: CollectionMeta; items: Map<string, SyncItem> };

/** A held collection as the sync summary shows it: its push, and when the edge last knew it current. */
export type CollectionSummary = CollectionMeta & { currentAt: number; admitted?: number };

/** A collection as a reader asked for it: unchanged since its stamp, or the whole snapshot. */
export type ReadAnswer = { stamp: string; snapshot?: Snapshot } | null;

export class HeldState {
  private readonly pushed = new Map<string, Held>();
  private readonly overlays = new Map<string, Overlay>();
  private readonly changes = new Map<string, number>();
  // The latest admitted write (write-through or observer) per collection: the edge saw the API
  // server accept it, so the collection was current then, even with pushes late.
  private readonly writtenAt = new Map<string, number>();
  // Stamps from before a restart must never match stamps after it.
  private readonly epoch = Math.random().toString(36).slice(2, 10);

  private touch(name: string): void {
    this.changes.set(name, (this.changes.get(name) ?? 0) + 1);
  }

  /** When the edge last knew `name` current: its push's observedAt or a later admitted write. */
  currentAt(name: string): number | undefined {
    const h = this.pushed.get(name);
    if (!h) return undefined;
    return Math.max(h.meta.observedAt, this.writtenAt.get(name) ?? Number.NEGATIVE_INFINITY);
  }

  /** The latest admitted write per collection (to persist beside the overlay). */
  lastWrites(): Record<string, number> {
    return Object.fromEntries(this.writtenAt);
  }

  stamp(name: string): string {
    return `${this.epoch}.${this.changes.get(name) ?? 0}`;
  }

  /** What handlers read; undefined until the collection was first pushed. */
  snapshot<T>(name: string): Snapshot<T> | undefined {
    const h = this.pushed.get(name);
    if (!h) return undefined;
    const overlay = this.overlays.get(name);
    // Admitted writes change what handlers read without a push: the version says so, since
    // handlers memoize what they derive from a snapshot by its version.
    const resourceVersion = overlay?.size ? `${h.meta.resourceVersion}+${this.stamp(name)}` : h.meta.resourceVersion;
    return { items: withOverlay(h.items, overlay) as T[], resourceVersion, observedAt: h.meta.observedAt, currentAt: this.currentAt(name)! };
  }

  read(names: readonly string[], have: Readonly<Record<string, string>>): Record<string, ReadAnswer> {
    const out: Record<string, ReadAnswer> = {};
    for (const name of names) {
      const stamp = this.stamp(name);
      if (!this.pushed.has(name)) out[name] = null;
      else if (have[name] === stamp) out[name] = { stamp };
      else out[name] = { stamp, snapshot: this.snapshot(name)! };
    }
    return out;
  }

  /** The pushed versions only: a reconciler diffs its LIST against what it pushed, not what was admitted. */
  versions(name: string): EdgeVersions | undefined {
    const h = this.pushed.get(name);
    if (!h) return undefined;
    const items: Record<string, string> = {};
    for (const [k, v] of h.items) items[k] = v.metadata?.resourceVersion ?? '';
    return { meta: h.meta, items };
  }

  summary(): Record<string, CollectionSummary> {
    return Object.fromEntries([...this.pushed].map(([k, h]) => {
      const admitted = this.overlays.get(k)?.size ?? 0;
      return [k, { ...h.meta, currentAt: this.currentAt(k)!, ...(admitted ? { admitted } : {}) }];
    }));
  }

  /** Plans a push; the caller persists the plan, then calls `applyPlan`. */
  plan(name: string, payload: SyncPayload): ReturnType<typeof planSyncWrite> {
    return planSyncWrite(this.versions(name), payload);
  }

  /** Applies a planned push; returns the overlay keys it settled (for the caller to unpersist). */
  applyPlan(name: string, plan: SyncWritePlan): string[] {
    const h = this.pushed.get(name) ?? { meta: plan.meta, items: new Map<string, SyncItem>() };
    for (const k of plan.deletes) h.items.delete(k);
    for (const [k, v] of plan.puts) h.items.set(k, v);
    h.meta = plan.meta;
    this.pushed.set(name, h);
    const overlay = this.overlays.get(name);
    const settled = overlay ? settledBy(overlay, plan.meta.observedAt, h.items) : [];
    for (const k of settled) overlay?.delete(k);
    this.touch(name);
    return settled;
  }

  /** Restores a collection (after a restart) without touching its stamp's meaning. */
  restore(name: string, meta: CollectionMeta, items: Iterable<[string, SyncItem]>): void {
    this.pushed.set(name, { meta, items: new Map(items) });
  }

  /**
   * Records admitted writes; returns the overlay entries as they now stand (to persist). Every
   * write refreshes its collection's currentAt, even one that does not replace the entry held.
   */
  admit(writes: readonly AdmittedWrite[]): AdmittedWrite[] {
    this.wrote(writes.map((w) => [w.collection, w.admittedAt]));
    const stored = recordWrites(this.overlays, writes);
    // Also for a write that changed no entry: readers holding the snapshot learn its new currentAt.
    for (const name of new Set(writes.map((w) => w.collection))) this.touch(name);
    return stored;
  }

  /** Restores (or records) when collections were last written: [collection, admittedAt]. */
  wrote(times: Iterable<readonly [string, number]>): void {
    for (const [name, at] of times) {
      if (Number.isFinite(at) && at > (this.writtenAt.get(name) ?? Number.NEGATIVE_INFINITY)) this.writtenAt.set(name, at);
    }
  }

  clear(): void {
    this.pushed.clear();
    this.overlays.clear();
    this.changes.clear();
    this.writtenAt.clear();
  }
}
