import jsonpatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { encodePatch, jsonPatch, type PatchOperation } from './patch.js';
import { seededRandom } from '../../test/fixtures/seeded-random.js';

function decodePatch(b64: string): PatchOperation[] {
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes)) as PatchOperation[];
}

const pod = () => ({
  metadata: { name: 'web', labels: { app: 'web' } as Record<string, string> },
  spec: { containers: [{ name: 'app', image: 'nginx' }] as { name: string; image: string }[] },
});

describe('jsonPatch', () => {
  it.each<[string, (p: ReturnType<typeof pod>) => void, PatchOperation[]]>([
    ['no change', () => {}, []],
    ['add a label', (p) => void (p.metadata.labels.tier = 'fe'), [{ op: 'add', path: '/metadata/labels/tier', value: 'fe' }]],
    ['replace a label', (p) => void (p.metadata.labels.app = 'api'), [{ op: 'replace', path: '/metadata/labels/app', value: 'api' }]],
    ['remove a label', (p) => void delete (p.metadata.labels as Partial<Record<string, string>>).app, [{ op: 'remove', path: '/metadata/labels/app' }]],
    [
      'append a container',
      (p) => void p.spec.containers.push({ name: 'sidecar', image: 'envoy' }),
      [{ op: 'add', path: '/spec/containers/1', value: { name: 'sidecar', image: 'envoy' } }],
    ],
    [
      'insert a container in front: one add, not every container after it rewritten',
      (p) => void p.spec.containers.unshift({ name: 'sidecar', image: 'envoy' }),
      [{ op: 'add', path: '/spec/containers/0', value: { name: 'sidecar', image: 'envoy' } }],
    ],
    [
      'insert before and after: adds at the final indices, ascending',
      (p) => void p.spec.containers.splice(0, 1, { name: 's1', image: 'a' }, { name: 's2', image: 'b' }, { name: 'app', image: 'nginx' }, { name: 's3', image: 'c' }),
      [
        { op: 'add', path: '/spec/containers/0', value: { name: 's1', image: 'a' } },
        { op: 'add', path: '/spec/containers/1', value: { name: 's2', image: 'b' } },
        { op: 'add', path: '/spec/containers/3', value: { name: 's3', image: 'c' } },
      ],
    ],
    [
      'insert one container and change another: the array is replaced once',
      (p) => void (p.spec.containers = [{ name: 'sidecar', image: 'envoy' }, { name: 'app', image: 'nginx:2' }]),
      [{ op: 'replace', path: '/spec/containers', value: [{ name: 'sidecar', image: 'envoy' }, { name: 'app', image: 'nginx:2' }] }],
    ],
    [
      'change an element of an array of the same length',
      (p) => void (p.spec.containers[0]!.image = 'nginx:2'),
      [{ op: 'replace', path: '/spec/containers/0/image', value: 'nginx:2' }],
    ],
    [
      'escape "/" and "~" in keys',
      (p) => void (p.metadata.labels['kruise.io/a~b'] = 'x'),
      [{ op: 'add', path: '/metadata/labels/kruise.io~1a~0b', value: 'x' }],
    ],
  ])('%s', (_name, mutate, want) => {
    const original = pod();
    const mutated = structuredClone(original);
    mutate(mutated);
    const ops = jsonPatch(original, mutated);
    expect(ops).toEqual(want);
    expect(jsonpatch.applyPatch(structuredClone(original), ops).newDocument).toEqual(mutated);
  });
});

describe('jsonPatch: array removals', () => {
  it('removes at the old indices, descending, and applies', () => {
    const original = { list: ['a', 'b', 'c', 'd', 'e'] };
    const mutated = { list: ['a', 'c', 'e'] };
    const ops = jsonPatch(original, mutated);
    expect(ops).toEqual([
      { op: 'remove', path: '/list/3' },
      { op: 'remove', path: '/list/1' },
    ]);
    expect(jsonpatch.applyPatch(structuredClone(original), ops).newDocument).toEqual(mutated);
  });

  it('repeated equal items: still only adds, and applying them gives the new array', () => {
    const original = { list: ['x', 'x', 'y'] };
    const mutated = { list: ['x', 'y', 'x', 'x', 'y', 'x'] };
    const ops = jsonPatch(original, mutated);
    expect(ops.every((o) => o.op === 'add')).toBe(true);
    expect(jsonpatch.applyPatch(structuredClone(original), ops).newDocument).toEqual(mutated);
  });
});

describe('jsonPatch on random documents', () => {
  const rand = seededRandom(42); // every run checks the same pairs
  const value = (depth: number): unknown => {
    const k = rand(depth > 2 ? 4 : 7);
    if (k === 0) return null;
    if (k === 1) return rand(3) === 0;
    if (k === 2) return rand(100);
    if (k === 3) return ['a', 'b/c', 'd~e', ''][rand(4)];
    if (k === 4 || k === 5) return Array.from({ length: rand(4) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: rand(4) }, () => [['x', 'y', 'a/b', '~', 'z'][rand(5)]!, value(depth + 1)]));
  };
  const mutate = (v: unknown, depth: number): unknown => {
    if (rand(3) === 0 || depth > 3) return value(depth);
    if (Array.isArray(v)) {
      const out = v.map((x) => (rand(2) ? mutate(x, depth + 1) : x));
      if (rand(3) === 0) out.push(value(depth + 1));
      if (rand(4) === 0) out.unshift(value(depth + 1));
      if (rand(4) === 0) out.splice(rand(out.length + 1), 0, value(depth + 1));
      if (rand(4) === 0 && out.length) out.splice(rand(out.length), 1 + rand(2));
      return out;
    }
    if (typeof v === 'object' && v !== null) {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (rand(5)) out[k] = rand(2) ? mutate(x, depth + 1) : x;
      if (rand(3) === 0) out[['n', 'x', 'q/r'][rand(3)]!] = value(depth + 1);
      return out;
    }
    return value(depth);
  };

  it('applying the patch to the original always gives the mutated document (2,000 seeded pairs)', () => {
    for (let i = 0; i < 2000; i++) {
      const original = { doc: value(0) };
      const mutated = { doc: mutate(structuredClone(original.doc), 0) };
      const ops = jsonPatch(original, mutated);
      expect(jsonpatch.applyPatch(structuredClone(original), structuredClone(ops)).newDocument, JSON.stringify({ original, mutated })).toEqual(mutated);
    }
  });
});

describe('encodePatch', () => {
  it('is base64 of the JSON for ASCII', () => {
    const ops: PatchOperation[] = [{ op: 'add', path: '/a', value: 'b' }];
    expect(encodePatch(ops)).toBe(btoa(JSON.stringify(ops)));
  });

  it.each([
    ['accents', 'café'],
    ['CJK', '日本語のラベル'],
    ['emoji (surrogate pairs)', '🚀 launch 🧪'],
    ['a lone surrogate (escaped by JSON.stringify)', 'a\ud800b'],
    ['control characters', 'tab\tnewline\n\u0000'],
  ])('round-trips %s', (_name, value) => {
    const ops: PatchOperation[] = [{ op: 'add', path: '/metadata/annotations/note', value }];
    expect(decodePatch(encodePatch(ops))).toEqual(ops);
  });

  it('round-trips a patch larger than one encoding chunk', () => {
    const value = 'ü'.repeat(100_000) + '🚀'.repeat(50_000);
    const ops: PatchOperation[] = [{ op: 'add', path: '/data/big', value }];
    expect(decodePatch(encodePatch(ops))).toEqual(ops);
  });

  it('encodes an empty patch as []', () => {
    expect(atob(encodePatch([]))).toBe('[]');
  });
});
