// The ResourceDistribution reconciler: observe (LISTs) → decide (pure) → the runtime applies the
// plan. Node only (hash.ts): src/reconcilers.ts imports this file directly, so that index.ts,
// which the Worker bundles through src/registry.ts, stays free of node: imports.
import type { Reconciler } from '../reconcile/types.js';
import { decideResourceDistributions } from './decide.js';
import { observeResourceDistributions, type ResourceDistributionObserved } from './observe.js';
import { RD_API_VERSION, RD_KIND } from './types.js';

export const resourceDistributionReconciler: Reconciler<ResourceDistributionObserved> = {
  kind: RD_KIND,
  apiVersion: RD_API_VERSION,
  observe: observeResourceDistributions,
  decide: decideResourceDistributions,
  // A new or relabelled namespace may become a target. Copies changed in place are put right at
  // the next full run (OpenKruise watches them; watching every ConfigMap and Secret costs more).
  triggers: [{ apiVersion: 'v1', kind: 'Namespace' }],
};
