// BroadcastJob: the feature's registration. Its webhooks (defaulting and validation with
// OpenKruise's defaults, rules and messages), the node observer whose change events run its
// controller on Lambda (shared with the Advanced DaemonSet), and the status changes of its pods
// (labelled `broadcastjob-name` by OpenKruise and by us) that wake its controller. The reconciler
// itself (./controller/reconciler.ts) is listed in src/reconcilers.ts. Web APIs only.
import { allow, type HandlerMatch } from '../admission/types.js';
import type { Feature } from '../feature.js';
import { BROADCASTJOB_API_VERSION, BROADCASTJOB_KIND, JOB_NAME_LABEL } from './types.js';
import { BROADCASTJOB_MATCH, defaultBroadcastJobHandler, validateBroadcastJobHandler } from './webhook.js';

const NODE_MATCH: HandlerMatch = { group: '', kind: 'Node', subResource: '', operations: ['CREATE', 'UPDATE', 'DELETE'] };

export const broadcastJobFeature: Feature = {
  name: 'broadcastjob',
  handlers: [
    { endpoint: 'mutate-broadcastjob', handler: { match: BROADCASTJOB_MATCH, handle: defaultBroadcastJobHandler } },
    { endpoint: 'validate-kruise', handler: { match: BROADCASTJOB_MATCH, handle: validateBroadcastJobHandler } },
    // The observer decides nothing: every node change is allowed, and published (changeKinds).
    { endpoint: 'observe-node', handler: { match: NODE_MATCH, handle: () => allow() } },
  ],
  // An admitted job runs its controller; a node change runs it in full (Lambda: ObjectChanged events).
  changeKinds: [`${BROADCASTJOB_API_VERSION}/${BROADCASTJOB_KIND}`, 'v1/Node'],
  workloadPods: [{ apiVersion: BROADCASTJOB_API_VERSION, kind: BROADCASTJOB_KIND, podLabel: JOB_NAME_LABEL }],
};

export { validateBroadcastJob } from './validate.js';
export { defaultedBroadcastJob } from './defaults.js';
