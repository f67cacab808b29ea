// PodProbeMarker: the feature's registration. Validation on validate-kruise; on mutate-pod, the
// serverless probe annotations (after PersistentPodState's handler, as OpenKruise runs it last);
// the PodProbeMarkers the edge holds for it. The reconciler (./controller/reconciler.ts) is
// listed in src/reconcilers.ts. Web APIs only.
import type { Feature } from '../feature.js';
import { podProbeMarkersCollection } from './collections.js';
import { PPM_API_VERSION, PPM_KIND } from './types.js';
import { POD_CREATE_MATCH, POD_NEEDS, PPM_MATCH, injectProbesHandler, validatePodProbeMarkerHandler } from './webhook.js';

export const podProbeMarkerFeature: Feature = {
  name: 'podprobemarker',
  handlers: [
    { endpoint: 'mutate-pod', handler: { match: POD_CREATE_MATCH, handle: injectProbesHandler, needs: POD_NEEDS } },
    { endpoint: 'validate-kruise', handler: { match: PPM_MATCH, handle: validatePodProbeMarkerHandler } },
  ],
  collections: [podProbeMarkersCollection],
  changeKinds: [`${PPM_API_VERSION}/${PPM_KIND}`],
};
