// The AdvancedCronJob reconciler: observe (an ACJ LIST and one LIST per child kind) → decide
// (pure) → the runtime applies the plan. It wakes at the next scheduled time (requeueAfterMs);
// a change to one of its Jobs, BroadcastJobs or ImageListPullJobs (created, finished, deleted) runs just the
// AdvancedCronJob that controls it, on the Node loop's watches and, on Lambda, through the
// related-object change events the Worker publishes (src/advancedcronjob/index.ts).
import type { KubeObject } from '../../kube/http.js';
import type { Reconciler, Trigger } from '../../reconcile/types.js';
import { ACJ_KIND, ACJ_API_VERSION, BROADCASTJOB_API_VERSION, BROADCASTJOB_KIND, IMAGELISTPULLJOB_API_VERSION, IMAGELISTPULLJOB_KIND, JOB_API_VERSION, JOB_KIND, type Metadata } from '../types.js';
import { decideAdvancedCronJobs, type AdvancedCronJobObserved } from './decide.js';
import { observeAdvancedCronJobs } from './observe.js';

/** The AdvancedCronJob that controls a child, if one does. */
export function owningCronJob(child: KubeObject): { namespace?: string; name: string }[] {
  const meta = child.metadata as Metadata | undefined;
  const owner = meta?.ownerReferences?.find((o) => o.controller);
  if (!owner?.name || owner.kind !== ACJ_KIND || owner.apiVersion?.split('/')[0] !== 'apps.kruise.io') return [];
  return [{ ...(meta?.namespace ? { namespace: meta.namespace } : {}), name: owner.name }];
}

const childTriggers: Trigger[] = [
  { apiVersion: JOB_API_VERSION, kind: JOB_KIND, objectsOf: owningCronJob },
  { apiVersion: BROADCASTJOB_API_VERSION, kind: BROADCASTJOB_KIND, objectsOf: owningCronJob },
  { apiVersion: IMAGELISTPULLJOB_API_VERSION, kind: IMAGELISTPULLJOB_KIND, objectsOf: owningCronJob },
];

export const advancedCronJobReconciler: Reconciler<AdvancedCronJobObserved> = {
  kind: ACJ_KIND,
  apiVersion: ACJ_API_VERSION,
  observe: (kube, scope) => observeAdvancedCronJobs(kube, scope),
  decide: (observed, now) => decideAdvancedCronJobs(observed, now),
  triggers: childTriggers,
};
