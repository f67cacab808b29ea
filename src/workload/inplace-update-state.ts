// The in-place update state OpenKruise records on a pod (apis/apps/pub/inplace_update.go
// InPlaceUpdateState), in the annotation `apps.kruise.io/inplace-update-state` (read from the legacy
// `inplace-update-state` when the new key is absent). Written exactly as Go's encoding/json writes
// the struct: fields in declaration order, `omitempty` honoured, map keys sorted, metav1.Time as
// RFC 3339 UTC seconds (a zero time as null). Pure, Web APIs only.
import { byCodePoint, goJSON, goString } from '../kube/go-json.js';
import { canonicalQuantity } from '../kube/quantity.js';
import { rfc3339 } from './pods.js';

export const INPLACE_UPDATE_READY = 'InPlaceUpdateReady';
export const INPLACE_UPDATE_STATE_KEY = 'apps.kruise.io/inplace-update-state';
export const INPLACE_UPDATE_STATE_KEY_OLD = 'inplace-update-state';

export type ResourceRequirements = {
  limits?: Record<string, string>;
  requests?: Record<string, string>;
  claims?: { name: string; request?: string }[];
};

export type RefMetadata = { labels?: Record<string, string>; annotations?: Record<string, string> };

export type InPlaceUpdateState = {
  revision: string;
  /** RFC 3339; null for Go's zero time. */
  updateTimestamp: string | null;
  /** Container → the imageID it ran before the update; null when no image changed (Go's nil map). */
  lastContainerStatuses: Record<string, { imageID?: string }> | null;
  updateEnvFromMetadata?: boolean;
  updateResources?: boolean;
  updateImages?: boolean;
  nextContainerImages?: Record<string, string>;
  nextContainerRefMetadata?: Record<string, RefMetadata>;
  nextContainerResources?: Record<string, ResourceRequirements>;
  preCheckBeforeNext?: { containersRequiredReady?: string[] } | null;
  containerBatchesRecord?: { timestamp: string | null; containers: string[] | null }[];
};

type Annotations = Readonly<Record<string, string>> | undefined;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strMap = (v: unknown): Record<string, string> | undefined =>
  isObject(v) ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === 'string')) : undefined;
const strList = (v: unknown): string[] | null => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null);
const time = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The recorded state: undefined when neither key is set, 'invalid' when it is not a JSON object. */
export function readInPlaceUpdateState(annotations: Annotations): InPlaceUpdateState | 'invalid' | undefined {
  const text = annotations?.[INPLACE_UPDATE_STATE_KEY] ?? annotations?.[INPLACE_UPDATE_STATE_KEY_OLD];
  if (text === undefined) return undefined;
  const o = parseJsonObject(text);
  if (!o) return 'invalid';
  const state: InPlaceUpdateState = {
    revision: str(o['revision']),
    updateTimestamp: time(o['updateTimestamp']),
    lastContainerStatuses: isObject(o['lastContainerStatuses'])
      ? Object.fromEntries(
          Object.entries(o['lastContainerStatuses']).map(([k, v]) => [k, isObject(v) && typeof v['imageID'] === 'string' ? { imageID: v['imageID'] } : {}]),
        )
      : null,
  };
  if (o['updateEnvFromMetadata'] === true) state.updateEnvFromMetadata = true;
  if (o['updateResources'] === true) state.updateResources = true;
  if (o['updateImages'] === true) state.updateImages = true;
  const nextImages = strMap(o['nextContainerImages']);
  if (nextImages) state.nextContainerImages = nextImages;
  if (isObject(o['nextContainerRefMetadata'])) {
    state.nextContainerRefMetadata = Object.fromEntries(
      Object.entries(o['nextContainerRefMetadata']).map(([k, v]) => {
        const m = isObject(v) ? v : {};
        const ref: RefMetadata = {};
        const labels = strMap(m['labels']);
        const annotations = strMap(m['annotations']);
        if (labels) ref.labels = labels;
        if (annotations) ref.annotations = annotations;
        return [k, ref];
      }),
    );
  }
  if (isObject(o['nextContainerResources'])) state.nextContainerResources = o['nextContainerResources'] as Record<string, ResourceRequirements>;
  if (isObject(o['preCheckBeforeNext'])) {
    const ready = strList(o['preCheckBeforeNext']['containersRequiredReady']);
    state.preCheckBeforeNext = ready ? { containersRequiredReady: ready } : {};
  }
  if (Array.isArray(o['containerBatchesRecord'])) {
    state.containerBatchesRecord = o['containerBatchesRecord'].map((b) => ({
      timestamp: time(isObject(b) ? b['timestamp'] : undefined),
      containers: strList(isObject(b) ? b['containers'] : undefined),
    }));
  }
  return state;
}

/** metav1.Time as Go writes it: RFC 3339 in UTC, whole seconds; zero (null) as null. */
export function goTime(t: string | null | undefined): string {
  if (!t) return 'null';
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? goString(t) : goString(rfc3339(new Date(Math.floor(ms / 1000) * 1000)));
}

/** A Go map[string]T: sorted keys; a nil map as null. */
function goMap<T>(m: Readonly<Record<string, T>> | null | undefined, value: (v: T) => string): string {
  if (!m) return 'null';
  const keys = Object.keys(m).sort(byCodePoint);
  return `{${keys.map((k) => `${goString(k)}:${value(m[k]!)}`).join(',')}}`;
}

const goStrings = (l: readonly string[] | null | undefined) => (l ? `[${l.map(goString).join(',')}]` : 'null');
const nonEmpty = (m: object | null | undefined): boolean => !!m && Object.keys(m).length > 0;

/** metav1.ObjectMeta holding only labels/annotations: creationTimestamp (a struct) is always written. */
function goRefMetadata(m: RefMetadata): string {
  const parts = ['"creationTimestamp":null'];
  if (nonEmpty(m.labels)) parts.push(`"labels":${goJSON(m.labels)}`);
  if (nonEmpty(m.annotations)) parts.push(`"annotations":${goJSON(m.annotations)}`);
  return `{${parts.join(',')}}`;
}

function goResources(r: ResourceRequirements): string {
  const parts: string[] = [];
  const quantities = (m: Record<string, string>) => goMap(m, (q) => goString(canonicalQuantity(q)));
  if (nonEmpty(r.limits)) parts.push(`"limits":${quantities(r.limits!)}`);
  if (nonEmpty(r.requests)) parts.push(`"requests":${quantities(r.requests!)}`);
  if (r.claims && r.claims.length > 0) {
    const claim = (c: { name: string; request?: string }) => `{"name":${goString(c.name)}${c.request ? `,"request":${goString(c.request)}` : ''}}`;
    parts.push(`"claims":[${r.claims.map(claim).join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

/** json.Marshal(InPlaceUpdateState), byte for byte. */
export function writeInPlaceUpdateState(state: InPlaceUpdateState): string {
  const parts = [
    `"revision":${goString(state.revision)}`,
    `"updateTimestamp":${goTime(state.updateTimestamp)}`,
    `"lastContainerStatuses":${goMap(state.lastContainerStatuses, (s) => (s.imageID ? `{"imageID":${goString(s.imageID)}}` : '{}'))}`,
  ];
  if (state.updateEnvFromMetadata) parts.push('"updateEnvFromMetadata":true');
  if (state.updateResources) parts.push('"updateResources":true');
  if (state.updateImages) parts.push('"updateImages":true');
  if (nonEmpty(state.nextContainerImages)) parts.push(`"nextContainerImages":${goJSON(state.nextContainerImages)}`);
  if (nonEmpty(state.nextContainerRefMetadata)) parts.push(`"nextContainerRefMetadata":${goMap(state.nextContainerRefMetadata, goRefMetadata)}`);
  if (nonEmpty(state.nextContainerResources)) parts.push(`"nextContainerResources":${goMap(state.nextContainerResources, goResources)}`);
  if (state.preCheckBeforeNext) {
    const ready = state.preCheckBeforeNext.containersRequiredReady;
    parts.push(`"preCheckBeforeNext":{${ready && ready.length > 0 ? `"containersRequiredReady":${goStrings(ready)}` : ''}}`);
  }
  if (state.containerBatchesRecord && state.containerBatchesRecord.length > 0) {
    const batch = (b: { timestamp: string | null; containers: string[] | null }) => `{"timestamp":${goTime(b.timestamp)},"containers":${goStrings(b.containers)}}`;
    parts.push(`"containerBatchesRecord":[${state.containerBatchesRecord.map(batch).join(',')}]`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * The annotations to write with a new state: the new key set, the legacy key dropped (OpenKruise
 * deletes it whenever it writes the state).
 */
export function withInPlaceUpdateState(annotations: Annotations, state: InPlaceUpdateState): Record<string, string> {
  const out: Record<string, string> = { ...(annotations ?? {}) };
  delete out[INPLACE_UPDATE_STATE_KEY_OLD];
  out[INPLACE_UPDATE_STATE_KEY] = writeInPlaceUpdateState(state);
  return out;
}
