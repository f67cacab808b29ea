import { describe, expect, it } from 'vitest';
import { listPageReader } from './list-page.js';

type Item = { metadata: { name: string }; [k: string]: unknown };

const page = {
  kind: 'PodList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '42', continue: 'abc' },
  items: [
    { metadata: { name: 'a', labels: { x: 'y' } }, spec: { s: 'a "quoted" \\ back\\slash } ] { [', list: [1, [2, {}], 'z'] } },
    { metadata: { name: 'b' }, status: { t: '2026-01-01T00:00:00Z', u: 'é ü 雪 😀' } },
    { metadata: { name: 'c' }, status: { t: '2026-01-01T00:00:00Z', items: [] } },
  ],
};

const managed = [{ manager: 'kubectl', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {} } } } }];
/** managedFields last (as the API server writes it), first, alone, in the middle, null, and in a template (kept). */
const withManaged = {
  ...page,
  items: [
    { metadata: { name: 'a', uid: 'u', managedFields: managed } },
    { metadata: { managedFields: managed, name: 'b' } },
    { metadata: { managedFields: managed } },
    { metadata: { name: 'd', managedFields: managed, labels: { x: 'y' } }, spec: { template: { metadata: { managedFields: managed } } } },
    { metadata: { name: 'e', managedFields: null } },
  ],
};

function read(text: string, cut: (text: string) => string[]) {
  const reader = listPageReader<Item>(new Map(), (it) => ({ ...it, seen: true }));
  for (const chunk of cut(text)) reader.write(chunk);
  return reader.end();
}

const whole = (t: string) => [t];
const byEvery = (n: number) => (t: string) => Array.from({ length: Math.ceil(t.length / n) }, (_, i) => t.slice(i * n, (i + 1) * n));

describe('listPageReader', () => {
  const expected = { ...page, items: page.items.map((it) => ({ ...it, seen: true })) };

  it('parses a page whole and in chunks cut anywhere, strings and escapes included', () => {
    for (const text of [JSON.stringify(page), JSON.stringify(page, null, 2)]) {
      for (const cut of [whole, byEvery(1), byEvery(2), byEvery(3), byEvery(7), byEvery(64)]) expect(read(text, cut)).toEqual(expected);
    }
  });

  it('keeps managedFields when asked to', () => {
    const reader = listPageReader<Item>(new Map(), (it) => it, { managedFields: 'keep' });
    for (const chunk of byEvery(5)(JSON.stringify(withManaged))) reader.write(chunk);
    expect(reader.end().items).toEqual(withManaged.items);
  });

  it('leaves out items\' metadata.managedFields before parsing, and only those', () => {
    const text = JSON.stringify(withManaged);
    const seen: unknown[] = [];
    const reader = listPageReader<Item>(new Map(), (it) => (seen.push(it), it));
    reader.write(text);
    const stripped = withManaged.items.map((it) => {
      const { managedFields: _, ...metadata } = it.metadata;
      return { ...it, metadata };
    });
    expect(reader.end().items).toEqual(stripped);
    expect(seen).toEqual(stripped);
    // cut anywhere: what is not left out before parsing is still there for `each` to drop
    const drop = (it: Item): Item => {
      const { managedFields: _, ...metadata } = it.metadata as Item['metadata'] & { managedFields?: unknown };
      return { ...it, metadata };
    };
    for (const n of [1, 2, 3, 5, 8, 13, 64]) {
      const r = listPageReader<Item>(new Map(), drop);
      for (const chunk of byEvery(n)(text)) r.write(chunk);
      expect(r.end().items).toEqual(stripped);
    }
  });

  it('shares equal string values between items', () => {
    const out = read(JSON.stringify(page), byEvery(5));
    const [b, c] = [out.items[1] as unknown as { status: { t: string } }, out.items[2] as unknown as { status: { t: string } }];
    expect(b.status.t).toBe(c.status.t);
  });

  it('reads items that come before the metadata, an empty list and a list without items', () => {
    const { kind, apiVersion, metadata, items } = page;
    expect(read(JSON.stringify({ items, kind, apiVersion, metadata }), byEvery(4))).toEqual(expected);
    expect(read(JSON.stringify({ kind, metadata, items: [] }), byEvery(4))).toEqual({ kind, metadata, items: [] });
    expect(read(JSON.stringify({ kind, metadata }), byEvery(4))).toEqual({ kind, metadata, items: [] });
  });

  it('refuses items that are not objects, and a page cut short', () => {
    expect(() => read(JSON.stringify({ items: [1] }), whole)).toThrow(SyntaxError);
    expect(() => read(JSON.stringify({ items: ['a'] }), whole)).toThrow(SyntaxError);
    expect(() => read(JSON.stringify(page).slice(0, 100), whole)).toThrow(SyntaxError);
  });
});
