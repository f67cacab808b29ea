// PersistentPodState: the feature's registration. The pod webhook on mutate-pod (after PUB's, as
// OpenKruise orders them), validation on validate-kruise, the PersistentPodStates the edge holds
// for both. The reconciler (./controller/reconciler.ts) is listed in src/reconcilers.ts. Web APIs only.
import type { Feature } from '../feature.js';
import { persistentPodStatesCollection } from './collections.js';
import { PPS_API_VERSION, PPS_KIND, STATEFULSET_POD_NAME_LABEL } from './types.js';
import { POD_CREATE_MATCH, POD_NEEDS, PPS_MATCH, PPS_NEEDS, steerPodHandler, validatePersistentPodStateHandler } from './webhook.js';

export const persistentPodStateFeature: Feature = {
  name: 'persistentpodstate',
  handlers: [
    { endpoint: 'mutate-pod', handler: { match: POD_CREATE_MATCH, handle: steerPodHandler, needs: POD_NEEDS } },
    { endpoint: 'validate-kruise', handler: { match: PPS_MATCH, handle: validatePersistentPodStateHandler, needs: PPS_NEEDS } },
  ],
  collections: [persistentPodStatesCollection],
  changeKinds: [`${PPS_API_VERSION}/${PPS_KIND}`, 'apps/v1/StatefulSet', 'apps.kruise.io/v1beta1/StatefulSet'],
  // A native StatefulSet's pod getting ready is what gets it recorded: its status change, published
  // for its StatefulSet, runs this reconciler at once on Lambda (a trigger of it). Advanced
  // StatefulSets' pods are published for theirs by the statefulset feature, which triggers it too.
  workloadPods: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', podLabel: STATEFULSET_POD_NAME_LABEL }],
};
