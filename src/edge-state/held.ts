// The edge's state for one cluster, in memory: each collection's pushed items plus the overlay of
// admitted writes (admitted.ts), and a stamp that changes whenever what handlers would read
// changes, so readers elsewhere (other isolates) can ask "anything new since stamp S?" in one
// call. The Durable Object persists around it; the in-memory store uses it as it is.
import { planSyncWrite, type CollectionMeta, type EdgeVersions, type SyncItem, type SyncPayload, type SyncWritePlan } from './sync.js';
import type { Snapshot } from './contracts.js';
import { recordWrites, settledBy, withOverlay, type AdmittedWrite, type Overlay } from './admitted.js';

type Held = { meta: CollectionMeta; items: Map<string, SyncItem> };

/** A collection as a reader asked for it: unchanged since its stamp, or the whole snapshot. */
export type ReadAnswer = { stamp: string; snapshot?: Snapshot } | null;

export class HeldState {
  private readonly pushed = new Map<string, Held>();
  private readonly overlays = new Map<string, Overlay>();
  private readonly changes = new Map<string, number>();
  // Stamps from before a restart must never match stamps after it.
  private readonly epoch = Math.random().toString(36).slice(2, 10);

  private touch(name: string): void {
    this.changes.set(name, (this.changes.get(name) ?? 0) + 1);
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
    return { items: withOverlay(h.items, overlay) as T[], resourceVersion, observedAt: h.meta.observedAt };
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

  summary(): Record<string, CollectionMeta & { admitted?: number }> {
    return Object.fromEntries([...this.pushed].map(([k, h]) => {
      const admitted = this.overlays.get(k)?.size ?? 0;
      return [k, admitted ? { ...h.meta, admitted } : h.meta];
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

  /** Records admitted writes; returns the overlay entries as they now stand (to persist). */
  admit(writes: readonly AdmittedWrite[]): AdmittedWrite[] {
    const stored = recordWrites(this.overlays, writes);
    for (const name of new Set(stored.map((w) => w.collection))) this.touch(name);
    return stored;
  }

  clear(): void {
    this.pushed.clear();
    this.overlays.clear();
    this.changes.clear();
  }
}
