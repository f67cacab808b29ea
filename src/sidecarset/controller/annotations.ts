// The pod annotations the SidecarSet controller reads and rewrites (../shared/SEMANTICS.md §2.4.6–2.4.8):
// the per-set hash entries, `kruise.io/sidecarset-inplace-update-state`, the hot-upgrade working
// container map and `patchPodMetadata`. Values are written as Go's encoding/json writes them
// (struct fields in declaration order, map keys sorted, HTML characters escaped), so a pod
// touched by OpenKruise and by us reads the same. Pure, Web APIs only.
// OpenKruise: pkg/control/sidecarcontrol/util.go (GetPodSidecarSetUpgradeSpecInAnnotations,
// UpdatePodSidecarSetHash, PatchPodMetadata), sidecarset_control.go (UpdatePodAnnotationsInUpgrade),
// util_hotupgrade.go (GetPodHotUpgradeInfoInAnnotations).
import { readInPlaceUpdateStates, INPLACE_UPDATE_STATE_ANNOTATION } from '../../workload/sidecar-update-state.js';
import { goJSON } from '../../kube/go-json.js';
import { HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, WORKING_HOTUPGRADE_CONTAINER_ANNOTATION, type SidecarSet } from '../types.js';
import { rfc3339, timeOf, type Pod } from '../../workload/pods.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Annotations = Readonly<Record<string, string>>;

/**
 * JSON with object members in insertion order (a Go struct's field order), scalars spelled as Go
 * spells them. Maps are built with sortedMap first; goJSON sorts every object, for plain Go maps.
 */
export function goJson(value: unknown): string {
  if (value === null || value === undefined || typeof value !== 'object') return goJSON(value);
  if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
  const members = Object.entries(value).filter(([, v]) => v !== undefined);
  return `{${members.map(([k, v]) => `${goJSON(k)}:${goJson(v)}`).join(',')}}`;
}

/** A Go map: the same object with its keys sorted. */
function sortedMap<T>(m: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.entries(m).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function parseObject(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

// ---- Hash entries: kruise.io/sidecarset-hash and -hash-without-image ------------------------

/** SidecarSetUpgradeSpec, as stored per SidecarSet name. */
export type HashEntry = {
  updateTimestamp: string | null;
  hash: string;
  sidecarSetName: string;
  sidecarList: string[] | null;
  controllerRevision?: string;
};

const isStr = (v: unknown): v is string => typeof v === 'string';

/**
 * The entries of a hash annotation, as Go unmarshals them: a map of entries, else the legacy
 * `{"<set>": "<hash>"}` form (entries with only the hash), else nothing.
 */
export function readHashEntries(annotations: Annotations | undefined, key: string): { entries: Map<string, HashEntry>; legacy: boolean } {
  const raw = parseObject(annotations?.[key]);
  const entries = new Map<string, HashEntry>();
  if (!raw) return { entries, legacy: false };
  const values = Object.values(raw);
  if (values.every((v) => v === null || (typeof v === 'object' && !Array.isArray(v)))) {
    for (const [name, v] of Object.entries(raw)) {
      const e = (v ?? {}) as Record<string, unknown>;
      const list = Array.isArray(e['sidecarList']) ? (e['sidecarList'] as unknown[]).filter(isStr) : null;
      entries.set(name, {
        updateTimestamp: isStr(e['updateTimestamp']) ? e['updateTimestamp'] : null,
        hash: isStr(e['hash']) ? e['hash'] : '',
        sidecarSetName: isStr(e['sidecarSetName']) ? e['sidecarSetName'] : '',
        sidecarList: list,
        ...(isStr(e['controllerRevision']) && e['controllerRevision'] ? { controllerRevision: e['controllerRevision'] } : {}),
      });
    }
    return { entries, legacy: false };
  }
  if (values.every(isStr)) {
    for (const [name, hash] of Object.entries(raw as Record<string, string>)) {
      entries.set(name, { updateTimestamp: null, hash, sidecarSetName: '', sidecarList: null });
    }
    return { entries, legacy: true };
  }
  return { entries, legacy: false };
}

/** GetPodSidecarSetRevision: the hash the pod records for the set ("" if none). */
export function podSidecarSetHash(pod: Pod, setName: string): string {
  return readHashEntries(pod.metadata.annotations, HASH_ANNOTATION).entries.get(setName)?.hash ?? '';
}

/** GetPodSidecarSetWithoutImageRevision. */
export function podSidecarSetHashWithoutImage(pod: Pod, setName: string): string {
  return readHashEntries(pod.metadata.annotations, HASH_WITHOUT_IMAGE_ANNOTATION).entries.get(setName)?.hash ?? '';
}

/** GetPodSidecarSetControllerRevision: the ControllerRevision the pod's sidecars came from ("" if unknown). */
export function podControllerRevision(pod: Pod, setName: string): string {
  return readHashEntries(pod.metadata.annotations, HASH_ANNOTATION).entries.get(setName)?.controllerRevision ?? '';
}

/** A hash annotation's value: entries by set name, as Go writes the map. */
export function encodeHashEntries(entries: ReadonlyMap<string, HashEntry>): string {
  const out: Record<string, unknown> = {};
  // Entries written together share one timestamp: normalize each distinct one once.
  const normalized = new Map<string, string>();
  const normalize = (t: string) => {
    let n = normalized.get(t);
    if (n === undefined) normalized.set(t, (n = timeOf(t) ? rfc3339(new Date(timeOf(t))) : t));
    return n;
  };
  for (const [name, e] of entries) {
    const ts = e.updateTimestamp ? normalize(e.updateTimestamp) : e.updateTimestamp;
    out[name] = hashEntryJson([
      ['updateTimestamp', ts],
      ['hash', e.hash],
      ['sidecarSetName', e.sidecarSetName],
      ['sidecarList', e.sidecarList],
      ['controllerRevision', e.controllerRevision || undefined],
    ]);
  }
  // Members in the order goJson would write the sorted map (integer-like names first, as JS orders them).
  const sorted = sortedMap(out) as Record<string, string>;
  return `{${Object.keys(sorted).map((name) => `${goJSON(name)}:${sorted[name]}`).join(',')}}`;
}

/**
 * One entry as goJson writes the struct: fields in this order, undefined ones left out. Spelled
 * out because a pod matched by many sets writes one entry per set, twice, on every creation.
 */
function hashEntryJson(fields: readonly [string, unknown][]): string {
  let out = '';
  for (const [k, v] of fields) if (v !== undefined) out += `${out ? ',' : ''}"${k}":${goJson(v)}`;
  return `{${out}}`;
}

/** listSidecarNameInSidecarSet: restartPolicy=Always init containers and all containers, sorted. */
export function sidecarList(set: SidecarSet): string[] {
  const names = new Set<string>();
  for (const c of set.spec?.initContainers ?? []) if (c.restartPolicy === 'Always') names.add(c.name);
  for (const c of set.spec?.containers ?? []) names.add(c.name);
  return [...names].sort();
}

/**
 * UpdatePodSidecarSetHash: the pod's annotations after recording that its sidecars now follow
 * the set's current hash (and `latestRevision`). A legacy annotation is converted first, as
 * OpenKruise does (including its without-image twin).
 */
export function withUpdatedHashEntry(annotations: Annotations, set: SidecarSet, latestRevision: string, now: Date): Record<string, string> {
  const name = set.metadata?.name ?? '';
  const stamp = rfc3339(now);
  const out: Record<string, string> = {};
  const { entries, legacy } = readHashEntries(annotations, HASH_ANNOTATION);
  if (legacy) {
    for (const [k, e] of entries) entries.set(k, { ...e, updateTimestamp: stamp, sidecarSetName: name });
    const old = readHashEntries(annotations, HASH_WITHOUT_IMAGE_ANNOTATION);
    if (old.legacy) {
      const converted = new Map([...old.entries].map(([k, e]) => [k, { ...e, updateTimestamp: stamp, sidecarSetName: name }]));
      out[HASH_WITHOUT_IMAGE_ANNOTATION] = encodeHashEntries(converted);
    }
  }
  entries.set(name, {
    updateTimestamp: stamp,
    hash: set.metadata?.annotations?.[HASH_ANNOTATION] ?? '',
    sidecarSetName: name,
    sidecarList: sidecarList(set),
    ...(latestRevision ? { controllerRevision: latestRevision } : {}),
  });
  out[HASH_ANNOTATION] = encodeHashEntries(entries);
  return out;
}

// ---- kruise.io/sidecarset-inplace-update-state ----------------------------------------------


/**
 * UpdatePodAnnotationsInUpgrade: record, for the containers about to change, the imageID their
 * status shows now; the update is complete once it differs. An existing entry for the set keeps
 * its revision and timestamp (OpenKruise only adds container statuses to it).
 */
export function withInPlaceUpdateState(pod: Pod, set: SidecarSet, changed: readonly string[], now: Date): string {
  const name = set.metadata?.name ?? '';
  const parsed = readInPlaceUpdateStates(pod.metadata.annotations);
  const states = parsed && parsed !== 'invalid' ? { ...parsed } : {};
  const current = states[name] ?? { revision: set.metadata?.annotations?.[HASH_ANNOTATION] ?? '', updateTimestamp: rfc3339(now), lastContainerStatuses: {} };
  const last = { ...current.lastContainerStatuses };
  const imageIDs = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s.imageID ?? '']));
  for (const c of changed) {
    const id = imageIDs.get(c) ?? '';
    last[c] = id ? { imageID: id } : {};
  }
  states[name] = { ...current, lastContainerStatuses: last };
  const encoded: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(sortedMap(states))) {
    const { revision, updateTimestamp, lastContainerStatuses, ...rest } = s;
    encoded[k] = { revision, updateTimestamp, lastContainerStatuses: sortedMap(lastContainerStatuses), ...rest };
  }
  return goJson(encoded);
}

// ---- Hot upgrade: which of S-1 / S-2 is working ----------------------------------------------

/** GetPodHotUpgradeInfoInAnnotations: sidecar name → working container name ({} if absent or invalid). */
export function workingHotUpgradeContainers(annotations: Annotations | undefined): Record<string, string> {
  const raw = parseObject(annotations?.[WORKING_HOTUPGRADE_CONTAINER_ANNOTATION]);
  if (!raw || !Object.values(raw).every(isStr)) return {};
  return raw as Record<string, string>;
}

export function encodeWorkingHotUpgradeContainers(m: Readonly<Record<string, string>>): string {
  return goJson(sortedMap(m));
}

// ---- patchPodMetadata -------------------------------------------------------------------------

/** RFC 7386 JSON merge patch. */
function mergePatch(target: Json, patch: Json): Json {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const base: { [k: string]: Json } = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete base[k];
    else base[k] = mergePatch(base[k] ?? null, v);
  }
  return base;
}

/**
 * PatchPodMetadata as the controller applies it on every in-place update: Retain (or empty) sets
 * missing keys, Overwrite sets them, MergePatchJson JSON-merges into a non-empty value. Invalid
 * JSON ⇒ an error, and OpenKruise does not update the pod.
 */
export function patchPodMetadata(
  annotations: Annotations,
  patches: SidecarSet['spec']['patchPodMetadata'],
): { annotations: Record<string, string> } | { error: string } {
  const out: Record<string, string> = { ...annotations };
  for (const p of patches ?? []) {
    for (const [k, v] of Object.entries(p.annotations ?? {})) {
      switch (p.patchPolicy ?? '') {
        case '':
        case 'Retain':
          if (!(k in out)) out[k] = v;
          break;
        case 'Overwrite':
          out[k] = v;
          break;
        case 'MergePatchJson': {
          const origin = out[k];
          if (!origin) {
            out[k] = v;
            break;
          }
          try {
            out[k] = goJSON(mergePatch(JSON.parse(origin) as Json, JSON.parse(v) as Json));
          } catch (e) {
            return { error: `annotation ${k}: ${e instanceof Error ? e.message : String(e)}` };
          }
          break;
        }
      }
    }
  }
  return { annotations: out };
}
