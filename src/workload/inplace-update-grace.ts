// The pending in-place update held during `inPlaceUpdateStrategy.gracePeriodSeconds`: OpenKruise
// marks the pod not ready, records the state, and stores the update it will apply once the grace
// period has passed in the annotation `apps.kruise.io/inplace-update-grace` (legacy key
// `inplace-update-grace`) as its UpdateSpec struct in JSON (pkg/util/inplaceupdate/inplace_update.go):
// `revision`, then, each omitted when empty, `containerImages`, `containerRefMetadata`,
// `containerResources`, `metaDataPatch` (a strategic merge patch of the pod's metadata; a Go
// []byte, so base64 in JSON), `updateEnvFromMetadata`, `graceSeconds`. Pure, Web APIs only.
import { goJSON, goString } from '../kube/go-json.js';
import type { InPlaceUpdateSpec, MapChange, MetadataChange } from './inplace-update.js';
import { parseJsonObject, type RefMetadata } from './inplace-update-state.js';

export const INPLACE_UPDATE_GRACE_KEY = 'apps.kruise.io/inplace-update-grace';
export const INPLACE_UPDATE_GRACE_KEY_OLD = 'inplace-update-grace';

export type InPlaceUpdateGrace = {
  revision: string;
  graceSeconds: number;
  spec: InPlaceUpdateSpec;
  /** Set by an OpenKruise with its node agent; kept so a takeover can tell. */
  updateEnvFromMetadata?: boolean;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (m: object) => Object.keys(m).length > 0;

function base64(text: string): string {
  let bin = '';
  for (const b of new TextEncoder().encode(text)) bin += String.fromCharCode(b);
  return btoa(bin);
}

function unbase64(b64: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

const mapPatch = (c: MapChange): Record<string, string | null> => ({ ...c.set, ...Object.fromEntries(c.removed.map((k) => [k, null])) });

/**
 * The strategic merge patch OpenKruise computes between the two templates' metadata
 * (strategicpatch.CreateTwoWayMergePatch), as Go writes it; undefined when nothing changes.
 * `finalizers` merges as a list of strings: deletions and the new order are directives.
 */
export function metadataPatchJson(m: MetadataChange): string | undefined {
  const meta: Record<string, unknown> = {};
  if (nonEmpty(m.labels.set) || m.labels.removed.length > 0) meta['labels'] = mapPatch(m.labels);
  if (nonEmpty(m.annotations.set) || m.annotations.removed.length > 0) meta['annotations'] = mapPatch(m.annotations);
  const f = m.finalizers;
  if (f.order !== null) {
    if (f.order.length === 0) meta['finalizers'] = null;
    else if (f.removed.length === 0 && f.added.length === f.order.length) meta['finalizers'] = f.added;
    else {
      if (f.removed.length > 0) meta['$deleteFromPrimitiveList/finalizers'] = f.removed;
      meta['$setElementOrder/finalizers'] = f.order;
      if (f.added.length > 0) meta['finalizers'] = f.added;
    }
  }
  return nonEmpty(meta) ? goJSON({ metadata: meta }) : undefined;
}

function mapChangeOf(v: unknown): MapChange {
  const set: Record<string, string> = {};
  const removed: string[] = [];
  if (isObject(v)) {
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string') set[k] = x;
      else if (x === null) removed.push(k);
    }
  }
  return { set, removed: removed.sort() };
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The metadata change a patch written by metadataPatchJson (or OpenKruise) describes. */
export function metadataChangeOf(patch: unknown): MetadataChange {
  const meta = isObject(patch) && isObject(patch['metadata']) ? patch['metadata'] : {};
  const order = meta['$setElementOrder/finalizers'];
  const finalizers: MetadataChange['finalizers'] =
    meta['finalizers'] === null
      ? { added: [], removed: [], order: [] }
      : {
          added: strings(meta['finalizers']),
          removed: strings(meta['$deleteFromPrimitiveList/finalizers']),
          order: Array.isArray(order) ? strings(order) : Array.isArray(meta['finalizers']) ? strings(meta['finalizers']) : null,
        };
  return { labels: mapChangeOf(meta['labels']), annotations: mapChangeOf(meta['annotations']), finalizers };
}

/** json.Marshal(UpdateSpec) for a spec of images and metadata, byte for byte. */
export function encodeInPlaceUpdateGrace(spec: InPlaceUpdateSpec, revision: string, graceSeconds: number): string {
  const parts = [`"revision":${goString(revision)}`];
  if (nonEmpty(spec.images)) parts.push(`"containerImages":${goJSON(spec.images)}`);
  const patch = metadataPatchJson(spec.metadata);
  if (patch !== undefined) parts.push(`"metaDataPatch":${goString(base64(patch))}`);
  if (graceSeconds !== 0) parts.push(`"graceSeconds":${Math.trunc(graceSeconds)}`);
  return `{${parts.join(',')}}`;
}

function mergeRefMetadata(into: MetadataChange, ref: Record<string, RefMetadata>): void {
  for (const m of Object.values(ref)) {
    Object.assign(into.labels.set, m.labels ?? {});
    Object.assign(into.annotations.set, m.annotations ?? {});
  }
}

/** The pending update: undefined when neither key is set, 'invalid' when unreadable. */
export function readInPlaceUpdateGrace(annotations: Readonly<Record<string, string>> | undefined): InPlaceUpdateGrace | 'invalid' | undefined {
  const text = annotations?.[INPLACE_UPDATE_GRACE_KEY] ?? annotations?.[INPLACE_UPDATE_GRACE_KEY_OLD];
  if (text === undefined) return undefined;
  const o = parseJsonObject(text);
  if (!o) return 'invalid';
  let patch: unknown = undefined;
  if (typeof o['metaDataPatch'] === 'string') {
    const decoded = unbase64(o['metaDataPatch']);
    patch = decoded === undefined ? undefined : parseJsonObject(decoded);
    if (!patch) return 'invalid';
  }
  const images: Record<string, string> = {};
  if (isObject(o['containerImages'])) for (const [k, v] of Object.entries(o['containerImages'])) if (typeof v === 'string') images[k] = v;
  const metadata = metadataChangeOf(patch);
  // Labels/annotations OpenKruise held back for env-from-metadata containers still go on the pod.
  if (isObject(o['containerRefMetadata'])) mergeRefMetadata(metadata, o['containerRefMetadata'] as Record<string, RefMetadata>);
  const grace: InPlaceUpdateGrace = {
    revision: typeof o['revision'] === 'string' ? o['revision'] : '',
    graceSeconds: typeof o['graceSeconds'] === 'number' ? o['graceSeconds'] : 0,
    spec: { kind: 'in-place', images, metadata },
  };
  if (o['updateEnvFromMetadata'] === true) grace.updateEnvFromMetadata = true;
  return grace;
}

/** Annotations without the grace keys (OpenKruise's RemoveInPlaceUpdateGrace). */
export function withoutInPlaceUpdateGrace(annotations: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out = { ...(annotations ?? {}) };
  delete out[INPLACE_UPDATE_GRACE_KEY];
  delete out[INPLACE_UPDATE_GRACE_KEY_OLD];
  return out;
}
