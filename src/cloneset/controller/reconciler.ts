// The CloneSet reconciler: observe (five LISTs) → decide (pure) → the runtime applies the plan.
// A pod's change runs only the CloneSet that controls it (ownedPods), on the Node loop; on Lambda
// the plan's wake-ups carry a CloneSet while its pods are becoming available.
import type { FeatureGates } from '../../reconcile/feature-gates.js';
import type { Reconciler } from '../../reconcile/types.js';
import { ownedPods } from '../../reconcile/owned-pods.js';
import type { DisruptionBudgetSource } from '../../workload/disruption.js';
import { CLONESET_API_VERSION, CLONESET_KIND } from '../types.js';
import { decideCloneSets } from './decide.js';
import { observeCloneSets, type CloneSetObserved } from './observe.js';

export type CloneSetReconcilerOptions = {
  /** OpenKruise's feature gates (CloneSetPartitionRollback, CloneSetShortHash, …). */
  gates?: FeatureGates;
  /** PodUnavailableBudget port; default: allow every disruption (the PUB webhook still guards). */
  budgets?: DisruptionBudgetSource;
};

export function cloneSetReconcilerFor(opts: CloneSetReconcilerOptions = {}): Reconciler<CloneSetObserved> {
  return {
    kind: CLONESET_KIND,
    apiVersion: CLONESET_API_VERSION,
    observe: (kube, scope) => observeCloneSets(kube, scope, { imagePullJobs: opts.gates?.PreDownloadImageForInPlaceUpdate === true }),
    decide: (observed, now) => decideCloneSets(observed, now, opts),
    triggers: [ownedPods(CLONESET_API_VERSION, CLONESET_KIND)],
  };
}

export const cloneSetReconciler: Reconciler<CloneSetObserved> = cloneSetReconcilerFor();
