// Helpers for projecting LISTed objects down to what webhooks read before they are pushed to the
// edge (CollectionSpec.project): plain JSON in, plain JSON out.
export type Obj = Record<string, unknown>;

/** `v` when it is a JSON object, else {}. */
export const asObj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});

/** The object's metadata ({} when absent). */
export const metaOf = (obj: Obj): Obj => asObj(obj.metadata);

/** Only the named fields of `obj` (absent ones stay absent). */
export function pick(obj: Obj, keys: readonly string[]): Obj {
  return Object.fromEntries(keys.filter((k) => obj[k] !== undefined).map((k) => [k, obj[k]]));
}
