// Finds where an object read back from the API server lost or changed something that was sent.
export function lostFields(sent: unknown, got: unknown, path = ''): string[] {
  if (Array.isArray(sent)) {
    if (!Array.isArray(got)) return [`${path}: sent an array, got ${JSON.stringify(got)}`];
    if (got.length !== sent.length) return [`${path}: sent ${sent.length} items, got ${got.length}`];
    return sent.flatMap((item, i) => lostFields(item, got[i], `${path}[${i}]`));
  }
  if (sent && typeof sent === 'object') {
    if (!got || typeof got !== 'object' || Array.isArray(got)) return [`${path}: sent an object, got ${JSON.stringify(got)}`];
    return Object.entries(sent).flatMap(([k, v]) => lostFields(v, (got as Record<string, unknown>)[k], path ? `${path}.${k}` : k));
  }
  return sent === got ? [] : [`${path}: sent ${JSON.stringify(sent)}, got ${JSON.stringify(got)}`];
}
