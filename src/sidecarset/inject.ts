// Injects the matched SidecarSets into a pod being created (../shared/SEMANTICS.md §2.4.4–2.4.7): pod
// metadata patches, then each set's sidecars merged into the pod's init containers, containers,
// volumes and image pull secrets, then the bookkeeping annotations. Pure: the sets (already at the
// revision chosen for this pod) and the time come in as arguments. Web APIs only.
import {
  encodeHashEntries,
  encodeWorkingHotUpgradeContainers,
  patchPodMetadata,
  readHashEntries,
  sidecarList,
  workingHotUpgradeContainers,
  type HashEntry,
} from './controller/annotations.js';
import { rfc3339, type Container } from '../workload/pods.js';
import { appendMissing, buildSidecars, type BuildContext, type BuiltSidecar, type PodMetaLike, type PodSpecLike, type Volume } from './sidecars.js';
import { HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, WORKING_HOTUPGRADE_CONTAINER_ANNOTATION, type SidecarSet } from './types.js';
import { INJECTED_LIST_ANNOTATION } from '../workload/sidecar-update-state.js';

export type InjectablePod = {
  metadata?: PodMetaLike & { name?: string; generateName?: string; namespace?: string; [k: string]: unknown };
  spec?: PodSpecLike;
  [k: string]: unknown;
};

export type InjectResult<P> = { pod: P } | { error: string };

/** Pod-side merge of injected containers (mergeSidecarContainers): replace by name, else before or after. */
function mergeContainers(pod: readonly Container[], injected: readonly BuiltSidecar[]): Container[] {
  const origins = [...pod];
  const index = new Map(origins.map((c, i) => [c.name, i]));
  const before: Container[] = [];
  const after: Container[] = [];
  for (const { container, policy } of injected) {
    const at = index.get(container.name);
    // §8: a pod container with the sidecar's name is replaced, as in OpenKruise.
    if (at !== undefined) origins[at] = container;
    else if (policy === 'BeforeAppContainer') before.push(container);
    else after.push(container);
  }
  return [...before, ...origins, ...after];
}

/** Two sets injecting the same container name would make the API server reject the pod (§8). */
function duplicateName(injected: readonly { sidecar: BuiltSidecar; set: string }[]): string | undefined {
  const seen = new Map<string, string>();
  for (const { sidecar, set } of injected) {
    const name = sidecar.container.name;
    const other = seen.get(name);
    if (other !== undefined && other !== set) {
      return `sidecarsets ${JSON.stringify(other)} and ${JSON.stringify(set)} both inject a container named ${JSON.stringify(name)}; change one of them (the pod would be rejected for duplicate container names)`;
    }
    seen.set(name, set);
  }
  return undefined;
}

/** The pod's hash annotation as entries, converting the legacy {"set":"hash"} form; error if unreadable. */
function podHashEntries(annotations: Record<string, string>, key: string, who: string, stamp: string): Map<string, HashEntry> | { error: string } {
  const raw = annotations[key];
  if (!raw) return new Map();
  const { entries, legacy } = readHashEntries(annotations, key);
  if (entries.size === 0) {
    let why = 'not a JSON object of SidecarSet entries';
    try {
      const v: unknown = JSON.parse(raw);
      if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0) return new Map();
    } catch (e) {
      why = e instanceof Error ? e.message : String(e);
    }
    return { error: `pod(${who}) invalid annotations[${key}] value ${raw}, unmarshal failed: ${why}` };
  }
  if (legacy) for (const [name, e] of entries) entries.set(name, { ...e, updateTimestamp: stamp, sidecarSetName: name });
  return entries;
}

function hashEntry(set: SidecarSet, stamp: string, annotation: string, withRevision: boolean): HashEntry {
  const name = set.metadata?.name ?? '';
  const revision = set.status?.latestRevision ?? '';
  return {
    updateTimestamp: stamp,
    hash: set.metadata?.annotations?.[annotation] ?? '',
    sidecarSetName: name,
    sidecarList: sidecarList(set),
    ...(withRevision && revision ? { controllerRevision: revision } : {}),
  };
}

/** The names in every matched set's initContainers and containers (getTargetContainers' exclusions). */
function injectedNames(sets: readonly SidecarSet[]): Set<string> {
  return new Set(sets.flatMap((s) => [...(s.spec?.initContainers ?? []), ...(s.spec?.containers ?? [])].map((c) => c.name)));
}

export type InjectOptions = {
  /** Feature gate EnableSortSidecarContainerByName: injected containers sorted by name (init containers always are). */
  sortContainersByName?: boolean;
};

const byName = (a: { sidecar: BuiltSidecar }, b: { sidecar: BuiltSidecar }) => {
  const x = a.sidecar.container.name;
  const y = b.sidecar.container.name;
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * The pod with `sets` injected, in the given order. `namespace` names the pod in error messages.
 * No sets ⇒ the pod unchanged.
 */
export function injectSidecarSets<P extends object>(pod: P, sets: readonly SidecarSet[], now: Date, namespace: string, opts: InjectOptions = {}): InjectResult<P> {
  if (sets.length === 0) return { pod };
  // The request is read-only and shared: copy only the objects whose fields are reassigned below
  // (every list and the annotations get new arrays and objects); the rest is shared with it.
  const from = pod as InjectablePod;
  const out: InjectablePod = { ...from, metadata: { ...from.metadata }, spec: { ...from.spec } };
  const meta = out.metadata!;
  const spec = out.spec!;
  const who = `${namespace}/${meta.name ?? meta.generateName ?? ''}`;
  const stamp = rfc3339(now);

  let annotations: Record<string, string> = { ...meta.annotations };
  for (const set of sets) {
    const patched = patchPodMetadata(annotations, set.spec?.patchPodMetadata);
    if ('error' in patched) return { error: `sidecarset ${JSON.stringify(set.metadata?.name ?? '')}: patchPodMetadata: ${patched.error}` };
    annotations = patched.annotations;
  }
  const hashes = podHashEntries(annotations, HASH_ANNOTATION, who, stamp);
  if ('error' in hashes) return hashes;
  const hashesWithoutImage = podHashEntries(annotations, HASH_WITHOUT_IMAGE_ANNOTATION, who, stamp);
  if ('error' in hashesWithoutImage) return hashesWithoutImage;

  // Every set builds from the pod as the client sent it (metadata patches aside), as OpenKruise does;
  // resourcesPolicy never sizes from a container any matched set injects.
  const context: BuildContext = { pod: from.spec ?? {}, meta: { labels: meta.labels ?? {}, annotations }, injectedNames: injectedNames(sets) };
  const inits: { sidecar: BuiltSidecar; set: string }[] = [];
  const containers: { sidecar: BuiltSidecar; set: string }[] = [];
  const volumes: Volume[] = [];
  const secrets: { name?: string }[] = [];
  let working = workingHotUpgradeContainers(annotations);
  for (const set of sets) {
    const name = set.metadata?.name ?? '';
    const built = buildSidecars(set, context);
    if (built.error !== undefined) return { error: built.error };
    inits.push(...built.initContainers.map((sidecar) => ({ sidecar, set: name })));
    containers.push(...built.containers.map((sidecar) => ({ sidecar, set: name })));
    volumes.push(...built.volumes);
    secrets.push(...built.imagePullSecrets.map((p) => ({ ...p }))); // not the set's own objects
    Object.assign(annotations, built.versionAnnotations);
    if (Object.keys(built.workingContainers).length) working = { ...working, ...built.workingContainers };
    if (built.initContainers.length + built.containers.length > 0) {
      hashes.set(name, hashEntry(set, stamp, HASH_ANNOTATION, true));
      hashesWithoutImage.set(name, hashEntry(set, stamp, HASH_WITHOUT_IMAGE_ANNOTATION, false));
    }
  }
  const clash = duplicateName(inits) ?? duplicateName(containers);
  if (clash) return { error: clash };

  // Array sort is stable, as Go's sort.SliceStable.
  const sortedInits = [...inits].sort(byName);
  if (sortedInits.length) spec.initContainers = mergeContainers(spec.initContainers ?? [], sortedInits.map((i) => i.sidecar));
  const ordered = opts.sortContainersByName ? [...containers].sort(byName) : containers;
  spec.containers = mergeContainers(spec.containers ?? [], ordered.map((c) => c.sidecar));
  if (volumes.length) spec.volumes = appendMissing(spec.volumes ?? [], volumes, (v) => v.name);
  if (secrets.length || spec.imagePullSecrets) spec.imagePullSecrets = appendMissing([], [...(spec.imagePullSecrets ?? []), ...secrets], (p) => p.name);

  if (hashes.size) annotations[HASH_ANNOTATION] = encodeHashEntries(hashes);
  if (hashesWithoutImage.size) annotations[HASH_WITHOUT_IMAGE_ANNOTATION] = encodeHashEntries(hashesWithoutImage);
  const listed = (annotations[INJECTED_LIST_ANNOTATION] ?? '').split(',').filter(Boolean);
  annotations[INJECTED_LIST_ANNOTATION] = [...new Set([...listed, ...sets.map((s) => s.metadata?.name ?? '')])].sort().join(',');
  if (Object.keys(working).length) annotations[WORKING_HOTUPGRADE_CONTAINER_ANNOTATION] = encodeWorkingHotUpgradeContainers(working);
  meta.annotations = annotations;
  return { pod: out as P };
}
