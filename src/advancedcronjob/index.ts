// AdvancedCronJob: the feature's registration. Its webhooks (defaulting and validation with
// OpenKruise's defaults, rules and messages), and the observer of its children's status changes:
// a Job, BroadcastJob or ImageListPullJob that finishes runs the AdvancedCronJob that controls it (on Lambda, as a
// related-object change event). The reconciler itself (./controller/reconciler.ts) is listed in
// src/reconcilers.ts. Web APIs only.
import { allow, type HandlerMatch } from '../admission/types.js';
import type { AdmittedRequest } from '../edge-state/admitted.js';
import type { Feature } from '../feature.js';
import { isRecord } from '../kube/validation.js';
import { ACJ_API_VERSION, ACJ_KIND, type Metadata } from './types.js';
import { ACJ_MATCH, defaultAdvancedCronJobHandler, validateAdvancedCronJobHandler } from './webhook.js';

export const JOB_OBSERVER = 'observe-job-status';

const JOB_STATUS_MATCH: HandlerMatch = { group: 'batch', kind: 'Job', subResource: 'status', operations: ['UPDATE'] };
const BCJ_STATUS_MATCH: HandlerMatch = { group: 'apps.kruise.io', kind: 'BroadcastJob', subResource: 'status', operations: ['UPDATE'] };
const ILPJ_STATUS_MATCH: HandlerMatch = { group: 'apps.kruise.io', kind: 'ImageListPullJob', subResource: 'status', operations: ['UPDATE'] };
const CHILD_KINDS = new Set(['batch/Job', 'apps.kruise.io/BroadcastJob', 'apps.kruise.io/ImageListPullJob']);

/** A Job, BroadcastJob or ImageListPullJob admitted (its status, or itself) → the AdvancedCronJob that controls it. */
export function owningCronJobOf(a: AdmittedRequest): { apiVersion: string; kind: string; namespace: string; name: string }[] {
  if (!CHILD_KINDS.has(`${a.group}/${a.kind}`)) return [];
  const obj = isRecord(a.object) ? a.object : isRecord(a.oldObject) ? a.oldObject : undefined;
  const meta = (isRecord(obj?.metadata) ? obj.metadata : {}) as Metadata;
  const owner = meta.ownerReferences?.find((o) => o.controller);
  if (!owner?.name || owner.kind !== ACJ_KIND || owner.apiVersion?.split('/')[0] !== 'apps.kruise.io') return [];
  return [{ apiVersion: ACJ_API_VERSION, kind: ACJ_KIND, namespace: a.namespace, name: owner.name }];
}

export const advancedCronJobFeature: Feature = {
  name: 'advancedcronjob',
  handlers: [
    { endpoint: 'mutate-advancedcronjob', handler: { match: ACJ_MATCH, handle: defaultAdvancedCronJobHandler } },
    { endpoint: 'validate-kruise', handler: { match: ACJ_MATCH, handle: validateAdvancedCronJobHandler } },
    // The observer decides nothing: every status change is allowed, and published for its owner (relatedObjects).
    { endpoint: JOB_OBSERVER, handler: { match: JOB_STATUS_MATCH, handle: () => allow() } },
    { endpoint: JOB_OBSERVER, handler: { match: BCJ_STATUS_MATCH, handle: () => allow() } },
    { endpoint: JOB_OBSERVER, handler: { match: ILPJ_STATUS_MATCH, handle: () => allow() } },
  ],
  changeKinds: [`${ACJ_API_VERSION}/${ACJ_KIND}`],
  relatedObjects: owningCronJobOf,
};

export { validateAdvancedCronJob } from './validate.js';
export { defaultedAdvancedCronJob } from './defaults.js';
