import { describe, expect, it } from 'vitest';
import { KubeTransportError, MAX_ATTEMPTS, MAX_RETRY_AFTER_MS, backoffMs, retryAfterMs, retryDelayMs } from './retry-policy.js';

const lost = { error: new KubeTransportError('GET /x: socket hang up') };

describe('retryDelayMs', () => {
  it('429 with Retry-After (throttling): every verb, after the time asked', () => {
    for (const m of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']) expect(retryDelayMs(m, { status: 429, retryAfter: '2' }, 1)).toBe(2000);
  });

  it('429 without Retry-After is an answer (an eviction a budget refuses), never retried', () => {
    expect(retryDelayMs('POST', { status: 429 }, 1)).toBeUndefined();
    expect(retryDelayMs('GET', { status: 429 }, 1)).toBeUndefined();
  });

  it('a Retry-After longer than we wait for is reported instead', () => {
    expect(retryDelayMs('GET', { status: 429, retryAfter: String(MAX_RETRY_AFTER_MS / 1000 + 1) }, 1)).toBeUndefined();
  });

  it('5xx and lost connections: reads only', () => {
    expect(retryDelayMs('GET', { status: 503 }, 1, () => 0)).toBe(125);
    expect(retryDelayMs('GET', { status: 503, retryAfter: '1' }, 1)).toBe(1000);
    expect(retryDelayMs('GET', lost, 1, () => 0)).toBe(125);
    for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(retryDelayMs(m, { status: 500 }, 1)).toBeUndefined();
      expect(retryDelayMs(m, lost, 1)).toBeUndefined();
    }
  });

  it('never other statuses, nor errors that are not the connection', () => {
    for (const status of [400, 403, 404, 409, 410, 422]) expect(retryDelayMs('GET', { status }, 1)).toBeUndefined();
    expect(retryDelayMs('GET', { error: new SyntaxError('bad page') }, 1)).toBeUndefined();
  });

  it('gives up after MAX_ATTEMPTS attempts', () => {
    expect(retryDelayMs('GET', { status: 429, retryAfter: '1' }, MAX_ATTEMPTS - 1)).toBeDefined();
    expect(retryDelayMs('GET', { status: 429, retryAfter: '1' }, MAX_ATTEMPTS)).toBeUndefined();
  });
});

describe('backoffMs', () => {
  it('doubles per attempt up to a cap, half of each step random', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((a) => backoffMs(a, () => 0))).toEqual([125, 250, 500, 1000, 2000, 4000, 4000, 4000]);
    expect(backoffMs(1, () => 0.999999)).toBeCloseTo(250, 0);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds or an HTTP date; nothing readable is undefined', () => {
    expect(retryAfterMs('1')).toBe(1000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    const now = Date.parse('Sat, 28 Nov 2026 12:00:00 GMT');
    expect(retryAfterMs('Sat, 28 Nov 2026 12:00:05 GMT', () => now)).toBe(5000);
    expect(retryAfterMs('Sat, 28 Nov 2026 11:00:00 GMT', () => now)).toBe(0);
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs('-1')).toBeUndefined();
  });
});
