// ImageListPullJob: the feature's registration. Its webhooks (defaulting and validation with
// OpenKruise's defaults, rules and messages), and the observer of its ImagePullJobs' status
// changes: one that moves on runs the ImageListPullJob that controls it (on Lambda, as a
// related-object change event). The reconciler itself (./controller/reconciler.ts) is listed in
// src/reconcilers.ts. Web APIs only.
import { allow, type HandlerMatch } from '../admission/types.js';
import type { AdmittedRequest } from '../edge-state/admitted.js';
import type { Feature } from '../feature.js';
import { isRecord } from '../kube/validation.js';
import { owningListJob } from './owner.js';
import { CHILD_KIND, IMAGELISTPULLJOB_API_VERSION, IMAGELISTPULLJOB_GROUP, IMAGELISTPULLJOB_KIND } from './types.js';
import { IMAGELISTPULLJOB_MATCH, defaultImageListPullJobHandler, validateImageListPullJobHandler } from './webhook.js';

const CHILD_OBSERVER = 'observe-job-status';
const CHILD_STATUS_MATCH: HandlerMatch = { group: IMAGELISTPULLJOB_GROUP, kind: CHILD_KIND, subResource: 'status', operations: ['UPDATE'] };

/** An ImagePullJob admitted (its status, or itself) → the ImageListPullJob that controls it. */
export function owningListJobOf(a: AdmittedRequest): { apiVersion: string; kind: string; namespace: string; name: string }[] {
  if (a.group !== IMAGELISTPULLJOB_GROUP || a.kind !== CHILD_KIND) return [];
  const obj = isRecord(a.object) ? a.object : isRecord(a.oldObject) ? a.oldObject : undefined;
  return owningListJob(obj?.metadata).map((name) => ({ apiVersion: IMAGELISTPULLJOB_API_VERSION, kind: IMAGELISTPULLJOB_KIND, namespace: a.namespace, name }));
}

export const imageListPullJobFeature: Feature = {
  name: 'imagelistpulljob',
  handlers: [
    { endpoint: 'mutate-imagelistpulljob', handler: { match: IMAGELISTPULLJOB_MATCH, handle: defaultImageListPullJobHandler } },
    { endpoint: 'validate-kruise', handler: { match: IMAGELISTPULLJOB_MATCH, handle: validateImageListPullJobHandler } },
    // Decides nothing: every status change is allowed, and published for its owner (relatedObjects).
    { endpoint: CHILD_OBSERVER, handler: { match: CHILD_STATUS_MATCH, handle: () => allow() } },
  ],
  changeKinds: [`${IMAGELISTPULLJOB_API_VERSION}/${IMAGELISTPULLJOB_KIND}`, `apps.kruise.io/v1alpha1/${IMAGELISTPULLJOB_KIND}`],
  relatedObjects: owningListJobOf,
};

export { validateImageListPullJob } from './validate.js';
export { defaultedImageListPullJob } from './defaults.js';
