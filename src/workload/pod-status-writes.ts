// What a pod status write does to the pod, for decisions that chain a second write on it: pods/status
// takes labels and annotations too (only spec and owner references are kept from the stored pod),
// so a lifecycle move or an in-place start can ride on a condition change. Pure.
import type { StatusWrite } from '../reconcile/types.js';
import type { Pod } from './pods.js';

/** `have` with a merge patch's keys set, or removed where the patch says null. */
function merged(have: Record<string, string> | undefined, patch: Record<string, string | null> | undefined): Record<string, string> | undefined {
  if (!patch) return have;
  const out = { ...(have ?? {}) };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = v;
  }
  return out;
}

/** The pod as it will be once `write` (a pod status write, with its metadata) has landed. */
export function afterStatusWrite(pod: Pod, write: StatusWrite): Pod {
  const conditions = write.status['conditions'] as NonNullable<Pod['status']>['conditions'] | undefined;
  const labels = merged(pod.metadata.labels, write.metadata?.labels);
  const annotations = merged(pod.metadata.annotations, write.metadata?.annotations);
  return {
    ...pod,
    metadata: { ...pod.metadata, ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) },
    status: { ...(pod.status ?? {}), ...(conditions ? { conditions } : {}) },
  };
}

/**
 * The labels and annotations `next` sets on `pod`, when that is all it changes (nothing removed,
 * no other field): what a pod status write can carry along. Undefined otherwise.
 */
export function metadataOnlyChange(pod: Pod, next: Pod): StatusWrite['metadata'] | undefined {
  const { labels: l0, annotations: a0, ...rest0 } = pod.metadata;
  const { labels: l1, annotations: a1, ...rest1 } = next.metadata;
  if (JSON.stringify(rest0) !== JSON.stringify(rest1) || JSON.stringify(pod.spec) !== JSON.stringify(next.spec)) return undefined;
  const changed = (from: Record<string, string> = {}, to: Record<string, string> = {}): Record<string, string> | false => {
    if (Object.keys(from).some((k) => !(k in to))) return false;
    return Object.fromEntries(Object.entries(to).filter(([k, v]) => from[k] !== v));
  };
  const labels = changed(l0, l1);
  const annotations = changed(a0, a1);
  if (labels === false || annotations === false) return undefined;
  return { ...(Object.keys(labels).length ? { labels } : {}), ...(Object.keys(annotations).length ? { annotations } : {}) };
}
