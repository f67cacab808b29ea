// SidecarSet defaulting, as OpenKruise's mutating webhook does it on CREATE and UPDATE
// (../shared/SEMANTICS.md §2.2; apis/apps/defaults/v1alpha1.go SetDefaultsSidecarSet, pod.go
// SetDefaultPodVolumes, and the Kubernetes container/volume defaulters they call). Pure: returns a
// defaulted copy. Only what OpenKruise sets is set; in particular a startupProbe is not defaulted
// (OpenKruise 1.8 defaults only liveness and readiness probes). Fields that are structs in Go
// (containers' `resources`, `upgradeStrategy`, `shareVolumePolicy`; `spec.updateStrategy`,
// `spec.injectionStrategy`) are always present, as in the object OpenKruise's webhook marshals;
// the rest of what Go would add (metadata.creationTimestamp: null, a zero status) the API server
// replaces on write, so it is left out.
import { defaultContainer, defaultFieldRef, defaultVolume } from '../kube/pod-defaults.js';
import { sidecarSetHash, sidecarSetHashWithoutImage } from './hash.js';
import { HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, type SidecarSet } from './types.js';

export { imageTag } from '../kube/pod-defaults.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const objects = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const unset = (v: unknown) => v === undefined || v === null;
const blank = (v: unknown) => unset(v) || v === '' || v === 0;

/** Sets `o[k]` to a fresh object when missing, and returns it (undefined if `o[k]` is not an object). */
function child(o: Obj, k: string): Obj | undefined {
  if (unset(o[k])) o[k] = {};
  return isObj(o[k]) ? (o[k] as Obj) : undefined;
}

/** setDefaultSidecarContainer + setDefaultContainer (v1alpha1.go). */
function defaultSidecarContainer(c: Obj, injectPolicy: string): void {
  if (blank(c.podInjectPolicy)) c.podInjectPolicy = injectPolicy;
  const upgrade = child(c, 'upgradeStrategy');
  if (upgrade && blank(upgrade.upgradeType)) upgrade.upgradeType = 'ColdUpgrade';
  const share = child(c, 'shareVolumePolicy');
  if (share && blank(share.type)) share.type = 'disabled';
  defaultContainer(c, { startupProbe: false });
  // A struct, not a pointer, in Go: OpenKruise's defaulted object always carries it.
  if (unset(c.resources)) c.resources = {};
  for (const t of objects(c.transferEnv)) if (isObj(t.sourceContainerNameFrom)) defaultFieldRef(t.sourceContainerNameFrom.fieldRef);
}

/** A defaulted copy of `set` (§2.2 steps 1–4). Idempotent. */
export function defaultSidecarSet(set: SidecarSet): SidecarSet {
  const out = structuredClone(set);
  const root = out as unknown as Obj;
  const spec = child(root, 'spec');
  if (!spec) return out;

  const strategy = child(spec, 'updateStrategy');
  if (strategy) {
    if (blank(strategy.type)) strategy.type = 'RollingUpdate';
    if (unset(strategy.maxUnavailable)) strategy.maxUnavailable = 1;
    if (unset(strategy.partition)) strategy.partition = 0;
  }
  for (const c of objects(spec.initContainers)) defaultSidecarContainer(c, 'AfterAppContainer');
  for (const c of objects(spec.containers)) defaultSidecarContainer(c, 'BeforeAppContainer');
  for (const v of objects(spec.volumes)) defaultVolume(v);
  if (unset(spec.revisionHistoryLimit)) spec.revisionHistoryLimit = 10;
  for (const p of objects(spec.patchPodMetadata)) if (blank(p.patchPolicy)) p.patchPolicy = 'Retain';
  // A struct too (spec.injectionStrategy), so present even when empty.
  const injection = child(spec, 'injectionStrategy');
  if (injection && isObj(injection.revision) && blank(injection.revision.policy)) injection.revision.policy = 'Always';
  return out;
}

/** A copy with both hash annotations recomputed from its (defaulted) containers (§2.2 step 5). */
export async function withHashAnnotations(set: SidecarSet): Promise<SidecarSet> {
  const [hash, withoutImage] = await Promise.all([sidecarSetHash(set), sidecarSetHashWithoutImage(set)]);
  const metadata = { ...(set.metadata ?? {}) };
  metadata.annotations = { ...(metadata.annotations ?? {}), [HASH_ANNOTATION]: hash, [HASH_WITHOUT_IMAGE_ANNOTATION]: withoutImage };
  return { ...set, metadata };
}
