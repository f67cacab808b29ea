import { describe, expect, it } from 'vitest';
import { holds } from './apply.js';

describe('holds (live already has what we would apply)', () => {
  it.each([
    ['extra live fields are fine', { a: 1, b: { c: 2, d: 3 } }, { b: { c: 2 } }, true],
    ['a changed value is not', { a: 1 }, { a: 2 }, false],
    ['a missing field is not', { b: {} }, { b: { c: 1 } }, false],
    ['lists must match item for item', { l: [{ k: 'x', extra: 1 }] }, { l: [{ k: 'x' }] }, true],
    ['a longer live list is not', { l: [1, 2] }, { l: [1] }, false],
    ['a list where an object is wanted is not', { a: [] }, { a: {} }, false],
  ])('%s', (_n, live, want, expected) => {
    expect(holds(live, want)).toBe(expected);
  });
});
