// Whether a workload's template change can be rolled out in place, and what it changes
// (OpenKruise: defaultCalculateInPlaceUpdateSpec in pkg/util/inplaceupdate/inplace_update_defaults.go).
//
// OpenKruise JSON-diffs the two revisions' data and accepts an update in place only when every
// operation under the pod spec replaces a string at `containers[N].image`; operations under the
// template's metadata are applied as a metadata patch. Anything else (another spec field, an
// added or removed container, an image added or removed rather than replaced) recreates the pod.
//
// Environment variables read from labels or annotations (`valueFrom.fieldRef` of
// `metadata.labels['k']` / `metadata.annotations['k']`) only change when the container restarts.
// The kubelet does not restart a container for a metadata change, and OpenKruise relies on its
// node agent (kruise-daemon) for that; without the agent (KruiseDaemon off) OpenKruise turns the
// feature off and patches the labels while the env keeps its old value. There is no node agent
// here, so by default such an update recreates the pod instead (`envFromMetadata: 'recreate'`);
// `'stale'` reproduces OpenKruise-without-daemon. Pure, Web APIs only.
import { splitSubscriptedPath } from '../kube/pod-validation.js';

/** OpenKruise never treats these env vars as references to metadata (containermeta.excludeEnvs). */
const EXCLUDED_ENVS = new Set(['SIDECARSET_VERSION', 'SIDECARSET_VERSION_ALT']);

export type PodTemplate = {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[]; [k: string]: unknown } | null;
  spec?: { containers?: { name: string; image?: string; env?: unknown[]; [k: string]: unknown }[]; [k: string]: unknown } | null;
  [k: string]: unknown;
};

/** A map's changes: keys set to a (new) value, and keys removed. */
export type MapChange = { set: Record<string, string>; removed: string[] };

export type MetadataChange = {
  labels: MapChange;
  annotations: MapChange;
  /** Template finalizers added/removed; `order` is the new list when it changed. */
  finalizers: { added: string[]; removed: string[]; order: string[] | null };
};

export type InPlaceUpdateSpec = {
  kind: 'in-place';
  /** Container name (as in the old template) → new image. */
  images: Record<string, string>;
  metadata: MetadataChange;
};

export type RecreateReason = 'spec-changed' | 'env-from-metadata' | 'template-changed';
export type RecreateDecision = { kind: 'recreate'; reason: RecreateReason; detail: string };

export type InPlaceUpdateOptions = {
  /** What to do when a changed label/annotation feeds a container's env (default 'recreate'). */
  envFromMetadata?: 'recreate' | 'stale';
};

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Empty values Go's `omitempty` never writes into revision data: null, [] and {} read as absent. */
function isAbsent(v: Json): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (isObject(v)) return Object.keys(v).every((k) => isAbsent(v[k]));
  return false;
}

type Change = { op: 'add' | 'remove' | 'replace'; path: (string | number)[]; value?: Json };

/** The changes a JSON diff reports: objects key by key, equal-length arrays element by element. */
function diff(a: Json, b: Json, path: (string | number)[], out: Change[]): void {
  const aAbsent = isAbsent(a);
  const bAbsent = isAbsent(b);
  if (aAbsent && bAbsent) return;
  if (aAbsent) return void out.push({ op: 'add', path, value: b });
  if (bAbsent) return void out.push({ op: 'remove', path });
  if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) diff(a[k], b[k], [...path, k], out);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) {
      // Elements added or removed: never a plain replace.
      return void out.push({ op: a.length < b.length ? 'add' : 'remove', path: [...path, Math.min(a.length, b.length)] });
    }
    a.forEach((x, i) => diff(x, b[i], [...path, i], out));
    return;
  }
  if (a !== b) out.push({ op: 'replace', path, value: b });
}

function mapChange(a: Record<string, string> | undefined, b: Record<string, string> | undefined): MapChange {
  const set: Record<string, string> = {};
  const removed: string[] = [];
  for (const [k, v] of Object.entries(b ?? {})) if (a?.[k] !== v) set[k] = v;
  for (const k of Object.keys(a ?? {})) if (!Object.hasOwn(b ?? {}, k)) removed.push(k);
  return { set, removed: removed.sort() };
}

function finalizerChange(a: string[] | undefined, b: string[] | undefined): MetadataChange['finalizers'] {
  const before = a ?? [];
  const after = b ?? [];
  const added = after.filter((f) => !before.includes(f));
  const removed = before.filter((f) => !after.includes(f));
  const changed = added.length > 0 || removed.length > 0;
  return { added, removed, order: changed ? [...after] : null };
}

/** containermeta.IsContainerReferenceToMeta: an env var of `container` reads `path['key']`. */
export function containerReadsMetadata(container: { env?: unknown[] }, path: 'metadata.labels' | 'metadata.annotations', key: string): boolean {
  for (const e of container.env ?? []) {
    if (!isObject(e)) continue;
    if ((typeof e['value'] === 'string' && e['value'] !== '') || EXCLUDED_ENVS.has(String(e['name']))) continue;
    const from = e['valueFrom'];
    const ref = isObject(from) ? from['fieldRef'] : undefined;
    if (!isObject(ref) || typeof ref['fieldPath'] !== 'string') continue;
    const split = splitSubscriptedPath(ref['fieldPath']);
    if (split && split[0] === path && split[1] === key) return true;
  }
  return false;
}

const IMAGE_PATH = (p: (string | number)[]) => p.length === 3 && p[0] === 'containers' && typeof p[1] === 'number' && p[2] === 'image';
const showPath = (p: (string | number)[]) => `/${p.join('/')}`;

/**
 * How to roll `oldTemplate` → `newTemplate` out to an existing pod: in place (new images and a
 * metadata change), or recreate, with the reason. Templates are compared as stored in revision
 * data, where null, [] and {} are absent (Go's omitempty).
 */
export function inPlaceUpdateSpec(oldTemplate: PodTemplate, newTemplate: PodTemplate, opts: InPlaceUpdateOptions = {}): InPlaceUpdateSpec | RecreateDecision {
  for (const k of new Set([...Object.keys(oldTemplate), ...Object.keys(newTemplate)])) {
    if (k === 'metadata' || k === 'spec') continue;
    const changes: Change[] = [];
    diff(oldTemplate[k], newTemplate[k], [k], changes);
    if (changes.length > 0) return { kind: 'recreate', reason: 'template-changed', detail: `${changes[0]!.op} ${showPath(changes[0]!.path)}` };
  }

  const images: Record<string, string> = {};
  const changes: Change[] = [];
  diff(oldTemplate.spec ?? {}, newTemplate.spec ?? {}, [], changes);
  const oldContainers = oldTemplate.spec?.containers ?? [];
  for (const c of changes) {
    const container = oldContainers[c.path[1] as number];
    if (c.op === 'replace' && IMAGE_PATH(c.path) && typeof c.value === 'string' && container) {
      images[container.name] = c.value;
      continue;
    }
    return { kind: 'recreate', reason: 'spec-changed', detail: `${c.op} /spec${showPath(c.path)}` };
  }

  const oldMeta = oldTemplate.metadata ?? {};
  const newMeta = newTemplate.metadata ?? {};
  const metadata: MetadataChange = {
    labels: mapChange(oldMeta.labels, newMeta.labels),
    annotations: mapChange(oldMeta.annotations, newMeta.annotations),
    finalizers: finalizerChange(oldMeta.finalizers, newMeta.finalizers),
  };

  if ((opts.envFromMetadata ?? 'recreate') === 'recreate') {
    // Only keys added or changed count, as in OpenKruise: a removed key never restarts a container.
    const refs: [string, 'metadata.labels' | 'metadata.annotations', string][] = [
      ...Object.keys(metadata.labels.set).map((k): [string, 'metadata.labels', string] => ['label', 'metadata.labels', k]),
      ...Object.keys(metadata.annotations.set).map((k): [string, 'metadata.annotations', string] => ['annotation', 'metadata.annotations', k]),
    ];
    for (const [what, path, key] of refs) {
      const reader = (newTemplate.spec?.containers ?? []).find((c) => containerReadsMetadata(c, path, key));
      if (reader) {
        return {
          kind: 'recreate',
          reason: 'env-from-metadata',
          detail: `container ${reader.name} reads ${what} ${key} into its env, and only a node agent could restart it in place`,
        };
      }
    }
  }
  return { kind: 'in-place', images, metadata };
}

/** The spec changes nothing the pod carries (no image, no metadata). */
export function isEmptyInPlaceUpdate(spec: InPlaceUpdateSpec): boolean {
  const m = spec.metadata;
  return (
    Object.keys(spec.images).length === 0 &&
    Object.keys(m.labels.set).length + m.labels.removed.length + Object.keys(m.annotations.set).length + m.annotations.removed.length === 0 &&
    m.finalizers.order === null
  );
}
