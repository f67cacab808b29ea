// Advanced StatefulSet: the feature's registration. Its webhooks, defaulting and validation
// for apps.kruise.io v1beta1 and v1alpha1 (OpenKruise's defaults, rules and messages), the changes
// that wake its controller, and the status changes of its pods. Web APIs only.
import type { Feature } from '../feature.js';
import { POD_NAME_LABEL, STATEFULSET_API_VERSION, STATEFULSET_KIND } from './types.js';
import { defaultStatefulSetHandler, STATEFULSET_GROUP, STATEFULSET_MATCH, validateStatefulSetHandler } from './webhook.js';

const V1ALPHA1 = `${STATEFULSET_GROUP}/v1alpha1`;

export const statefulSetFeature: Feature = {
  name: 'statefulset',
  handlers: [
    { endpoint: 'mutate-statefulset', handler: { match: STATEFULSET_MATCH, handle: defaultStatefulSetHandler } },
    { endpoint: 'validate-kruise', handler: { match: STATEFULSET_MATCH, handle: validateStatefulSetHandler } },
  ],
  // An admitted change in either version runs the controller at once (Lambda: an ObjectChanged event).
  changeKinds: [`${STATEFULSET_API_VERSION}/${STATEFULSET_KIND}`, `${V1ALPHA1}/${STATEFULSET_KIND}`],
  // Pods of native (apps/v1) StatefulSets match the label too; their owner's group keeps them out.
  workloadPods: [{ apiVersion: STATEFULSET_API_VERSION, kind: STATEFULSET_KIND, podLabel: POD_NAME_LABEL }],
};

export { validateStatefulSet, inPlaceOnlyChange } from './validate.js';
export { defaultedStatefulSet, type StatefulSetLike } from './defaults.js';
