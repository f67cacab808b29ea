// The SidecarSet reconciler: observe (a fixed number of LISTs) → decide (pure) → the runtime
// applies the plan. Node and Lambda only, like every reconciler (src/reconcilers.ts).
//
// Triggers: none. Pods change all the time (status, kubelet heartbeats of conditions), so a Pod
// trigger would run a full reconcile of every SidecarSet on nearly every change in the cluster.
// Instead a run happens on the periodic resync, when a SidecarSet changes (the runtime watches the
// reconciled kind itself and runs just that set), and — while a rollout or hot upgrade is in
// flight — again after ROLLOUT_REQUEUE_MS, which the plan asks for. New pods need nothing from the
// controller (the webhook injects them); the status catches up at the next run.
import type { Reconciler } from '../../reconcile/types.js';
import { decideSidecarSets } from './decide.js';
import type { DisruptionBudgetSource } from '../../workload/disruption.js';
import { DEFAULT_KRUISE_NAMESPACE, observeSidecarSets, SIDECARSET_API_VERSION, SIDECARSET_KIND, type SidecarSetObserved } from './observe.js';

export type SidecarSetReconcilerOptions = {
  /** Where ControllerRevisions live (OpenKruise's own namespace). Default kruise-system. */
  kruiseNamespace?: string;
  /** PodUnavailableBudget port; default: allow every disruption (the PUB webhook still guards). */
  budgets?: DisruptionBudgetSource;
};

export function sidecarSetReconcilerFor(opts: SidecarSetReconcilerOptions = {}): Reconciler<SidecarSetObserved> {
  const kruiseNamespace = opts.kruiseNamespace ?? DEFAULT_KRUISE_NAMESPACE;
  return {
    kind: SIDECARSET_KIND,
    apiVersion: SIDECARSET_API_VERSION,
    observe: (kube, scope) => observeSidecarSets(kube, scope, { kruiseNamespace }),
    decide: (observed, now) => decideSidecarSets(observed, now, opts.budgets ? { budgets: opts.budgets } : {}),
  };
}

export const sidecarSetReconciler: Reconciler<SidecarSetObserved> = sidecarSetReconcilerFor();
