import { describe, expect, it } from 'vitest';
import { inOrdinalRange, liveOrdinals, ordinalRange, parentAndOrdinal, reservedOrdinals } from './ordinals.js';

describe('parentAndOrdinal', () => {
  it('splits at the last dash followed by digits only', () => {
    expect(parentAndOrdinal('web-3')).toEqual({ parent: 'web', ordinal: 3 });
    expect(parentAndOrdinal('my-web-12')).toEqual({ parent: 'my-web', ordinal: 12 });
    expect(parentAndOrdinal('web-x')).toEqual({ parent: '', ordinal: -1 });
    expect(parentAndOrdinal('web')).toEqual({ parent: '', ordinal: -1 });
    expect(parentAndOrdinal('web-99999999999')).toEqual({ parent: 'web', ordinal: -1 });
  });
});

describe('reserveOrdinals', () => {
  it('takes numbers and inclusive ranges', () => {
    expect([...reservedOrdinals([1, '3-5'])].sort()).toEqual([1, 3, 4, 5]);
  });
  it('a malformed range voids the list, as OpenKruise does', () => {
    expect(reservedOrdinals([1, '5-3']).size).toBe(0);
    expect(reservedOrdinals([1, 'x']).size).toBe(0);
  });
});

describe('ordinalRange (seed 000 §3.2.3, seed 002)', () => {
  it('replicas 4 with [1] runs 0, 2, 3, 4', () => {
    const r = ordinalRange(4, 0, [1]);
    expect(liveOrdinals(r)).toEqual([0, 2, 3, 4]);
    expect(r.end).toBe(5);
    expect(inOrdinalRange(1, r)).toBe(false);
    expect(inOrdinalRange(4, r)).toBe(true);
  });
  it('reserving 3 as well moves the last pod to 5', () => {
    expect(liveOrdinals(ordinalRange(4, 0, [1, 3]))).toEqual([0, 2, 4, 5]);
  });
  it('starts at ordinals.start', () => {
    expect(liveOrdinals(ordinalRange(3, 5, [6]))).toEqual([5, 7, 8]);
  });
  it('zero replicas is an empty range', () => {
    expect(liveOrdinals(ordinalRange(0, 0, [0]))).toEqual([]);
  });
});
