// The WorkloadSpread reconciler: observe (LISTs + the edge's ledgers, read) → decide (pure) → the
// runtime applies the plan, the ledger resyncs last. Node and Lambda only (src/reconcilers.ts);
// the edge's ledgers come from the runtime (the run's edge).
//
// Triggers: Deployments, Jobs and StatefulSets, whose replicas set percentages (OpenKruise watches
// them), and pods, each running only the WorkloadSpread its annotation names (OpenKruise enqueues
// the same on pod events), so what the webhook recorded reaches status at once. The plan also asks
// to come back when a webhook entry expires, a pending pod hits rescheduleCriticalSeconds or a
// subset recovers.
import type { KubeObject } from '../../kube/http.js';
import type { Reconciler } from '../../reconcile/types.js';
import { parseMatchedWorkloadSpread } from '../inject.js';
import { WS_API_VERSION, WS_KIND } from '../types.js';
import { decideWorkloadSpreads } from './decide.js';
import { observeWorkloadSpreads, type ObserveOptions, type WorkloadSpreadObserved } from './observe.js';

export type WorkloadSpreadReconcilerOptions = ObserveOptions;

/** The WorkloadSpread a pod was placed by (`apps.kruise.io/matched-workloadspread`), if any. */
function matchedWorkloadSpread(pod: KubeObject): { namespace?: string; name: string }[] {
  const matched = parseMatchedWorkloadSpread(pod as { metadata?: { annotations?: Record<string, string> } });
  return matched?.name ? [{ ...(pod.metadata?.namespace ? { namespace: pod.metadata.namespace } : {}), name: matched.name }] : [];
}

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
      // A pod's change runs its WorkloadSpread at once: creatingPods/deletingPods show within a moment.
      { apiVersion: 'v1', kind: 'Pod', objectsOf: matchedWorkloadSpread },
    ],
  };
}

/** Uses the edge's ledgers when the run has them; else status from the cluster alone, as OpenKruise's. */
export const workloadSpreadReconciler: Reconciler<WorkloadSpreadObserved> = workloadSpreadReconcilerFor();
