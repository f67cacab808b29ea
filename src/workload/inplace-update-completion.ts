// When an in-place update has finished (pkg/util/inplaceupdate/inplace_update_defaults.go
// DefaultCheckInPlaceUpdateCompleted / defaultCheckContainersInPlaceUpdateCompleted).
//
// The state records the imageID each updated container ran before the update. The update is done
// when every such container reports a different imageID, or the same imageID while its status
// image equals the spec image (a new tag of the same image: the kubelet restarted it anyway). A
// spec image without any `:` is compared as `<image>:latest`. A recorded container with no status
// is not done.
//
// Departure (kruise#2297, left open upstream): a new tag of the same digest keeps the imageID, and
// the runtime may name the image by its old tag, so OpenKruise waits for ever. Here such a
// container is also done once it has been restarted since its batch was patched (the kubelet
// starts a container from the current spec, so a container started after the patch runs the new
// image): it started in a later second than the batch record's timestamp, or in that second with
// the container before it terminated in that second too (both times are whole seconds). OpenKruise also accepts the container hashes its node agent reports
// (`apps.kruise.io/runtime-containers-meta`); there is no agent here, so image IDs decide, also for
// a state left by an OpenKruise whose agent restarted env-from-metadata containers. Pure.
import { INPLACE_UPDATE_GRACE_KEY, INPLACE_UPDATE_GRACE_KEY_OLD } from './inplace-update-grace.js';
import { readInPlaceUpdateState, type InPlaceUpdateState } from './inplace-update-state.js';
import type { ContainerStatus, Pod } from './pods.js';

const seconds = (t: unknown): number | undefined => {
  const ms = typeof t === 'string' ? Date.parse(t) : NaN;
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
};
const field = (o: unknown, key: string): unknown => (typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[key] : undefined);

/** When `container` was last patched: the timestamp of the latest batch record naming it. */
function patchedAt(state: InPlaceUpdateState, container: string): number | undefined {
  const batches = (state.containerBatchesRecord ?? []).filter((b) => b.containers?.includes(container));
  return seconds(batches[batches.length - 1]?.timestamp);
}

/** The container was (re)started from the pod spec after it was patched at `patched` (whole seconds). */
function restartedSince(cs: ContainerStatus, patched: number | undefined): boolean {
  if (patched === undefined) return false;
  const started = seconds(field(field(cs['state'], 'running'), 'startedAt'));
  if (started === undefined || started < patched) return false;
  if (started > patched) return true;
  const previousEnded = seconds(field(field(cs['lastState'], 'terminated'), 'finishedAt'));
  return previousEnded !== undefined && previousEnded >= patched;
}

/** Why the updated containers are not all running the new image yet; undefined when they are. */
export function inPlaceUpdatePendingReason(pod: Pod, state: InPlaceUpdateState): string | undefined {
  const specImages = new Map<string, string>();
  for (const c of pod.spec.containers) {
    const image = c.image ?? '';
    specImages.set(c.name, image.includes(':') ? image : `${image}:latest`);
  }
  const waiting = new Set(Object.keys(state.lastContainerStatuses ?? {}));
  for (const cs of pod.status?.containerStatuses ?? []) {
    if (!waiting.has(cs.name)) continue;
    const before = state.lastContainerStatuses?.[cs.name]?.imageID ?? '';
    const sameImageID = before === (cs.imageID ?? '');
    if (sameImageID && (specImages.get(cs.name) ?? '') !== (cs.image ?? '') && !restartedSince(cs, patchedAt(state, cs.name))) {
      return `container ${cs.name} imageID not changed`;
    }
    waiting.delete(cs.name);
  }
  if (waiting.size > 0) return `no status yet for containers ${[...waiting].sort().join(', ')}`;
  return undefined;
}

/** Every container the update changed runs its new image. */
export function isInPlaceUpdateCompleted(pod: Pod, state: InPlaceUpdateState): boolean {
  return inPlaceUpdatePendingReason(pod, state) === undefined;
}

/** Containers OpenKruise still has to update in a later batch (container launch priorities). */
export function hasNextBatch(state: InPlaceUpdateState): boolean {
  const n = (m: object | undefined) => (m ? Object.keys(m).length : 0);
  return n(state.nextContainerImages) + n(state.nextContainerRefMetadata) + n(state.nextContainerResources) > 0;
}

/**
 * The pod's in-place update, whole: no grace period pending, no later batch, and every updated
 * container on its new image. A pod that never had an in-place update is complete.
 */
export function isPodInPlaceUpdateCompleted(pod: Pod): boolean {
  const annotations = pod.metadata.annotations ?? {};
  if (INPLACE_UPDATE_GRACE_KEY in annotations || INPLACE_UPDATE_GRACE_KEY_OLD in annotations) return false;
  const state = readInPlaceUpdateState(annotations);
  if (state === undefined) return true;
  if (state === 'invalid' || hasNextBatch(state)) return false;
  return isInPlaceUpdateCompleted(pod, state);
}
