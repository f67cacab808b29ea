// Pushed state held in memory: for tests, benchmarks and single-process Node deployments.
import type { Snapshot } from './types.js';
import { planSyncWrite, type CollectionMeta, type EdgeVersions, type SyncItem, type SyncPayload } from './sync.js';
import type { StateStore } from './state-store.js';

type Held = { meta: CollectionMeta; items: Map<string, SyncItem> };

export class MemoryStateStore implements StateStore {
  private readonly held = new Map<string, Held>();

  async collection<T>(name: string): Promise<Snapshot<T> | undefined> {
    const h = this.held.get(name);
    if (!h) return undefined;
    return { items: [...h.items.values()] as T[], resourceVersion: h.meta.resourceVersion, observedAt: h.meta.observedAt };
  }

  async versions(name: string): Promise<EdgeVersions | undefined> {
    const h = this.held.get(name);
    if (!h) return undefined;
    const items: Record<string, string> = {};
    for (const [k, v] of h.items) items[k] = v.metadata?.resourceVersion ?? '';
    return { meta: h.meta, items };
  }

  async sync(name: string, payload: SyncPayload) {
    const outcome = planSyncWrite(await this.versions(name), payload);
    if (!outcome.ok) return outcome;
    const h = this.held.get(name) ?? { meta: outcome.plan.meta, items: new Map<string, SyncItem>() };
    for (const k of outcome.plan.deletes) h.items.delete(k);
    for (const [k, v] of outcome.plan.puts) h.items.set(k, v);
    h.meta = outcome.plan.meta;
    this.held.set(name, h);
    return { ok: true as const, meta: h.meta };
  }

  async summary(): Promise<Record<string, CollectionMeta>> {
    return Object.fromEntries([...this.held].map(([k, h]) => [k, h.meta]));
  }
}
