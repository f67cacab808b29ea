// Every reconciler this build runs (Node and Lambda only). Kept apart from src/registry.ts, which
// the Worker imports: reconcilers read the API server and never run at the edge. The edge's
// ledgers (PUB and WorkloadSpread budgets) reach them through the runtime (RunOptions.ledgers).
import type { Reconciler } from './types.js';
import { resourceDistributionReconciler } from '../resourcedistribution/reconciler.js';
import { sidecarSetReconcilerFor } from '../sidecarset/controller/reconciler.js';
import { workloadSpreadReconciler } from '../workloadspread/controller/reconciler.js';
import { pubReconciler } from '../pub/controller/reconciler.js';
import { pubDisruptionBudgets } from '../pub/budget-source.js';
import { cloneSetReconciler } from '../cloneset/controller/reconciler.js';

export function reconcilers(): Reconciler[] {
  return [
    resourceDistributionReconciler as Reconciler,
    // PUB first: a full resync refreshes budgets before the SidecarSet controller asks them.
    pubReconciler as Reconciler,
    workloadSpreadReconciler as Reconciler,
    // In-place sidecar updates ask the PUBs first (the PUB webhook stays the authority).
    sidecarSetReconcilerFor({ budgets: pubDisruptionBudgets }) as Reconciler,
    cloneSetReconciler as Reconciler,
  ];
}
