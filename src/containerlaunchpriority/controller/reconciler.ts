// The container launch priority reconciler: it reconciles pods. A change to a pod (created, a
// container became ready) runs it for that pod on the Node loop's pod watch; a full run covers
// every pod with a barrier env. On Lambda, a pod's creation reaches it as a related-object change
// event (../index.ts); its containers' readiness does not (the pod-status observer only sends
// labelled workload pods), so while a young pod's launch is in progress its runs ask for wake-ups
// (./decide.ts), and later steps of an older one wait for the scheduled full run.
import type { Reconciler } from '../../reconcile/types.js';
import { decideLaunchPriority } from './decide.js';
import { observeLaunchPriority, type LaunchPriorityObserved } from './observe.js';

export const launchPriorityReconciler: Reconciler<LaunchPriorityObserved> = {
  kind: 'Pod',
  apiVersion: 'v1',
  observe: (kube, scope) => observeLaunchPriority(kube, scope),
  decide: (observed, now) => decideLaunchPriority(observed, now),
};
