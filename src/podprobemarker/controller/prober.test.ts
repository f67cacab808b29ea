import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from './net-probe.js';
import { NetProber } from './prober.js';
import type { ProbeTarget } from './targets.js';

let http: Server;
let httpPort = 0;
const tcp = createTcpServer((s) => s.end());
let tcpPort = 0;

beforeAll(async () => {
  http = createHttpServer((req, res) => {
    res.statusCode = req.url === '/healthz' && req.headers['user-agent'] === 'kube-probe' ? 200 : 503;
    res.end();
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  httpPort = (http.address() as AddressInfo).port;
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  tcpPort = (tcp.address() as AddressInfo).port;
});
afterAll(() => {
  http.close();
  tcp.close();
});

describe('runProbe against 127.0.0.1', () => {
  it('tcp: open port succeeds, closed port fails with the dial error', async () => {
    expect(await runProbe({ kind: 'tcp', host: '127.0.0.1', port: tcpPort }, 1)).toEqual({ ok: true, message: '' });
    const closed = await runProbe({ kind: 'tcp', host: '127.0.0.1', port: 1 }, 1);
    expect(closed.ok).toBe(false);
    expect(closed.message).toMatch(/^dial tcp 127\.0\.0\.1:1: .*ECONNREFUSED/);
  });

  it('http: 2xx succeeds; other codes fail with the status code', async () => {
    const get = (path: string) => runProbe({ kind: 'http', host: '127.0.0.1', port: httpPort, path, scheme: 'http', headers: [] }, 1);
    expect(await get('/healthz')).toEqual({ ok: true, message: '' });
    expect(await get('/other')).toEqual({ ok: false, message: 'HTTP probe failed with statuscode: 503' });
  });
});

describe('NetProber', () => {
  const target = (over: Partial<ProbeTarget> = {}): ProbeTarget => ({
    key: 'u/m#p', action: { kind: 'tcp', host: '127.0.0.1', port: 1 }, containerName: 'main', container: { running: true, startedAt: '2026-01-01T00:00:00Z' },
    timeoutSeconds: 1, periodSeconds: 10, initialDelaySeconds: 1, successThreshold: 1, failureThreshold: 2, ...over,
  });
  const at = (s: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + s * 1000);

  it('waits the initial delay and the period, and reports a failure only after failureThreshold in a row', async () => {
    const outcomes = [false, false, true];
    let calls = 0;
    const prober = new NetProber(async () => ({ ok: outcomes[calls++]!, message: 'm' }));
    expect((await prober.probe([target({ initialDelaySeconds: 5 })], at(2))).size).toBe(0);
    expect(calls).toBe(0);
    expect((await prober.probe([target()], at(5))).size).toBe(0);
    expect((await prober.probe([target()], at(8))).size).toBe(0);
    expect(calls).toBe(1);
    expect((await prober.probe([target()], at(15))).get('u/m#p')).toMatchObject({ state: 'Failed', changedAt: at(15).toISOString() });
    expect((await prober.probe([target()], at(25))).get('u/m#p')).toMatchObject({ state: 'Succeeded', message: 'm', changedAt: at(25).toISOString() });
  });

  it('fails a container that is not running without probing it', async () => {
    const prober = new NetProber(async () => ({ ok: true, message: '' }));
    expect((await prober.probe([target({ container: { running: false } })], at(30))).get('u/m#p')).toMatchObject({ state: 'Failed', message: 'Container(main) is Non-running' });
  });
});
