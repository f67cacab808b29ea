// Map fields of a status written with a JSON merge patch (RFC 7386), shaped as Go's `omitempty`
// writes them: an empty map is never sent as `{}`. A merge patch only changes what it names, so a
// key left out keeps what is stored; removing a map, or one of its keys, takes an explicit null.

/**
 * What to send for a map field to turn `current` (as read) into `next`:
 * - `undefined` (leave the key out): `next` is empty and nothing is stored;
 * - `null` (delete the field): `next` is empty and something is stored, even `{}`;
 * - otherwise `next`, with `null` for each stored key that went away.
 */
export function mapFieldPatch<V>(
  current: Readonly<Record<string, V>> | null | undefined,
  next: Readonly<Record<string, V>> | null | undefined,
): Record<string, V | null> | null | undefined {
  const stored = current !== undefined && current !== null;
  if (!next || Object.keys(next).length === 0) return stored ? null : undefined;
  const out: Record<string, V | null> = { ...next };
  for (const k of Object.keys(current ?? {})) if (!Object.hasOwn(next, k)) out[k] = null;
  return out;
}

/** `next` without empty maps, the way Go's omitempty writes it (`{}` and absent read the same). */
export function omitEmpty<V>(next: Readonly<Record<string, V>> | null | undefined): Record<string, V> | undefined {
  return next && Object.keys(next).length > 0 ? { ...next } : undefined;
}
