import { describe, expect, it } from 'vitest';
import type { InPlaceUpdateSpec, MetadataChange } from './inplace-update.js';
import {
  encodeInPlaceUpdateGrace,
  INPLACE_UPDATE_GRACE_KEY,
  INPLACE_UPDATE_GRACE_KEY_OLD,
  metadataChangeOf,
  metadataPatchJson,
  readInPlaceUpdateGrace,
  withoutInPlaceUpdateGrace,
} from './inplace-update-grace.js';

const meta = (m: Partial<MetadataChange> = {}): MetadataChange => ({
  labels: { set: {}, removed: [] },
  annotations: { set: {}, removed: [] },
  finalizers: { added: [], removed: [], order: null },
  ...m,
});

// The grace annotation: pkg/util/inplaceupdate/inplace_update_test.go TestRefresh
// (`{"revision":"new-revision","containerImages":{"main":"img-name02"},"graceSeconds":30}`).
describe('the grace annotation', () => {
  const spec: InPlaceUpdateSpec = { kind: 'in-place', images: { main: 'img-name02' }, metadata: meta() };

  it('encodes UpdateSpec as Go does', () => {
    expect(encodeInPlaceUpdateGrace(spec, 'new-revision', 30)).toBe('{"revision":"new-revision","containerImages":{"main":"img-name02"},"graceSeconds":30}');
  });

  it('decodes it, from the new key or the legacy one', () => {
    const text = '{"revision":"new-revision","containerImages":{"main":"img-name02"},"graceSeconds":30}';
    const want = { revision: 'new-revision', graceSeconds: 30, spec };
    expect(readInPlaceUpdateGrace({ [INPLACE_UPDATE_GRACE_KEY]: text })).toEqual(want);
    expect(readInPlaceUpdateGrace({ [INPLACE_UPDATE_GRACE_KEY_OLD]: text })).toEqual(want);
    expect(readInPlaceUpdateGrace({})).toBeUndefined();
    expect(readInPlaceUpdateGrace({ [INPLACE_UPDATE_GRACE_KEY]: '[' })).toBe('invalid');
  });

  it('carries the metadata patch as base64 bytes ([]byte in Go) and reads it back', () => {
    const withLabels: InPlaceUpdateSpec = { ...spec, metadata: meta({ labels: { set: { k1: 'v1' }, removed: [] } }) };
    const text = encodeInPlaceUpdateGrace(withLabels, 'r', 5);
    // base64 of {"metadata":{"labels":{"k1":"v1"}}}
    expect(text).toBe('{"revision":"r","containerImages":{"main":"img-name02"},"metaDataPatch":"eyJtZXRhZGF0YSI6eyJsYWJlbHMiOnsiazEiOiJ2MSJ9fX0=","graceSeconds":5}');
    expect(readInPlaceUpdateGrace({ [INPLACE_UPDATE_GRACE_KEY]: text })).toEqual({ revision: 'r', graceSeconds: 5, spec: withLabels });
  });

  it('drops both keys', () => {
    expect(withoutInPlaceUpdateGrace({ [INPLACE_UPDATE_GRACE_KEY]: 'a', [INPLACE_UPDATE_GRACE_KEY_OLD]: 'b', x: 'y' })).toEqual({ x: 'y' });
  });
});

// MetaDataPatch vectors: inplace_update_test.go TestCalculateInPlaceUpdateSpec.
describe('metadataPatchJson (strategicpatch.CreateTwoWayMergePatch of the template metadata)', () => {
  it('an added label', () => {
    expect(metadataPatchJson(meta({ labels: { set: { k1: 'v1' }, removed: [] } }))).toBe('{"metadata":{"labels":{"k1":"v1"}}}');
  });

  it('labels and a removed finalizer', () => {
    const m = meta({ labels: { set: { k1: 'v1' }, removed: ['k2'] }, finalizers: { added: [], removed: ['fz1'], order: ['fz2'] } });
    const patch = '{"metadata":{"$deleteFromPrimitiveList/finalizers":["fz1"],"$setElementOrder/finalizers":["fz2"],"labels":{"k1":"v1","k2":null}}}';
    expect(metadataPatchJson(m)).toBe(patch);
    expect(metadataChangeOf(JSON.parse(patch))).toEqual(m);
  });

  it('nothing to patch', () => expect(metadataPatchJson(meta())).toBeUndefined());
});
