import { describe, expect, it } from 'vitest';
import { cachedRegistry, CREDENTIALS_CACHE_MS } from './credentials-cache.js';

describe('cachedRegistry', () => {
  it('reads once per period, again after it, and at once after forget', async () => {
    let t = 0;
    let reads = 0;
    const registry = cachedRegistry(async (id) => ({ clusterId: id, webhookSecrets: [{ sha256: String(++reads) }], syncTokens: [] }), () => t);
    expect((await registry.credentials('c'))?.webhookSecrets[0]?.sha256).toBe('1');
    t = CREDENTIALS_CACHE_MS - 1;
    expect((await registry.credentials('c'))?.webhookSecrets[0]?.sha256).toBe('1');
    t = CREDENTIALS_CACHE_MS;
    expect((await registry.credentials('c'))?.webhookSecrets[0]?.sha256).toBe('2');
    registry.forget('c');
    expect((await registry.credentials('c'))?.webhookSecrets[0]?.sha256).toBe('3');
  });

  it('remembers an unknown cluster too, so a flood of bad URLs costs one read per period', async () => {
    let reads = 0;
    const registry = cachedRegistry(async () => void reads++, () => 0);
    await registry.credentials('nope');
    await registry.credentials('nope');
    expect(reads).toBe(1);
  });
});
