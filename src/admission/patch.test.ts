import jsonpatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { encodePatch, jsonPatch, type PatchOperation } from './patch.js';

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
