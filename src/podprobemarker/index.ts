// PodProbeMarker: the feature's registration. Validation on validate-kruise; on mutate-pod, the
// serverless probe annotations (after PersistentPodState's handler, as OpenKruise runs it last);
// the PodProbeMarkers the edge holds for it. The reconciler (./controller/reconciler.ts) is
// listed in src/reconcilers.ts. Web APIs only.
import type { AdmittedRequest } from '../edge-state/admitted.js';
import type { Feature } from '../feature.js';
import { isRecord } from '../kube/validation.js';
import { podProbeMarkersCollection } from './collections.js';
import { POD_PROBE_MARKER_LIST_ANNOTATION, PPM_API_VERSION, PPM_KIND } from './types.js';
import { POD_CREATE_MATCH, POD_NEEDS, PPM_MATCH, injectProbesHandler, validatePodProbeMarkerHandler } from './webhook.js';

/**
 * A pod created with the PodProbeMarkers its webhook listed → those, for the reconciler: on Lambda
 * their runs then come back every probe period while the pod starts and reports its conditions.
 */
export function podProbeMarkersOfPod(a: AdmittedRequest): { apiVersion: string; kind: string; namespace: string; name: string }[] {
  if (a.group !== '' || a.kind !== 'Pod' || a.operation !== 'CREATE' || a.subResource || !isRecord(a.object)) return [];
  const listed = (a.object as { metadata?: { annotations?: Record<string, unknown> } }).metadata?.annotations?.[POD_PROBE_MARKER_LIST_ANNOTATION];
  if (typeof listed !== 'string' || !listed) return [];
  return [...new Set(listed.split(',').filter(Boolean))].map((name) => ({ apiVersion: PPM_API_VERSION, kind: PPM_KIND, namespace: a.namespace, name }));
}

export const podProbeMarkerFeature: Feature = {
  name: 'podprobemarker',
  handlers: [
    { endpoint: 'mutate-pod', handler: { match: POD_CREATE_MATCH, handle: injectProbesHandler, needs: POD_NEEDS } },
    { endpoint: 'validate-kruise', handler: { match: PPM_MATCH, handle: validatePodProbeMarkerHandler } },
  ],
  collections: [podProbeMarkersCollection],
  changeKinds: [`${PPM_API_VERSION}/${PPM_KIND}`],
  relatedObjects: podProbeMarkersOfPod,
};
