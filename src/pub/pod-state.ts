// Is a pod available for the budget? (../shared/SEMANTICS.md §4.4 rule 3, §4.5): ready — Running, Ready,
// not being deleted, no `unavailable-pod.kruise.io/*` label — and consistent — its containers run
// what its spec says (digest images checked against status imageIDs; otherwise no sidecar and no
// OpenKruise in-place update is mid-flight). The generic pod and sidecar predicates are the
// SidecarSet controller's; this file only composes them as OpenKruise's PUB control does. Pure.
import { isSidecarUpdateCompleted, ENV_IS_INJECTED, INJECTED_LIST_ANNOTATION } from '../workload/sidecar-update-state.js';
import { containerImageIDs, isContainerImageEqual, isImageDigest, isRunningAndReady, type Pod } from '../workload/pods.js';
import { hasUnavailableLabel } from './types.js';

export const INPLACE_UPDATE_STATE_ANNOTATION = 'apps.kruise.io/inplace-update-state';
export const INPLACE_UPDATE_GRACE_ANNOTATION = 'apps.kruise.io/inplace-update-grace';

type InPlaceUpdateState = {
  lastContainerStatuses?: Record<string, { imageID?: string } | undefined>;
  nextContainerImages?: Record<string, string>;
  nextContainerRefMetadata?: Record<string, unknown>;
  nextContainerResources?: Record<string, unknown>;
};

export function isPodReadyForBudget(pod: Pod): boolean {
  return isRunningAndReady(pod) && !hasUnavailableLabel(pod.metadata.labels);
}

/** A tag-less image as the kubelet reports it. */
const withDefaultTag = (image: string): string => (image.split(':').length <= 1 ? `${image}:latest` : image);

/** OpenKruise's in-place update (CloneSet, Advanced StatefulSet) is not waiting or mid-way. */
export function isInPlaceUpdateCompleted(pod: Pod): boolean {
  const annotations = pod.metadata.annotations ?? {};
  if (INPLACE_UPDATE_GRACE_ANNOTATION in annotations) return false;
  const raw = annotations[INPLACE_UPDATE_STATE_ANNOTATION];
  if (raw === undefined) return true;
  let state: InPlaceUpdateState;
  try {
    state = JSON.parse(raw) as InPlaceUpdateState;
  } catch {
    return false;
  }
  const pending = [state.nextContainerImages, state.nextContainerRefMetadata, state.nextContainerResources];
  if (pending.some((m) => m && Object.keys(m).length > 0)) return false;
  const images = new Map(pod.spec.containers.map((c) => [c.name, withDefaultTag(c.image ?? '')]));
  for (const cs of pod.status?.containerStatuses ?? []) {
    const last = state.lastContainerStatuses?.[cs.name];
    // The imageID the update started from still shows and the image differs: the kubelet has not restarted it.
    if (last && last.imageID === cs.imageID && images.get(cs.name) !== cs.image) return false;
  }
  return true;
}

/** Sidecar containers (env IS_INJECTED=true) and the SidecarSets named in the injected list. */
function injectedSidecars(pod: Pod): { sets: string[]; containers: Set<string> } {
  const list = pod.metadata.annotations?.[INJECTED_LIST_ANNOTATION] ?? '';
  const sets = list ? list.split(',') : [];
  const containers = new Set(pod.spec.containers.filter((c) => c.env?.some((e) => e.name === ENV_IS_INJECTED && e.value === 'true')).map((c) => c.name));
  return { sets, containers };
}

export function isPodConsistentForBudget(pod: Pod): boolean {
  const ids = containerImageIDs(pod);
  let allDigest = true;
  for (const c of pod.spec.containers) {
    if (!isImageDigest(c.image ?? '')) {
      allDigest = false;
      continue;
    }
    const id = ids.get(c.name);
    if (id === undefined || !isContainerImageEqual(c.image ?? '', id)) return false;
  }
  if (allDigest) return true;
  const { sets, containers } = injectedSidecars(pod);
  if (sets.length > 0 && containers.size > 0 && !isSidecarUpdateCompleted(pod, sets, containers)) return false;
  return isInPlaceUpdateCompleted(pod);
}

/** Counts toward currentAvailable, and spends budget when disrupted. */
export function isPodAvailableForBudget(pod: Pod): boolean {
  return isPodReadyForBudget(pod) && isPodConsistentForBudget(pod);
}
