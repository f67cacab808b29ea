// KubeHttp against a local HTTP server that plays the API server: watches that never end, answers
// that are refused, late or never come.
import type { ServerResponse } from 'node:http';
import { setMaxListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { json, serveApi as serve } from './test-api-server.js';
import { KubeApiError } from './errors.js';
import { KubeTransportError, MAX_ATTEMPTS } from './retry-policy.js';
import type { Clock } from './request-limiter.js';

const podList = (res: ServerResponse) => json(res, 200, { kind: 'PodList', metadata: { resourceVersion: '7' }, items: [{ metadata: { name: 'a', namespace: 'ns' } }] });

/** A clock whose sleeps take no time: it records them and moves on. */
function instantClock(): Clock & { slept: number[] } {
  let t = 0;
  const slept: number[] = [];
  return { slept, now: () => t, sleep: async (ms) => void (slept.push(ms), (t += ms)) };
}

describe('KubeHttp: watches do not take request capacity', () => {
  it('a LIST completes while more watches are open than requests may be in flight', async () => {
    const watching: ServerResponse[] = [];
    const kube = await serve((_req, res, url) => {
      if (url.searchParams.get('watch') === 'true') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.flushHeaders();
        return void watching.push(res); // never ends
      }
      podList(res);
    }, { limits: { qps: 1000, burst: 1000, maxInFlight: 4 } });
    const stop = new AbortController();
    setMaxListeners(50, stop.signal);
    const watches = Array.from({ length: 40 }, () => kube.watch('v1', 'Pod', { resourceVersion: '1', timeoutSeconds: 600, signal: stop.signal }, () => undefined));
    await expect.poll(() => watching.length, { timeout: 5000 }).toBe(40);
    const list = await kube.list('v1', 'Pod');
    expect(list.items.map((p) => p.metadata?.name)).toEqual(['a']);
    stop.abort();
    await Promise.all(watches);
  });
});

describe('KubeHttp: refused and failed requests', () => {
  it('a 429 is retried for any verb after its Retry-After; the answer after it is returned', async () => {
    const clock = instantClock();
    let posts = 0;
    const kube = await serve((req, res) => {
      posts += 1;
      if (posts <= 2) return json(res, 429, { kind: 'Status', reason: 'TooManyRequests', message: 'slow down' }, { 'retry-after': '3' });
      json(res, 201, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } });
      req.resume();
    }, { clock, random: () => 0.5 });
    const created = await kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } });
    expect(created.metadata?.name).toBe('p');
    expect(posts).toBe(3);
    expect(clock.slept).toEqual([3000, 3000]);
  });

  it('a read that keeps failing with 5xx is tried a bounded number of times, backing off, then fails with the status', async () => {
    const clock = instantClock();
    let gets = 0;
    const kube = await serve((_req, res) => {
      gets += 1;
      json(res, 503, { kind: 'Status', reason: 'ServiceUnavailable', message: 'etcd is down' });
    }, { clock, random: () => 0 });
    const err = await kube.get('v1', 'Pod', 'p', 'ns').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeApiError);
    expect((err as KubeApiError).status).toBe(503);
    expect(gets).toBe(MAX_ATTEMPTS);
    expect(clock.slept).toEqual([125, 250, 500, 1000]);
  });

  it('a 429 without Retry-After (a budget refusing an eviction) is returned at once', async () => {
    const clock = instantClock();
    let posts = 0;
    const kube = await serve((req, res) => {
      posts += 1;
      req.resume();
      json(res, 429, { kind: 'Status', reason: 'TooManyRequests', message: 'admission webhook "vpub" denied the request: no disruption allowed' });
    }, { clock });
    await expect(kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } })).rejects.toThrow(/429 admission webhook/);
    expect(posts).toBe(1);
  });

  it('a write answered 5xx is not sent again (it may have been applied)', async () => {
    const clock = instantClock();
    let puts = 0;
    const kube = await serve((req, res) => {
      puts += 1;
      req.resume();
      json(res, 500, { kind: 'Status', reason: 'InternalError', message: 'boom' });
    }, { clock });
    await expect(kube.replace({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } })).rejects.toThrow(/500 boom/);
    expect(puts).toBe(1);
  });

  it('a read whose connection drops is tried again', async () => {
    const clock = instantClock();
    let gets = 0;
    const kube = await serve((_req, res) => {
      gets += 1;
      if (gets === 1) return void res.socket?.destroy();
      podList(res);
    }, { clock });
    expect((await kube.list('v1', 'Pod')).items).toHaveLength(1);
    expect(gets).toBe(2);
  });
});

describe('KubeHttp: nothing waits forever', () => {
  it('a request with no answer times out; a read is retried, a write is not', async () => {
    const clock = instantClock();
    const seen: string[] = [];
    const kube = await serve((req) => void seen.push(req.method ?? ''), { clock, requestTimeoutMs: 50 });
    const read = await kube.get('v1', 'Pod', 'p', 'ns').catch((e: unknown) => e);
    expect(read).toBeInstanceOf(KubeTransportError);
    expect(String(read)).toMatch(/GET \/api\/v1\/namespaces\/ns\/pods\/p: no answer within 0.05s/);
    expect(seen.filter((m) => m === 'GET')).toHaveLength(MAX_ATTEMPTS);
    await expect(kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } })).rejects.toThrow(/POST .*no answer within/);
    expect(seen.filter((m) => m === 'POST')).toHaveLength(1);
  });

  it('a watch the server does not end by its timeout (plus grace) fails', async () => {
    const kube = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`${JSON.stringify({ type: 'ADDED', object: { metadata: { name: 'a' } } })}\n`);
    }, { watchGraceMs: 50 });
    const events: string[] = [];
    await expect(kube.watch('v1', 'Pod', { resourceVersion: '1', timeoutSeconds: 0 }, (e) => events.push(e.type))).rejects.toThrow(/watch Pod: not ended by the server 0.05s after its 0s timeout/);
    expect(events).toEqual(['ADDED']);
  });

  it('a watch on which nothing arrives for idleSeconds ends (the caller watches again)', async () => {
    const kube = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.flushHeaders();
    });
    await kube.watch('v1', 'Pod', { resourceVersion: '1', timeoutSeconds: 60, idleSeconds: 0.05 }, () => undefined);
  });
});

describe('KubeHttp.stats', () => {
  it('counts requests sent, and how long they waited for the QPS limit', async () => {
    const clock = instantClock();
    const kube = await serve((_req, res) => podList(res), { clock, limits: { qps: 10, burst: 2, maxInFlight: 8 } });
    for (let i = 0; i < 4; i++) await kube.list('v1', 'Pod');
    const s = kube.stats();
    // discovery + 4 LISTs; two went out at once (the burst), the others waited 100 ms each.
    expect(s).toEqual({ requests: 5, inFlight: 0, queued: 0, queueWaitMs: { count: 5, p50: 100, p99: 100, max: 100 } });
  });
});

describe('KubeHttp: discovery', () => {
  it('a kind missing from the cached discovery (a CRD established since) is looked up once more', async () => {
    let served = [{ name: 'sidecarsets', namespaced: false, kind: 'SidecarSet' }];
    let lookups = 0;
    const kube = await serve((_req, res, url) => {
      if (url.pathname === '/apis/apps.kruise.io/v1beta1') return void ((lookups += 1), json(res, 200, { resources: served }));
      json(res, 200, { kind: 'List', metadata: { resourceVersion: '1' }, items: [] });
    });
    await kube.list('apps.kruise.io/v1beta1', 'SidecarSet');
    served = [...served, { name: 'daemonsets', namespaced: true, kind: 'DaemonSet' }];
    expect(await kube.pathFor('apps.kruise.io/v1beta1', 'DaemonSet', 'ns')).toBe('/apis/apps.kruise.io/v1beta1/namespaces/ns/daemonsets');
    await expect(kube.pathFor('apps.kruise.io/v1beta1', 'Nothing')).rejects.toThrow(/does not serve Nothing/);
    expect(lookups).toBe(3);
  });
});
