import { describe, expect, it } from 'vitest';
import { fnv32a, spewByteSlice, vctAllowsInPlace, volumeClaimTemplatesAnnotation, volumeClaimTemplatesHash, volumeClaimTemplatesJson, type ClaimTemplate } from './vct-hash.js';

const claim = (name: string, request: string | number, limit: string | number, extra: Record<string, unknown> = {}): ClaimTemplate => ({
  metadata: { name },
  spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: request }, limits: { storage: limit } }, ...extra },
});

// pkg/util/volumeclaimtemplate/volume_templates_hash_test.go (OpenKruise), computed by Go.
describe('volumeClaimTemplatesHash: OpenKruise vectors', () => {
  it('zero-pvc and nil-pvc: 86995377 (the JSON is null)', () => {
    expect(volumeClaimTemplatesHash([])).toBe('86995377');
    expect(volumeClaimTemplatesHash(undefined)).toBe('86995377');
  });

  it('single-pvc: 1129974074', () => {
    expect(volumeClaimTemplatesHash([claim('pvc-1', '1Gi', '2Gi')])).toBe('1129974074');
  });

  it('multi-pvcs: 510584408, in either order', () => {
    expect(volumeClaimTemplatesHash([claim('pvc-1', '1Gi', '2Gi'), claim('pvc-2', '2Gi', '4Gi')])).toBe('510584408');
    expect(volumeClaimTemplatesHash([claim('pvc-2', '2Gi', '4Gi'), claim('pvc-1', '1Gi', '2Gi')])).toBe('510584408');
  });

  it('labels and annotations of a template do not count', () => {
    const labelled = { ...claim('pvc-1', '1Gi', '2Gi'), metadata: { name: 'pvc-1', labels: { app: 'test', env: 'prod' }, annotations: { description: 'test pvc' } } };
    expect(volumeClaimTemplatesHash([labelled])).toBe('1129974074');
  });
});

// Computed by Go from scripts/vct-hash-go-vectors.json with scripts/vct-hash-go-vectors.ts (the
// k8s.io/api v0.32.10 structs, encoding/json, go-spew, hash/fnv; it reproduces the vectors above).
describe('volumeClaimTemplatesHash: Go-computed vectors', () => {
  const c = (name: string, accessModes: string[], requests: Record<string, string>, extra: Record<string, unknown> = {}, limits?: Record<string, string>): ClaimTemplate => ({
    metadata: { name },
    spec: { accessModes, resources: { ...(limits ? { limits } : {}), requests }, ...extra },
  });

  it('seed 001’s template as the webhook stores it (volumeMode Filesystem): 3510603703', () => {
    expect(volumeClaimTemplatesHash([c('data-vol', ['ReadWriteOnce'], { storage: '20Gi' }, { volumeMode: 'Filesystem' })])).toBe('3510603703');
  });

  it('1Gi and 2Gi claims named data: 765486926, 1653299716', () => {
    expect(volumeClaimTemplatesHash([c('data', ['ReadWriteOnce'], { storage: '1Gi' }, { volumeMode: 'Filesystem' })])).toBe('765486926');
    expect(volumeClaimTemplatesHash([c('data', ['ReadWriteOnce'], { storage: '2Gi' }, { volumeMode: 'Filesystem' })])).toBe('1653299716');
  });

  it('three templates out of order, with limits, a storage class, Block and a milli quantity: 1219153631, however the quantities are written', () => {
    const templates = (q: { zeta: string; alphaReq: string; alphaLim: string; mid: string }) => [
      c('zeta', ['ReadWriteOnce'], { storage: q.zeta }, { volumeMode: 'Filesystem' }),
      c('alpha', ['ReadWriteOnce', 'ReadOnlyMany'], { storage: q.alphaReq }, { volumeMode: 'Block', storageClassName: 'fast' }, { storage: q.alphaLim }),
      c('mid', ['ReadWriteOnce'], { storage: q.mid }),
    ];
    expect(volumeClaimTemplatesHash(templates({ zeta: '1Gi', alphaReq: '500Mi', alphaLim: '1Gi', mid: '1500m' }))).toBe('1219153631');
    expect(volumeClaimTemplatesHash(templates({ zeta: '1024Mi', alphaReq: '512000Ki', alphaLim: '1024Mi', mid: '1.5' }))).toBe('1219153631');
  });
});

describe('volumeClaimTemplatesHash: what Go would read', () => {
  it('quantities count in canonical form, however they are written', () => {
    expect(volumeClaimTemplatesHash([claim('pvc-1', '1024Mi', '2048Mi')])).toBe('1129974074');
    expect(volumeClaimTemplatesHash([claim('pvc-1', '1048576Ki', '2Gi')])).toBe('1129974074');
    expect(volumeClaimTemplatesHash([claim('pvc-1', '1024Mi', '2048Mi'), claim('pvc-2', '2048Mi', '4096Mi')])).toBe('510584408');
    expect(volumeClaimTemplatesHash([claim('pvc-1', '1Gi', '3Gi')])).not.toBe('1129974074');
  });

  it('a quantity written as a JSON number is a string in Go', () => {
    expect(volumeClaimTemplatesJson([claim('d', 1000, '1k')])).toContain('"limits":{"storage":"1k"},"requests":{"storage":"1k"}');
  });

  it('several templates out of order are sorted by name', () => {
    const [a, b, c] = [claim('alpha', '1Gi', '1Gi'), claim('beta', '2Gi', '2Gi'), claim('gamma', '3Gi', '3Gi')];
    const sorted = volumeClaimTemplatesHash([a!, b!, c!]);
    expect(volumeClaimTemplatesHash([c!, a!, b!])).toBe(sorted);
    expect(volumeClaimTemplatesHash([b!, c!, a!])).toBe(sorted);
    expect(volumeClaimTemplatesJson([c!, a!, b!]).match(/"name":"\w+"/g)).toEqual(['"name":"alpha"', '"name":"beta"', '"name":"gamma"']);
    expect(volumeClaimTemplatesHash([a!, b!])).not.toBe(sorted);
  });

  it('marshals each claim as Go does: name only, creationTimestamp null, empty status', () => {
    expect(volumeClaimTemplatesJson([claim('pvc-1', '1Gi', '2Gi', { volumeMode: 'Filesystem', storageClassName: 'fast' })])).toBe(
      '[{"metadata":{"name":"pvc-1","creationTimestamp":null},"spec":{"accessModes":["ReadWriteOnce"],"resources":{"limits":{"storage":"2Gi"},"requests":{"storage":"1Gi"}},"storageClassName":"fast","volumeMode":"Filesystem"},"status":{}}]',
    );
  });

  it('the annotation is "" without templates', () => {
    expect(volumeClaimTemplatesAnnotation([])).toBe('');
    expect(volumeClaimTemplatesAnnotation(undefined)).toBe('');
    expect(volumeClaimTemplatesAnnotation([claim('pvc-1', '1Gi', '2Gi')])).toBe('1129974074');
  });
});

describe('the pieces', () => {
  it('spew %#v of a []byte: the type, then the bytes in decimal', () => {
    expect(spewByteSlice(new TextEncoder().encode('null'))).toBe('([]uint8)[110 117 108 108]');
  });

  it('FNV-1a 32 (published test values)', () => {
    expect(fnv32a('')).toBe(0x811c9dc5);
    expect(fnv32a('a')).toBe(0xe40c292c);
    expect(fnv32a('foobar')).toBe(0xbf9cf968);
  });
});

// CanVCTemplateInplaceUpdate's table (same file).
describe('vctAllowsInPlace', () => {
  const rev = (hash?: string): { metadata: { annotations: Record<string, string> } } => ({ metadata: { annotations: hash === undefined ? {} : { 'kruise.io/cloneset-volumeclaimtemplate-hash': hash } } });
  it.each([
    [undefined, undefined, true],
    [undefined, '1129974074', true],
    [undefined, '', true],
    ['', '', true],
    ['11', '11', true],
    ['11', '', false],
    ['11', '22', false],
    ['1129974074', undefined, true],
  ])('old %s, new %s → %s', (from, to, want) => {
    expect(vctAllowsInPlace(rev(from), rev(to))).toBe(want);
  });
});
