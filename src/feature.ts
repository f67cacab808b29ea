// What one feature registers: its handlers on webhook endpoints, the state they read, its
// explainers and ledgers, and what makes its reconcilers run. It joins the webhook framework
// (src/admission) and the edge's state (src/edge-state), so it lives above both, beside the
// registry that lists the features (src/registry.ts).
import type { Explainer, RegisteredHandler } from './admission/types.js';
import type { CollectionSpec, RelatedObjects, WorkloadPods } from './edge-state/contracts.js';
import type { LedgerKind } from './edge-state/ledger.js';

/** A feature: its handlers on webhook endpoints, the state they read, and what makes its reconcilers run. */
export type Feature = {
  name: string;
  handlers: { endpoint: string; handler: Omit<RegisteredHandler, 'feature'> }[];
  collections?: CollectionSpec[];
  /**
   * Kinds ("apiVersion/Kind") whose admitted changes are published as change events, so their
   * reconciler runs promptly (the reconcilers themselves live in src/reconcilers.ts).
   */
  changeKinds?: string[];
  /**
   * Objects whose reconciler should run when a validating endpoint admits a request that concerns
   * them (a pod stamped with a PUB → that PUB): published as change events like `changeKinds`.
   */
  relatedObjects?: RelatedObjects;
  /**
   * The workloads whose pods this feature controls: their status changes (ready, restarted …)
   * are observed at the edge and published as change events for the owning workload.
   */
  workloadPods?: WorkloadPods[];
  /** Served at /clusters/<id>/<secret>/explain/<name>. */
  explainers?: Record<string, Explainer>;
  /** Strongly consistent budgets this feature keeps at the edge (src/edge-state/ledger.ts). */
  ledgerKinds?: LedgerKind[];
};
