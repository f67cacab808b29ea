// Advanced DaemonSet: the feature's registration. Its webhooks (defaulting and validation with
// OpenKruise's defaults, rules and messages), the node observer whose change events run its
// controller on Lambda, and the pod status changes of its pods that wake its controller. The
// reconciler itself (./controller/reconciler.ts) is listed in src/reconcilers.ts. Web APIs only.
import { allow, type HandlerMatch } from '../admission/types.js';
import type { Feature } from '../feature.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND, DAEMONSET_NAME_LABEL } from './types.js';
import { DAEMONSET_MATCH, defaultDaemonSetHandler, validateDaemonSetHandler } from './webhook.js';

const NODE_MATCH: HandlerMatch = { group: '', kind: 'Node', subResource: '', operations: ['CREATE', 'UPDATE', 'DELETE'] };

export const daemonSetFeature: Feature = {
  name: 'daemonset',
  handlers: [
    { endpoint: 'mutate-daemonset', handler: { match: DAEMONSET_MATCH, handle: defaultDaemonSetHandler } },
    { endpoint: 'validate-kruise', handler: { match: DAEMONSET_MATCH, handle: validateDaemonSetHandler } },
    // The observer decides nothing: every node change is allowed, and published (changeKinds).
    { endpoint: 'observe-node', handler: { match: NODE_MATCH, handle: () => allow() } },
  ],
  // An admitted DaemonSet change runs its controller; a node change runs it in full (Lambda: ObjectChanged events).
  changeKinds: [`${DAEMONSET_API_VERSION}/${DAEMONSET_KIND}`, 'v1/Node'],
  workloadPods: [{ apiVersion: DAEMONSET_API_VERSION, kind: DAEMONSET_KIND, podLabel: DAEMONSET_NAME_LABEL }],
};

export { validateDaemonSet } from './validate.js';
export { defaultedDaemonSet } from './defaults.js';
