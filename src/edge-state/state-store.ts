// The write side of pushed edge state, per cluster. The Worker's Durable Object and the
// in-memory store implement it with the same pure planning (sync.ts, edge-state/held.ts).
import type { ClusterState } from './contracts.js';
import type { CollectionMeta, EdgeVersions, SyncPayload, SyncOutcome } from './sync.js';
import type { AdmittedWrite } from './admitted.js';
import type { CollectionSummary } from './held.js';

export interface StateStore extends ClusterState {
  /** The edge's pushed versions of a collection, for a reconciler to diff against. */
  versions(name: string): Promise<EdgeVersions | undefined>;
  /** Applies a push atomically (plan + write), or refuses it. */
  sync(name: string, payload: SyncPayload): Promise<Exclude<SyncOutcome, { ok: true }> | { ok: true; meta: CollectionMeta }>;
  /** Writes admitted objects through (edge-state/admitted.ts); done before the admission answers. */
  admit(writes: readonly AdmittedWrite[]): Promise<void>;
  /** Every collection held, with its push's version and when the edge last knew it current. */
  summary(): Promise<Record<string, CollectionSummary>>;
}
