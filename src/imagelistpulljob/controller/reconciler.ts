// The ImageListPullJob reconciler: observe → decide (pure) → the runtime applies the plan. A
// change to one of its ImagePullJobs (created, its status moved, deleted) runs just the list job
// that controls it: on the Node loop's watches and, on Lambda, through the related-object change
// events the Worker publishes (../index.ts). Wake-ups carry the TTL.
import type { KubeObject } from '../../kube/http.js';
import type { Reconciler } from '../../reconcile/types.js';
import { owningListJob } from '../owner.js';
import { CHILD_API_VERSION, CHILD_KIND, IMAGELISTPULLJOB_API_VERSION, IMAGELISTPULLJOB_KIND } from '../types.js';
import { decideImageListPullJobs } from './decide.js';
import { observeImageListPullJobs, type ImageListPullJobObserved } from './observe.js';

const ownerOf = (child: KubeObject) => owningListJob(child.metadata).map((name) => ({ ...(child.metadata?.namespace ? { namespace: child.metadata.namespace } : {}), name }));

export const imageListPullJobReconciler: Reconciler<ImageListPullJobObserved> = {
  kind: IMAGELISTPULLJOB_KIND,
  apiVersion: IMAGELISTPULLJOB_API_VERSION,
  observe: (kube, scope) => observeImageListPullJobs(kube, scope),
  decide: (observed, now) => decideImageListPullJobs(observed, now),
  triggers: [{ apiVersion: CHILD_API_VERSION, kind: CHILD_KIND, objectsOf: ownerOf }],
};
