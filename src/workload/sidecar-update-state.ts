// The sidecar in-place update state OpenKruise's SidecarSet controller records on a pod
// (`kruise.io/sidecarset-inplace-update-state`): per SidecarSet, the imageIDs its sidecars ran
// before an in-place update. The SidecarSet controller writes it; PUB reads it too, since a pod
// whose sidecar is still restarting in place is not available. Pure.
import type { Pod } from './pods.js';

export const INPLACE_UPDATE_STATE_ANNOTATION = 'kruise.io/sidecarset-inplace-update-state';
export const INJECTED_LIST_ANNOTATION = 'kruise.io/sidecarset-injected-list';
/** Set to "true" in the env of every container a SidecarSet injected. */
export const ENV_IS_INJECTED = 'IS_INJECTED';

type Annotations = Readonly<Record<string, string>>;

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const isStr = (v: unknown): v is string => typeof v === 'string';

/** InPlaceUpdateState (apis/apps/pub): per SidecarSet, the imageIDs seen before an in-place update. */
export type InPlaceUpdateState = {
  revision: string;
  updateTimestamp: string | null;
  lastContainerStatuses: Record<string, { imageID?: string }>;
};

/** The parsed annotation, or undefined when absent; `invalid` when it is not a JSON object. */
export function readInPlaceUpdateStates(annotations: Annotations | undefined): Record<string, InPlaceUpdateState> | 'invalid' | undefined {
  const text = annotations?.[INPLACE_UPDATE_STATE_ANNOTATION];
  if (text === undefined) return undefined;
  const raw = parseObject(text);
  if (!raw) return 'invalid';
  const out: Record<string, InPlaceUpdateState> = {};
  for (const [name, v] of Object.entries(raw)) {
    const e = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
    const last = (typeof e['lastContainerStatuses'] === 'object' && e['lastContainerStatuses'] !== null ? e['lastContainerStatuses'] : {}) as Record<string, { imageID?: string }>;
    out[name] = { ...(e as object), revision: isStr(e['revision']) ? e['revision'] : '', updateTimestamp: isStr(e['updateTimestamp']) ? e['updateTimestamp'] : null, lastContainerStatuses: last };
  }
  return out;
}

/**
 * IsSidecarContainerUpdateCompleted: for each of `containers`, an imageID recorded before an
 * in-place update that still shows while the spec image differs from the status image means
 * the kubelet has not restarted it yet.
 */
export function isSidecarUpdateCompleted(pod: Pod, setNames: readonly string[], containers: ReadonlySet<string>): boolean {
  const states = readInPlaceUpdateStates(pod.metadata.annotations);
  if (states === undefined) return true;
  if (states === 'invalid') return false;
  const last = new Map<string, string | undefined>();
  for (const name of [...setNames].sort()) {
    for (const [c, s] of Object.entries(states[name]?.lastContainerStatuses ?? {})) last.set(c, s?.imageID);
  }
  const images = new Map(pod.spec.containers.map((c) => [c.name, c.image ?? '']));
  for (const cs of pod.status?.containerStatuses ?? []) {
    if (!containers.has(cs.name) || !last.has(cs.name)) continue;
    if ((last.get(cs.name) ?? '') === (cs.imageID ?? '') && images.get(cs.name) !== (cs.image ?? '')) return false;
  }
  return true;
}
