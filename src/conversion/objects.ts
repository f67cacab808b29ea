// Small helpers for converting JSON objects without touching the input.

export function withoutKey<V>(map: Record<string, V>, key: string): Record<string, V> {
  const { [key]: _dropped, ...rest } = map;
  return rest;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
