// Ledger changes as change events: a webhook's ledger operation whose result changes what the
// ledger's object shows in status (a PUB's disruptedPods, a WorkloadSpread's creatingPods) names
// that object, so the caller can publish an event and its reconciler writes the status within a
// moment, as OpenKruise's webhooks write it themselves. Pure apart from calling the ledgers.
import type { LedgerKind, LedgerRef, Ledgers } from './ledger.js';
import type { ChangeEvent, ClusterState } from './contracts.js';

/** The state with its ledgers watched: `changed` collects one event per object whose status moved. */
export function withLedgerMirror(state: ClusterState, kinds: readonly LedgerKind[], clusterId: string): { state: ClusterState; changed: () => ChangeEvent[] } {
  const ledgers = state.ledgers;
  const mirrors = new Map(kinds.flatMap((k) => (k.mirror ? [[k.kind, k.mirror] as const] : [])));
  if (!ledgers || !mirrors.size) return { state, changed: () => [] };
  const events = new Map<string, ChangeEvent>();
  const watched: Ledgers = {
    async apply<R>(ref: LedgerRef, op: string, req: unknown): Promise<R> {
      const result = await ledgers.apply<R>(ref, op, req);
      const mirror = mirrors.get(ref.kind);
      if (mirror?.changes(op, result)) {
        events.set(`${ref.kind}/${ref.namespace}/${ref.name}`, {
          clusterId, apiVersion: mirror.apiVersion, kind: mirror.kind, ...(ref.namespace ? { namespace: ref.namespace } : {}), name: ref.name, reason: 'status',
        });
      }
      return result;
    },
  };
  return { state: { collection: (name) => state.collection(name), ledgers: watched }, changed: () => [...events.values()] };
}
