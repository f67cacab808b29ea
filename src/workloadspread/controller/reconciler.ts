// The WorkloadSpread reconciler: observe (LISTs + the ledger resync) → decide (pure) → the runtime
// applies the plan. Node and Lambda only: src/reconcile/all.ts imports this file (the integrator
// adds it there, with the cluster's Ledgers port: the in-process MemoryLedgers on Node, the edge
// sync API client on Lambda).
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
    observe: (kube, scope) => observeWorkloadSpreads(kube, scope, opts),
    decide: decideWorkloadSpreads,
    triggers: [
      { apiVersion: 'apps/v1', kind: 'Deployment' },
      { apiVersion: 'apps/v1', kind: 'StatefulSet' },
      { apiVersion: 'batch/v1', kind: 'Job' },
    ],
  };
}

/** Without a ledger port: status from the cluster alone, as OpenKruise's controller keeps it. */
export const workloadSpreadReconciler: Reconciler<WorkloadSpreadObserved> = workloadSpreadReconcilerFor();
