// ImagePullJob: the feature's registration. Its webhooks (defaulting and validation with
// OpenKruise's defaults, rules and messages), the node observer whose change events run its
// controller on Lambda (shared with the other per-node workloads), and the status changes of its
// pull pods (labelled with the job's name) that wake its controller. The reconciler itself
// (./controller/reconciler.ts) is listed in src/reconcilers.ts. Web APIs only.
import { allow, type HandlerMatch } from '../admission/types.js';
import type { Feature } from '../feature.js';
import { IMAGEPULLJOB_API_VERSION, IMAGEPULLJOB_KIND, JOB_NAME_LABEL } from './types.js';
import { IMAGEPULLJOB_MATCH, defaultImagePullJobHandler, validateImagePullJobHandler } from './webhook.js';

const NODE_MATCH: HandlerMatch = { group: '', kind: 'Node', subResource: '', operations: ['CREATE', 'UPDATE', 'DELETE'] };

export const imagePullJobFeature: Feature = {
  name: 'imagepulljob',
  handlers: [
    { endpoint: 'mutate-imagepulljob', handler: { match: IMAGEPULLJOB_MATCH, handle: defaultImagePullJobHandler } },
    { endpoint: 'validate-kruise', handler: { match: IMAGEPULLJOB_MATCH, handle: validateImagePullJobHandler } },
    { endpoint: 'observe-node', handler: { match: NODE_MATCH, handle: () => allow() } },
  ],
  changeKinds: [`${IMAGEPULLJOB_API_VERSION}/${IMAGEPULLJOB_KIND}`, 'v1/Node'],
  workloadPods: [{ apiVersion: IMAGEPULLJOB_API_VERSION, kind: IMAGEPULLJOB_KIND, podLabel: JOB_NAME_LABEL }],
};

export { validateImagePullJob } from './validate.js';
export { defaultedImagePullJob } from './defaults.js';
