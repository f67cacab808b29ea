// Applying an in-place update to a pod (pkg/util/inplaceupdate/inplace_update_defaults.go
// defaultPatchUpdateSpecToPod): the metadata change goes on, each changed container gets its new
// image, the state records the imageID each of those containers ran until now (kept if already
// recorded) and appends a batch `{timestamp, containers}` naming the containers patched.
//
// OpenKruise patches containers in batches by container launch priority; all containers here are
// patched in one batch. A state left with later batches (`nextContainer*`) by OpenKruise is
// finished in one batch too, once the containers it waits on are ready. Pure.
import type { InPlaceUpdateSpec, MetadataChange } from './inplace-update.js';
import { withInPlaceUpdateState, type InPlaceUpdateState } from './inplace-update-state.js';
import { rfc3339, type Pod } from './pods.js';

function applyMap(current: Readonly<Record<string, string>> | undefined, set: Record<string, string>, removed: readonly string[]): Record<string, string> {
  const out = { ...(current ?? {}), ...set };
  for (const k of removed) delete out[k];
  return out;
}

/** The pod's metadata with the template's label/annotation/finalizer changes merged in. */
export function applyMetadataChange(pod: Pod, m: MetadataChange): Pod['metadata'] {
  const meta: Pod['metadata'] = {
    ...pod.metadata,
    labels: applyMap(pod.metadata.labels, m.labels.set, m.labels.removed),
    annotations: applyMap(pod.metadata.annotations, m.annotations.set, m.annotations.removed),
  };
  if (m.finalizers.order !== null) {
    const current = Array.isArray(pod.metadata['finalizers']) ? (pod.metadata['finalizers'] as string[]) : [];
    // An empty new list is a `finalizers: null` patch: the list goes.
    const kept = m.finalizers.order.length === 0 ? [] : current.filter((f) => !m.finalizers.removed.includes(f));
    const next = [...kept, ...m.finalizers.added.filter((f) => !kept.includes(f))];
    if (next.length > 0) meta['finalizers'] = next;
    else delete meta['finalizers'];
  }
  return meta;
}

/**
 * `pod` with `spec` applied and `state` advanced: images, metadata, the imageIDs before, and the
 * batch record; later batches and their pre-check cleared.
 */
export function applyInPlaceUpdate(pod: Pod, spec: InPlaceUpdateSpec, state: InPlaceUpdateState, now: Date): Pod {
  const metadata = applyMetadataChange(pod, spec.metadata);
  const patched: string[] = [];
  const containers = pod.spec.containers.map((c) => {
    const image = spec.images[c.name];
    if (image === undefined) return c;
    patched.push(c.name);
    return { ...c, image };
  });
  let lastOut: Record<string, { imageID?: string }> | null = state.lastContainerStatuses ? { ...state.lastContainerStatuses } : null;
  for (const cs of pod.status?.containerStatuses ?? []) {
    if (!patched.includes(cs.name)) continue;
    lastOut ??= {};
    if (!(cs.name in lastOut)) lastOut[cs.name] = cs.imageID ? { imageID: cs.imageID } : {};
  }
  const next: InPlaceUpdateState = {
    ...state,
    lastContainerStatuses: lastOut,
    containerBatchesRecord: [...(state.containerBatchesRecord ?? []), { timestamp: rfc3339(now), containers: [...patched].sort() }],
  };
  delete next.nextContainerImages;
  delete next.nextContainerRefMetadata;
  delete next.nextContainerResources;
  delete next.preCheckBeforeNext;
  return {
    ...pod,
    metadata: { ...metadata, annotations: withInPlaceUpdateState(metadata.annotations, next) },
    spec: { ...pod.spec, containers },
  };
}

/** The update OpenKruise left for later batches, as one spec (its resources are not applied). */
export function nextBatchSpec(state: InPlaceUpdateState): InPlaceUpdateSpec {
  const labels: Record<string, string> = {};
  const annotations: Record<string, string> = {};
  for (const m of Object.values(state.nextContainerRefMetadata ?? {})) {
    Object.assign(labels, m.labels ?? {});
    Object.assign(annotations, m.annotations ?? {});
  }
  return {
    kind: 'in-place',
    images: { ...(state.nextContainerImages ?? {}) },
    metadata: {
      labels: { set: labels, removed: [] },
      annotations: { set: annotations, removed: [] },
      finalizers: { added: [], removed: [], order: null },
    },
  };
}
