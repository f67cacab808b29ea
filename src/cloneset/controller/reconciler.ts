// The CloneSet reconciler: observe (three LISTs) → decide (pure) → the runtime applies the plan.
// A pod's change runs only the CloneSet that controls it (ownedPods), on the Node loop; on Lambda
// the plan's wake-ups carry a CloneSet while its pods are becoming available.
import type { Reconciler } from '../../reconcile/types.js';
import { ownedPods } from '../../reconcile/owned-pods.js';
import { CLONESET_API_VERSION, CLONESET_KIND } from '../types.js';
import { decideCloneSets } from './decide.js';
import { observeCloneSets, type CloneSetObserved } from './observe.js';

export const cloneSetReconciler: Reconciler<CloneSetObserved> = {
  kind: CLONESET_KIND,
  apiVersion: CLONESET_API_VERSION,
  observe: (kube, scope) => observeCloneSets(kube, scope),
  decide: decideCloneSets,
  triggers: [ownedPods(CLONESET_API_VERSION, CLONESET_KIND)],
};
