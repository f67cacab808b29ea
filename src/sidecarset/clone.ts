// Deep copies on the injection path. Each pod creation copies the pod, its spec and every sidecar
// it receives (100 matching sets: ~200 containers); the data is JSON-shaped (parsed reviews,
// pushed state), and on it a plain recursive copy is several times faster than structuredClone.
// Anything that is not a plain object or array (a Date a caller built, say) still goes through
// structuredClone, so the result is the same either way.

const isPlainObject = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
};

function copyObject(v: Record<string, unknown>, omit?: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // for…in sees only own keys here (a plain object inherits no enumerable ones) and, unlike
  // Object.keys, allocates no array per object.
  for (const k in v) {
    if (omit?.has(k)) continue;
    const value = cloneJson(v[k]);
    // JSON.parse makes "__proto__" an own key; plain assignment would set the prototype instead.
    if (k === '__proto__') Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
    else out[k] = value;
  }
  return out;
}

export function cloneJson<T>(v: T): T {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const out = new Array<unknown>(v.length);
    for (let i = 0; i < v.length; i++) out[i] = cloneJson(v[i] as unknown);
    return out as T;
  }
  return (isPlainObject(v) ? copyObject(v as Record<string, unknown>) : structuredClone(v)) as T;
}

/**
 * A deep copy without some top-level keys. Skipping them while copying, rather than deleting
 * them from a copy, also keeps the copy a fast-properties object for everything that reads it.
 */
export function cloneJsonWithout(v: object, omit: ReadonlySet<string>): Record<string, unknown> {
  if (isPlainObject(v)) return copyObject(v as Record<string, unknown>, omit);
  const copy = structuredClone(v) as Record<string, unknown>;
  for (const k of omit) delete copy[k];
  return copy;
}
