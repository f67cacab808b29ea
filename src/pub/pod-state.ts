// Is a pod available for the budget? (../shared/SEMANTICS.md §4.4 rule 3, §4.5): ready — Running, Ready,
// not being deleted, no `unavailable-pod.kruise.io/*` label — and consistent — its containers run
// what its spec says (digest images checked against status imageIDs, and no sidecar and no
// OpenKruise in-place update is mid-flight). The generic pod and sidecar predicates are the
// SidecarSet controller's; this file only composes them as OpenKruise's PUB control does. Pure.
import { isSidecarUpdateCompleted, ENV_IS_INJECTED, INJECTED_LIST_ANNOTATION } from '../workload/sidecar-update-state.js';
import { isPodInPlaceUpdateCompleted } from '../workload/inplace-update-completion.js';
import { isContainerImageEqual, isImageDigest, isRunningAndReady, type Container, type ContainerStatus, type Pod } from '../workload/pods.js';
import { hasUnavailableLabel } from './types.js';

export function isPodReadyForBudget(pod: Pod): boolean {
  return isRunningAndReady(pod) && !hasUnavailableLabel(pod.metadata.labels);
}

/** Sidecar containers (env IS_INJECTED=true) and the SidecarSets named in the injected list. */
function injectedSidecars(pod: Pod): { sets: string[]; containers: Set<string> } {
  const list = pod.metadata.annotations?.[INJECTED_LIST_ANNOTATION] ?? '';
  const sets = list ? list.split(',') : [];
  const containers = new Set(pod.spec.containers.filter((c) => c.env?.some((e) => e.name === ENV_IS_INJECTED && e.value === 'true')).map((c) => c.name));
  return { sets, containers };
}

/**
 * A bare `algorithm:hex` imageID, as containerd may report it: the image config digest, with no
 * repository, so it says nothing about the manifest digest the spec pins (kruise#2570).
 */
const BARE_IMAGE_ID = /^(sha256:[0-9a-f]{64}|sha384:[0-9a-f]{96}|sha512:[0-9a-f]{128})$/;

/** util.GetPodContainerImageIDs over containers and init containers: name → imageID without `scheme://`. */
function imageIDs(pod: Pod): Map<string, string> {
  const statuses = [...(pod.status?.containerStatuses ?? []), ...((pod.status?.['initContainerStatuses'] as ContainerStatus[] | undefined) ?? [])];
  return new Map(statuses.map((s) => [s.name, (s.imageID ?? '').replace(/^[^/]*:\/\//, '')]));
}

/** Containers whose image can be swapped in place: the regular ones and native sidecars (restartable init containers). */
function inPlaceContainers(pod: Pod): Container[] {
  return [...pod.spec.containers, ...(pod.spec.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')];
}

/**
 * IsPodStateConsistent as upstream's fixes for kruise#2570 have it (PRs #2563, #2572): every
 * digest-pinned container (native sidecars included) reports that digest, a bare imageID being
 * inconclusive rather than a mismatch; then, whatever the images, injected sidecars and any
 * in-place update have completed (the digest check no longer ends the test early).
 */
export function isPodConsistentForBudget(pod: Pod): boolean {
  const ids = imageIDs(pod);
  for (const c of inPlaceContainers(pod)) {
    const image = c.image ?? '';
    if (!isImageDigest(image)) continue;
    const id = ids.get(c.name);
    if (id === undefined) return false;
    if (BARE_IMAGE_ID.test(id)) continue;
    if (!isContainerImageEqual(image, id)) return false;
  }
  const { sets, containers } = injectedSidecars(pod);
  if (sets.length > 0 && containers.size > 0 && !isSidecarUpdateCompleted(pod, sets, containers)) return false;
  return isPodInPlaceUpdateCompleted(pod);
}

/** Counts toward currentAvailable, and spends budget when disrupted. */
export function isPodAvailableForBudget(pod: Pod): boolean {
  return isPodReadyForBudget(pod) && isPodConsistentForBudget(pod);
}
