// The state the PersistentPodState webhooks read: every PersistentPodState, less managedFields.
// The pod webhook reads status.podStates, so status writes are taken through too.
import type { CollectionSpec } from '../edge-state/contracts.js';
import { metaOf } from '../kube/projection.js';
import { PPS_API_VERSION, PPS_KIND } from './types.js';

export const PPS_COLLECTION = 'persistentpodstates';

export const persistentPodStatesCollection: CollectionSpec = {
  name: PPS_COLLECTION,
  apiVersion: PPS_API_VERSION,
  kind: PPS_KIND,
  project: (obj) => {
    const { managedFields: _drop, ...metadata } = metaOf(obj);
    return { ...obj, metadata };
  },
  writesStatus: true,
};
