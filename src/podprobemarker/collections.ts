// The state the PodProbeMarker webhooks read: every PodProbeMarker, its spec only (the pod webhook
// matches selectors and copies probes; validation needs nothing else).
import type { CollectionSpec } from '../edge-state/contracts.js';
import { metaOf } from '../kube/projection.js';
import { PPM_API_VERSION, PPM_KIND } from './types.js';

export const PPM_COLLECTION = 'podprobemarkers';

export const podProbeMarkersCollection: CollectionSpec = {
  name: PPM_COLLECTION,
  apiVersion: PPM_API_VERSION,
  kind: PPM_KIND,
  project: (obj) => {
    const { name, namespace, uid } = metaOf(obj);
    return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: { name, namespace, uid }, spec: obj.spec };
  },
};
