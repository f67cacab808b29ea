// The BroadcastJob reconciler: observe (three LISTs) → decide (pure) → the runtime applies the plan.
// Triggers: a change to one of its pods runs just the job that controls it (ownedPods); a Node
// added, relabelled, tainted, cordoned or removed runs every job (its placement may have changed),
// on the Node loop's watch and, on Lambda, through the node observer's change event. Wake-ups
// carry the active deadline and the TTL.
import type { Reconciler } from '../../reconcile/types.js';
import { ownedPods } from '../../reconcile/owned-pods.js';
import { BROADCASTJOB_API_VERSION, BROADCASTJOB_KIND } from '../types.js';
import { decideBroadcastJobs } from './decide.js';
import { observeBroadcastJobs, type BroadcastJobObserved } from './observe.js';

export const broadcastJobReconciler: Reconciler<BroadcastJobObserved> = {
  kind: BROADCASTJOB_KIND,
  apiVersion: BROADCASTJOB_API_VERSION,
  observe: (kube, scope) => observeBroadcastJobs(kube, scope),
  decide: (observed, now) => decideBroadcastJobs(observed, now),
  triggers: [ownedPods(BROADCASTJOB_API_VERSION, BROADCASTJOB_KIND), { apiVersion: 'v1', kind: 'Node' }],
};
