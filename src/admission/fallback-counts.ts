// Counts the admission fallbacks the edge took (dispatch.ts: stale or missing state,
// a handler or state read that timed out or failed), per cluster and (endpoint, feature, reason),
// for the sync summary. In memory, per app instance: a Worker isolate, a Node process, a Lambda
// execution environment. `since` says when this instance started counting.
import type { FallbackReason, FallbackTaken } from './dispatch.js';

export type FallbackCount = { endpoint: string; feature: string; reason: FallbackReason; count: number };

export class FallbackCounts {
  private readonly counts = new Map<string, Map<string, FallbackCount>>();

  constructor(readonly since: number) {}

  add(clusterId: string, endpoint: string, taken: readonly FallbackTaken[]): void {
    if (!taken.length) return;
    const cluster = this.counts.get(clusterId) ?? new Map<string, FallbackCount>();
    this.counts.set(clusterId, cluster);
    for (const { feature, reason } of taken) {
      const key = `${endpoint}\n${feature}\n${reason}`;
      const held = cluster.get(key);
      if (held) held.count++;
      else cluster.set(key, { endpoint, feature, reason, count: 1 });
    }
  }

  /** The cluster's counts, by endpoint, feature and reason. */
  of(clusterId: string): FallbackCount[] {
    const order = (c: FallbackCount) => `${c.endpoint}\n${c.feature}\n${c.reason}`;
    return [...(this.counts.get(clusterId)?.values() ?? [])].map((c) => ({ ...c })).sort((a, b) => order(a).localeCompare(order(b)));
  }
}
