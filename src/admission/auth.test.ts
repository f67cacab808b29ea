import { describe, expect, it } from 'vitest';
import { bearerToken, constantTimeEqual, isClusterId, newSecret, rotateCredentials, sha256Hex, verifySecret } from './auth.js';

describe('path secrets', () => {
  it('are 256-bit hex and unique', () => {
    const a = newSecret();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(newSecret()).not.toBe(a);
  });

  it('hash to the known SHA-256', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it.each([
    ['same', 'abc', 'abc', true],
    ['different', 'abc', 'abd', false],
    ['prefix', 'abc', 'ab', false],
    ['empty vs non-empty', '', 'a', false],
  ])('constantTimeEqual: %s', (_n, a, b, want) => {
    expect(constantTimeEqual(a, b)).toBe(want);
  });

  it('verify the right secret, not a wrong one, and never for an unknown cluster', async () => {
    const secret = newSecret();
    const creds = [{ sha256: await sha256Hex(secret) }];
    expect(await verifySecret(secret, creds, 0)).toBe(true);
    expect(await verifySecret(newSecret(), creds, 0)).toBe(false);
    expect(await verifySecret(secret, undefined, 0)).toBe(false);
    // the dummy used for unknown clusters is not a usable credential either
    expect(await verifySecret('', undefined, 0)).toBe(false);
  });

  it('rotation keeps the old secret valid only during the overlap', async () => {
    const old = newSecret();
    const fresh = newSecret();
    const creds = rotateCredentials([{ sha256: await sha256Hex(old) }], await sha256Hex(fresh), 1_000, 60_000);
    expect(await verifySecret(old, creds, 30_000)).toBe(true);
    expect(await verifySecret(fresh, creds, 30_000)).toBe(true);
    expect(await verifySecret(old, creds, 61_001)).toBe(false);
    expect(await verifySecret(fresh, creds, 10_000_000)).toBe(true);
    // a second rotation drops what has already expired
    const again = rotateCredentials(creds, await sha256Hex(newSecret()), 100_000, 60_000);
    expect(again).toHaveLength(2);
  });
});

describe('helpers', () => {
  it.each([
    ['prod-eu-1', true],
    ['a', true],
    ['Prod', false],
    ['-x', false],
    ['x'.repeat(64), false],
    ['../etc', false],
  ])('isClusterId(%s)', (id, want) => expect(isClusterId(id)).toBe(want));

  it.each([
    ['Bearer abc', 'abc'],
    ['bearer  abc ', 'abc'],
    ['Basic abc', undefined],
    [null, undefined],
  ])('bearerToken(%s)', (h, want) => expect(bearerToken(h)).toBe(want));
});
