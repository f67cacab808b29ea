// CloneSet: the feature's registration. So far its webhooks: defaulting and validation
// (OpenKruise's defaults, rules and messages), and the pod status changes of its pods that wake its controller. Web APIs only.
import type { Feature } from '../feature.js';
import { CLONESET_API_VERSION, CLONESET_KIND, INSTANCE_ID_LABEL } from './types.js';
import { defaultCloneSetHandler, VALIDATE_CLONESET_MATCH, validateCloneSetHandler } from './webhook.js';

export const cloneSetFeature: Feature = {
  name: 'cloneset',
  handlers: [
    { endpoint: 'mutate-cloneset', handler: { match: VALIDATE_CLONESET_MATCH, handle: defaultCloneSetHandler } },
    { endpoint: 'validate-kruise', handler: { match: VALIDATE_CLONESET_MATCH, handle: validateCloneSetHandler } },
  ],
  // An admitted CloneSet change runs its controller at once (Lambda: an ObjectChanged event).
  changeKinds: [`${CLONESET_API_VERSION}/${CLONESET_KIND}`],
  workloadPods: [{ apiVersion: CLONESET_API_VERSION, kind: CLONESET_KIND, podLabel: INSTANCE_ID_LABEL }],
};

export { validateCloneSet } from './validate.js';
export { defaultedCloneSet, type CloneSetLike } from './defaults.js';
