// A strategic merge patch for Pods, as the API server applies one (apimachinery strategicpatch
// with the Pod schema): maps merge, `null` deletes, lists replace unless the Pod type declares a
// merge key for them. Directives: `$patch: replace|delete|merge` on maps and list items,
// `$retainKeys`, `$deleteFromPrimitiveList/<field>`; `$setElementOrder/<field>` is accepted and
// ignored (it only orders, and the merged order here is original-then-new, as without it).
// Written here because no small, maintained JS library knows Kubernetes' patch strategies.
import { isRecord } from '../kube/validation.js';

type Obj = Record<string, unknown>;
export type MergeResult = { ok: true; value: Obj } | { ok: false; error: string };

const CONTAINER_LISTS = { ports: 'containerPort', env: 'name', volumeMounts: 'mountPath', volumeDevices: 'devicePath' } as const;

/** patchMergeKey per list path ('[]' stands for "any element of"); `''` marks a merged list of primitives. */
const MERGE_KEYS: Readonly<Record<string, string>> = {
  'metadata.ownerReferences': 'uid',
  'metadata.finalizers': '',
  'spec.volumes': 'name',
  'spec.imagePullSecrets': 'name',
  'spec.hostAliases': 'ip',
  'spec.topologySpreadConstraints': 'topologyKey',
  'spec.resourceClaims': 'name',
  'spec.schedulingGates': 'name',
  'status.conditions': 'type',
  'status.podIPs': 'ip',
  ...Object.fromEntries(
    ['spec.containers', 'spec.initContainers', 'spec.ephemeralContainers'].flatMap((list) => [
      [list, 'name'],
      ...Object.entries(CONTAINER_LISTS).map(([field, key]) => [`${list}[].${field}`, key]),
    ]),
  ),
};

class PatchError extends Error {}

const DELETE_FROM = '$deleteFromPrimitiveList/';
const SET_ORDER = '$setElementOrder/';

function mergeMap(original: Obj, patch: Obj, path: string): Obj | undefined {
  const directive = patch.$patch;
  if (directive === 'delete') return undefined;
  const { $patch: _p, $retainKeys: retain, ...rest } = patch;
  if (directive === 'replace') return stripDirectives(rest) as Obj;
  if (directive !== undefined && directive !== 'merge') throw new PatchError(`unknown patch type: ${String(directive)} in map`);
  const out: Obj = { ...original };
  for (const [key, value] of Object.entries(rest)) {
    if (key.startsWith(SET_ORDER)) continue;
    if (key.startsWith(DELETE_FROM)) {
      const field = key.slice(DELETE_FROM.length);
      if (!Array.isArray(value)) throw new PatchError(`${DELETE_FROM}${field} must be a list`);
      if (Array.isArray(out[field])) out[field] = (out[field] as unknown[]).filter((v) => !value.includes(v));
      continue;
    }
    const at = path ? `${path}.${key}` : key;
    if (value === null) delete out[key];
    else {
      const merged = mergeValue(out[key], value, at);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
    }
  }
  if (retain !== undefined) {
    if (!Array.isArray(retain)) throw new PatchError('$retainKeys must be a list');
    for (const key of Object.keys(out)) if (!retain.includes(key)) delete out[key];
  }
  return out;
}

function mergeValue(original: unknown, patch: unknown, path: string): unknown {
  if (isRecord(patch)) return mergeMap(isRecord(original) ? original : {}, patch, path);
  if (Array.isArray(patch)) {
    const key = MERGE_KEYS[path];
    if (key === undefined || !Array.isArray(original)) return stripDirectives(patch);
    return key === '' ? [...new Set([...original, ...patch])] : mergeList(original, patch, key, `${path}[]`);
  }
  return patch;
}

// Items carrying `$patch` are directives, applied first: delete drops the matching items, replace
// makes the other items the whole list.
function mergeList(original: unknown[], patch: unknown[], key: string, path: string): unknown[] {
  let out = [...original];
  let replace = false;
  const items: Obj[] = [];
  for (const item of patch) {
    if (!isRecord(item)) throw new PatchError(`map: ${JSON.stringify(item)} does not contain declared merge key: ${key}`);
    if (item.$patch === undefined) items.push(item);
    else if (item.$patch === 'replace') replace = true;
    else if (item.$patch === 'merge') throw new PatchError('merging lists cannot yet be specified in the patch');
    else if (item.$patch !== 'delete') throw new PatchError(`unknown patch type: ${String(item.$patch)} in list`);
    else if (!Object.hasOwn(item, key)) throw new PatchError(`map: ${JSON.stringify(item)} does not contain declared merge key: ${key}`);
    else out = out.filter((o) => !(isRecord(o) && o[key] === item[key]));
  }
  if (replace) return stripDirectives(items) as unknown[];
  for (const item of items) {
    if (!Object.hasOwn(item, key)) throw new PatchError(`map: ${JSON.stringify(item)} does not contain declared merge key: ${key}`);
    const at = out.findIndex((o) => isRecord(o) && o[key] === item[key]);
    if (at < 0) out.push(stripDirectives(item));
    else out[at] = mergeMap(out[at] as Obj, item, path);
  }
  return out;
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isRecord(v)) return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !k.startsWith('$')).map(([k, x]) => [k, stripDirectives(x)]));
}

/** Applies `patch` to a Pod (or a pod template's shape) the way the API server's strategic merge does. */
export function strategicMergePod(original: Obj, patch: unknown): MergeResult {
  if (!isRecord(patch)) return { ok: false, error: 'the patch must be a JSON object' };
  try {
    return { ok: true, value: mergeMap(original, patch, '') ?? {} };
  } catch (e) {
    if (e instanceof PatchError) return { ok: false, error: e.message };
    throw e;
  }
}
