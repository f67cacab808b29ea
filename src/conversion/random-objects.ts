// A seeded generator of objects for the conversion property tests (fast-check is not a
// dependency). Deterministic per seed, so a failing case is reproduced by its seed.

export type Random = { int(max: number): number; pick<T>(items: readonly T[]): T; chance(p: number): boolean; seed: number };

export function random(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    seed,
    int: (max) => Math.floor(next() * max),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    chance: (p) => next() < p,
  };
}

const WORDS = ['a', 'app', 'web', 'sidecar', 'v1', 'v2', 'kruise.io/x', 'zone', '', 'ñ', '0'];

export function word(r: Random): string {
  return r.pick(WORDS) + (r.chance(0.5) ? String(r.int(100)) : '');
}

/** Any JSON value, at most `depth` levels deep. */
export function json(r: Random, depth = 3): unknown {
  const kind = r.int(depth > 0 ? 7 : 4);
  switch (kind) {
    case 0: return word(r);
    case 1: return r.int(1000) - 10;
    case 2: return r.chance(0.5);
    case 3: return null;
    case 4: return Array.from({ length: r.int(3) }, () => json(r, depth - 1));
    default: return jsonObject(r, depth - 1);
  }
}

export function jsonObject(r: Random, depth = 2): Record<string, unknown> {
  return Object.fromEntries(Array.from({ length: r.int(4) }, () => [word(r), json(r, depth)]));
}

export function stringMap(r: Random): Record<string, string> {
  return Object.fromEntries(Array.from({ length: r.int(3) }, () => [word(r), word(r)]));
}

/** Some of `fields`, each with a random JSON value (an object where `objects` names it). */
export function someFields(r: Random, fields: readonly string[], objects: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (r.chance(0.5)) out[f] = objects.includes(f) ? jsonObject(r) : json(r);
  return out;
}

export function metadata(r: Random, extra: { labels?: Record<string, string>; annotations?: Record<string, string> } = {}): Record<string, unknown> {
  const labels = { ...(r.chance(0.6) ? stringMap(r) : {}), ...extra.labels };
  const annotations = { ...(r.chance(0.6) ? stringMap(r) : {}), ...extra.annotations };
  return {
    name: `obj-${r.int(1000)}`,
    ...(r.chance(0.5) ? { namespace: 'default' } : {}),
    uid: `uid-${r.int(1e6)}`,
    resourceVersion: String(r.int(1e6)),
    generation: r.int(10),
    ...(Object.keys(labels).length ? { labels } : {}),
    ...(Object.keys(annotations).length ? { annotations } : {}),
  };
}
