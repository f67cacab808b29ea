// The WorkloadSpread reconciler: observe (LISTs + the edge's ledgers, read) → decide (pure) → the
// runtime applies the plan, the ledger resyncs last. Node and Lambda only (src/reconcile/all.ts);
// the edge's ledgers come from the runtime (the run's edge).
//
// Triggers: Deployments, Jobs and StatefulSets, whose replicas set percentages (OpenKruise watches
// them). Pods are not a trigger (they change constantly); the plan asks to come back when a
// webhook entry expires, a pending pod hits rescheduleCriticalSeconds or a subset recovers.
import type { Reconciler } from '../../reconcile/types.js';
import { WS_API_VERSION, WS_KIND } from '../types.js';
import { decideWorkloadSpreads } from './decide.js';
import { observeWorkloadSpreads, type ObserveOptions, type WorkloadSpreadObserved } from './observe.js';

export type WorkloadSpreadReconcilerOptions = ObserveOptions;

export function workloadSpreadReconcilerFor(opts: WorkloadSpreadReconcilerOptions = {}): Reconciler<WorkloadSpreadObserved> {
  return {
    kind: WS_KIND,
    apiVersion: WS_API_VERSION,
    observe: (kube, scope, ctx) => {
      const ledgers = opts.ledgers ?? ctx?.ledgers;
      return observeWorkloadSpreads(kube, scope, { ...opts, ...(ledgers ? { ledgers } : {}) });
    },
    decide: decideWorkloadSpreads,
    triggers: [
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { apiVersion: 'apps/v1', kind: 'StatefulSet' },
      { apiVersion: 'batch/v1', kind: 'Job' },
    ],
  };
}

/** Uses the edge's ledgers when the run has them; else status from the cluster alone, as OpenKruise's. */
export const workloadSpreadReconciler: Reconciler<WorkloadSpreadObserved> = workloadSpreadReconcilerFor();
