// The Advanced StatefulSet reconciler: observe (four or five LISTs) → decide (pure) → the runtime
// applies the plan. A pod's change runs only the set that controls it (ownedPods).
import type { FeatureGates } from '../../reconcile/feature-gates.js';
import { ownedPods } from '../../reconcile/owned-pods.js';
import type { Reconciler } from '../../reconcile/types.js';
import type { DisruptionBudgetSource } from '../../workload/disruption.js';
import { STATEFULSET_API_VERSION, STATEFULSET_KIND } from '../types.js';
import { decideStatefulSets } from './decide.js';
import { observeStatefulSets, type StatefulSetObserved } from './observe.js';

export type StatefulSetReconcilerOptions = { gates?: FeatureGates; budgets?: DisruptionBudgetSource };

export function statefulSetReconcilerFor(opts: StatefulSetReconcilerOptions = {}): Reconciler<StatefulSetObserved> {
  return {
    kind: STATEFULSET_KIND,
    apiVersion: STATEFULSET_API_VERSION,
    observe: (kube, scope) => observeStatefulSets(kube, scope),
    decide: (observed, now) => decideStatefulSets(observed, now, opts),
    triggers: [ownedPods(STATEFULSET_API_VERSION, STATEFULSET_KIND)],
  };
}

export const statefulSetReconciler: Reconciler<StatefulSetObserved> = statefulSetReconcilerFor();
