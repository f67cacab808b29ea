// The PodProbeMarker webhooks: on validate-kruise, the object is validated (400 with OpenKruise's
// messages); on mutate-pod (CREATE), a pod gets the probes of the PodProbeMarkers that select it
// (./inject.ts), which the edge holds.
import type { PodProbeMarker } from '../api/apps/podprobemarker.js';
import { allow, deny, type AdmissionHandler, type HandlerMatch, type StateNeeds } from '../admission/types.js';
import type { ClusterState } from '../edge-state/contracts.js';
import { isRecord } from '../kube/validation.js';
import { PPM_COLLECTION } from './collections.js';
import { probeAnnotations } from './inject.js';
import { markersForPod } from './select.js';
import { PPM_GROUP, PPM_KIND } from './types.js';
import { validatePodProbeMarker } from './validate.js';

export const POD_CREATE_MATCH: HandlerMatch = { group: '', kind: 'Pod', resource: 'pods', subResource: '', operations: ['CREATE'] };
export const PPM_MATCH: HandlerMatch = { group: PPM_GROUP, kind: PPM_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] };

/** A pod is admitted without the probe annotations if the state is missing (its markers still apply: the reconciler reads conditions). */
export const POD_NEEDS: StateNeeds = { collections: [PPM_COLLECTION], maxStalenessMs: 5 * 60_000, fallback: 'last-known', withoutState: 'allow' };

async function markersOf(state: ClusterState): Promise<PodProbeMarker[]> {
  const snap = await state.collection<PodProbeMarker>(PPM_COLLECTION);
  return (snap?.items ?? []).filter((p) => isRecord(p) && isRecord(p.metadata));
}

type PodLike = { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Parameters<typeof probeAnnotations>[0] };

export const injectProbesHandler: AdmissionHandler = async (req, state) => {
  const pod = req.object;
  if (!isRecord(pod)) return allow();
  const p = pod as PodLike;
  const added = probeAnnotations(p.spec, markersForPod(p, req.namespace, await markersOf(state)));
  if (!added) return allow();
  return allow({ ...pod, metadata: { ...(p.metadata ?? {}), annotations: { ...(p.metadata?.annotations ?? {}), ...added } } });
};

export const validatePodProbeMarkerHandler: AdmissionHandler = (req) => {
  const obj = req.object;
  if (!isRecord(obj)) return deny(400, 'the admission request carries no PodProbeMarker');
  const old = req.operation === 'UPDATE' && isRecord(req.oldObject) ? (req.oldObject as PodProbeMarker) : undefined;
  const err = validatePodProbeMarker(obj as PodProbeMarker, old);
  return err ? deny(400, err) : allow();
};
