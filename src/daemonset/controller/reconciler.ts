// The Advanced DaemonSet reconciler: observe (four LISTs) → decide (pure) → the runtime applies the
// plan. Triggers: a change to one of its pods runs just the DaemonSet that controls it
// (ownedPods); a Node added, relabelled, tainted, cordoned or removed runs every DaemonSet (its
// eligibility may have changed), on the Node loop's watch and, on Lambda, through the node
// observer's change event. Wake-ups carry a DaemonSet while its pods become available.
import type { Reconciler } from '../../reconcile/types.js';
import { ownedPods } from '../../reconcile/owned-pods.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND } from '../types.js';
import { decideDaemonSets } from './decide.js';
import { observeDaemonSets, type DaemonSetObserved } from './observe.js';

export const daemonSetReconciler: Reconciler<DaemonSetObserved> = {
  kind: DAEMONSET_KIND,
  apiVersion: DAEMONSET_API_VERSION,
  observe: (kube, scope) => observeDaemonSets(kube, scope),
  decide: (observed, now) => decideDaemonSets(observed, now),
  triggers: [ownedPods(DAEMONSET_API_VERSION, DAEMONSET_KIND), { apiVersion: 'v1', kind: 'Node' }],
};
