// The container launch priority reconciler: it reconciles pods. A change to a pod (created, a
// container became ready) runs it for that pod on the Node loop's pod watch; a full run covers
// every pod with a barrier env. On Lambda, a pod's creation reaches it as a related-object change
// event (../index.ts); its containers' readiness does not (the pod-status observer only sends
// labelled workload pods), so later steps wait for the scheduled full run there.
import type { Reconciler } from '../../reconcile/types.js';
import { decideLaunchPriority } from './decide.js';
import { observeLaunchPriority, type LaunchPriorityObserved } from './observe.js';

export const launchPriorityReconciler: Reconciler<LaunchPriorityObserved> = {
  kind: 'Pod',
  apiVersion: 'v1',
  observe: (kube, scope) => observeLaunchPriority(kube, scope),
  decide: (observed) => decideLaunchPriority(observed),
};
