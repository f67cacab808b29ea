import { describe, expect, it } from 'vitest';
import { bearerToken, constantTimeEqual, isClusterId, newSecret, rotateCredentials, secretVerifier, sha256Hex, verifySecret } from './auth.js';

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

describe('secretVerifier', () => {
  const counting = () => {
    const calls: string[] = [];
    return { calls, hasher: async (t: string) => (calls.push(t), sha256Hex(t)) };
  };

  it('hashes a secret that verified once, and still checks it against the credentials of each call', async () => {
    const { calls, hasher } = counting();
    const verify = secretVerifier(hasher);
    const secret = newSecret();
    const creds = [{ sha256: await sha256Hex(secret) }];
    expect(await verify(secret, creds, 0)).toBe(true);
    expect(await verify(secret, creds, 0)).toBe(true);
    expect(calls).toEqual([secret]);
    // another cluster's credentials, an expired credential, an unknown cluster: refused all the same
    expect(await verify(secret, [{ sha256: await sha256Hex(newSecret()) }], 0)).toBe(false);
    expect(await verify(secret, [{ sha256: creds[0]!.sha256, notAfter: 10 }], 11)).toBe(false);
    expect(await verify(secret, undefined, 0)).toBe(false);
    expect(calls).toEqual([secret]);
  });

  it('never keeps a wrong secret: each attempt is hashed', async () => {
    const { calls, hasher } = counting();
    const verify = secretVerifier(hasher);
    const creds = [{ sha256: await sha256Hex(newSecret()) }];
    const wrong = newSecret();
    expect(await verify(wrong, creds, 0)).toBe(false);
    expect(await verify(wrong, creds, 0)).toBe(false);
    expect(calls).toEqual([wrong, wrong]);
  });

  it('keeps at most `capacity` secrets, forgetting the oldest', async () => {
    const { calls, hasher } = counting();
    const verify = secretVerifier(hasher, 2);
    const secrets = [newSecret(), newSecret(), newSecret()];
    const creds = await Promise.all(secrets.map(async (s) => ({ sha256: await sha256Hex(s) })));
    for (const s of secrets) expect(await verify(s, creds, 0)).toBe(true);
    expect(await verify(secrets[2]!, creds, 0)).toBe(true); // kept
    expect(await verify(secrets[0]!, creds, 0)).toBe(true); // forgotten: hashed again
    expect(calls).toEqual([...secrets, secrets[0]]);
  });
});
