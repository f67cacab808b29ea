import { describe, expect, it } from 'vitest';
import { RecentSamples, RequestLimiter, type Clock } from './request-limiter.js';
import { clientLimitsFromEnv } from './client-limits.js';

/** A clock that only moves when told to, or when a sleep is due. */
function manualClock() {
  let t = 0;
  const sleepers: { at: number; wake: () => void }[] = [];
  const clock: Clock = { now: () => t, sleep: (ms) => new Promise((wake) => sleepers.push({ at: t + ms, wake })) };
  const advance = async (ms: number) => {
    t += ms;
    for (const s of sleepers.filter((x) => x.at <= t)) {
      sleepers.splice(sleepers.indexOf(s), 1);
      s.wake();
    }
    await settle();
  };
  return { clock, advance };
}

/** Lets every promise that can settle do so. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('RequestLimiter', () => {
  it('lets a burst through at once, then one request per 1/qps seconds, in arrival order', async () => {
    const { clock, advance } = manualClock();
    const limiter = new RequestLimiter({ qps: 10, burst: 3, maxInFlight: 100, clock });
    const sent: number[] = [];
    for (let i = 0; i < 6; i++) void limiter.acquire().then((release) => (sent.push(i), release()));
    await settle();
    expect(sent).toEqual([0, 1, 2]);
    expect(limiter.stats().queued).toBe(3);
    await advance(100);
    expect(sent).toEqual([0, 1, 2, 3]);
    await advance(200);
    expect(sent).toEqual([0, 1, 2, 3, 4, 5]);
    expect(limiter.stats()).toEqual({ requests: 6, inFlight: 0, queued: 0, queueWaitMs: { count: 6, p50: 100, p99: 300, max: 300 } });
  });

  it('holds a request while maxInFlight are in flight, and passes it the first slot released', async () => {
    const { clock } = manualClock();
    const limiter = new RequestLimiter({ qps: 1000, burst: 1000, maxInFlight: 2, clock });
    const a = await limiter.acquire();
    await limiter.acquire();
    let third = false;
    void limiter.acquire().then(() => (third = true));
    await settle();
    expect(third).toBe(false);
    expect(limiter.stats()).toMatchObject({ inFlight: 2, queued: 1 });
    a();
    a(); // a second release of the same slot frees nothing more
    await settle();
    expect(third).toBe(true);
    expect(limiter.stats()).toMatchObject({ inFlight: 2, queued: 0 });
  });

  it('refuses limits that would block every request', () => {
    expect(() => new RequestLimiter({ qps: 0, burst: 1, maxInFlight: 1 })).toThrow(/qps > 0/);
    expect(() => new RequestLimiter({ qps: 1, burst: 1, maxInFlight: 0 })).toThrow(/maxInFlight ≥ 1/);
  });
});

describe('RecentSamples', () => {
  it('keeps only the last N values for percentiles, but counts all and keeps the maximum of all', () => {
    const s = new RecentSamples(4);
    for (const v of [1000, 1, 2, 3, 4, 5]) s.add(v);
    expect(s.summary()).toEqual({ count: 6, p50: 4, p99: 5, max: 1000 });
    expect(new RecentSamples(4).summary()).toEqual({ count: 0, p50: 0, p99: 0, max: 0 });
  });
});

describe('clientLimitsFromEnv', () => {
  it('defaults, KS_KUBE_QPS / KS_KUBE_BURST, and a clear error for bad values', () => {
    expect(clientLimitsFromEnv({})).toEqual({ qps: 200, burst: 400, maxInFlight: 32 });
    expect(clientLimitsFromEnv({ KS_KUBE_QPS: '5', KS_KUBE_BURST: '10' })).toMatchObject({ qps: 5, burst: 10 });
    expect(() => clientLimitsFromEnv({ KS_KUBE_QPS: 'fast' })).toThrow('KS_KUBE_QPS must be a positive number (got "fast")');
    expect(() => clientLimitsFromEnv({ KS_KUBE_BURST: '0' })).toThrow('KS_KUBE_BURST must be a positive number (got "0")');
  });
});
