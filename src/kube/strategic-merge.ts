// A strategic merge patch (k8s.io/apimachinery strategicpatch) applied to a pod template, with the
// merge keys core/v1 declares on the fields a pod template holds: lists of containers, volumes,
// env, ports… merge element by element on their key; lists without a merge strategy (tolerations,
// args, readinessGates…) are replaced; `null` deletes a field; the `$patch` directives `replace`
// and `delete` (on a map or a list element) are honoured. `$setElementOrder` and `$retainKeys`
// are dropped, not enforced. Pure, Web APIs only.
import { isRecord } from './validation.js';

/** patchMergeKey of each merging list field of PodTemplateSpec, by field name (no name clashes there). */
const POD_TEMPLATE_MERGE_KEYS: Readonly<Record<string, string>> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  env: 'name',
  ports: 'containerPort',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
  schedulingGates: 'name',
  ownerReferences: 'uid',
};

/** Lists of scalars merged as sets (patchStrategy merge without a key). */
const SCALAR_SET_FIELDS: ReadonlySet<string> = new Set(['finalizers']);

const DIRECTIVE = '$patch';

function mergeMap(original: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> | undefined {
  if (patch[DIRECTIVE] === 'delete') return undefined;
  if (patch[DIRECTIVE] === 'replace') return stripDirectives(patch) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...original };
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) continue;
    if (key.startsWith('$setElementOrder/')) continue;
    if (value === null) {
      delete out[key];
      continue;
    }
    const merged = mergeField(key, out[key], value);
    if (merged === undefined) delete out[key];
    else out[key] = merged;
  }
  return out;
}

function mergeField(field: string, original: unknown, patch: unknown): unknown {
  if (Array.isArray(patch)) {
    const mergeKey = POD_TEMPLATE_MERGE_KEYS[field];
    if (mergeKey) return mergeKeyedList(Array.isArray(original) ? original : [], patch, mergeKey);
    if (SCALAR_SET_FIELDS.has(field)) return [...new Set([...(Array.isArray(original) ? original : []), ...patch])];
    return stripDirectives(patch);
  }
  if (isRecord(patch)) return mergeMap(isRecord(original) ? original : {}, patch);
  return patch;
}

function mergeKeyedList(original: readonly unknown[], patch: readonly unknown[], key: string): unknown[] {
  if (patch.some((p) => isRecord(p) && p[DIRECTIVE] === 'replace')) {
    return patch.filter((p) => !(isRecord(p) && p[DIRECTIVE] === 'replace')).map(stripDirectives);
  }
  const out: unknown[] = [...original];
  for (const item of patch) {
    if (!isRecord(item) || !(key in item)) {
      out.push(stripDirectives(item));
      continue;
    }
    const at = out.findIndex((o) => isRecord(o) && o[key] === item[key]);
    if (item[DIRECTIVE] === 'delete') {
      if (at >= 0) out.splice(at, 1);
      continue;
    }
    if (at >= 0) out[at] = mergeMap(out[at] as Record<string, unknown>, item);
    else out.push(stripDirectives(item));
  }
  return out;
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isRecord(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (!k.startsWith('$') && x !== null) out[k] = stripDirectives(x);
  return out;
}

/** `template` with the strategic merge `patch` applied (neither is modified). */
export function strategicMergePodTemplate<T extends Record<string, unknown>>(template: T, patch: unknown): T {
  if (!isRecord(patch)) return structuredClone(template);
  return (mergeMap(structuredClone(template), structuredClone(patch)) ?? {}) as T;
}
