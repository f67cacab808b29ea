import { describe, expect, it } from 'vitest';
import { mapFieldPatch, omitEmpty } from './merge-patch.js';

describe('mapFieldPatch', () => {
  it.each<[string, Record<string, string> | undefined | null, Record<string, string> | undefined, unknown]>([
    ['empty, nothing stored: left out', undefined, {}, undefined],
    ['empty, null stored: left out', null, undefined, undefined],
    ['empty, {} stored: deleted', {}, {}, null],
    ['emptied: deleted', { a: '1' }, {}, null],
    ['a key gone: null for it', { a: '1', b: '2' }, { b: '2' }, { a: null, b: '2' }],
    ['new keys', undefined, { a: '1' }, { a: '1' }],
  ])('%s', (_name, current, next, want) => {
    expect(mapFieldPatch(current, next)).toEqual(want);
  });
});

describe('omitEmpty', () => {
  it('drops empty maps', () => {
    expect(omitEmpty({})).toBeUndefined();
    expect(omitEmpty(undefined)).toBeUndefined();
    expect(omitEmpty({ a: 1 })).toEqual({ a: 1 });
  });
});
