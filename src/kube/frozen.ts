// Read-only JSON data shared instead of copied. Admission handlers get the request deep-frozen,
// and derived data kept across requests (a SidecarSet's containers as injected) is frozen too, so
// sharing it between requests and answers cannot leak a change from one into another: in strict
// mode (all our modules) a write to it throws.

/**
 * Freezes JSON data in place, all the way down, and returns it. A frozen subtree is not walked
 * again, so freezing a result that shares most of its nodes with frozen data is cheap.
 */
export function deepFreeze<T>(v: T): T {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return v;
  Object.freeze(v);
  if (Array.isArray(v)) {
    for (const item of v) deepFreeze(item);
  } else {
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
  }
  return v;
}

/**
 * `derive`, its results deep-frozen, and memoized by the identity of its argument when that is
 * frozen too (so cannot change under the memo): pushed state is, once an injection plan holds it.
 */
export function frozenDerivation<K extends object, V>(derive: (key: K) => V): (key: K) => V {
  const held = new WeakMap<K, V>();
  return (key) => {
    if (!Object.isFrozen(key)) return deepFreeze(derive(key));
    if (held.has(key)) return held.get(key) as V;
    const value = deepFreeze(derive(key));
    held.set(key, value);
    return value;
  };
}
