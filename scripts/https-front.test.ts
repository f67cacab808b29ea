// The local Worker keeps an idle HTTPS connection open longer than workerd's 5 s, as the API
// server's webhook client expects (https-front.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensurePki, issueServingCert } from '../test/cluster/pki.js';
import { answersAfterIdle } from '../test/cluster/keep-alive-probe.js';
import { startLocalWorker, type LocalWorker } from './local-worker.js';
import { fetchTrustingCa } from '../src/edge-state/ca-fetch.js';

const dir = mkdtempSync(join(tmpdir(), 'ks-front-'));
let worker: LocalWorker;
let fetchTrusting: ReturnType<typeof fetchTrustingCa>;

beforeAll(async () => {
  const pki = ensurePki(dir);
  const cert = issueServingCert(dir, 'front', ['localhost'], ['127.0.0.1']);
  fetchTrusting = fetchTrustingCa(readFileSync(pki.caCert, 'utf8'));
  worker = await startLocalWorker({ tls: { cert: readFileSync(cert.cert, 'utf8'), key: readFileSync(cert.key, 'utf8') } });
}, 60_000);

afterAll(async () => {
  await worker?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

it('answers on a connection left idle for 6 s (workerd alone closes it at 5 s)', async () => {
  expect(await answersAfterIdle(worker.url, 6_000)).toBe(true);
}, 30_000);

it('answers every request workerd refuses before reading its body (workerd then cuts the connection)', async () => {
  const statuses = new Map<number, number>();
  for (let i = 0; i < 60; i++) {
    const res = await fetchTrusting(`${worker.url}/clusters/nobody/not-a-secret/mutate-pod`, { method: 'POST', body: JSON.stringify({ padding: 'x'.repeat(20_000) }) });
    await res.arrayBuffer();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
  expect(Object.fromEntries(statuses)).toEqual({ 404: 60 });
}, 60_000);

it('dispose drops a connection with a request in flight instead of waiting for it (an edge restart)', async () => {
  const dir2 = mkdtempSync(join(tmpdir(), 'ks-front-'));
  ensurePki(dir2);
  const cert = issueServingCert(dir2, 'front', ['localhost'], ['127.0.0.1']);
  const second = await startLocalWorker({ tls: { cert: readFileSync(cert.cert, 'utf8'), key: readFileSync(cert.key, 'utf8') } });
  const socket = connect({ host: '127.0.0.1', port: Number(new URL(second.url).port), rejectUnauthorized: false });
  socket.on('error', () => undefined);
  await new Promise((r) => socket.once('secureConnect', r));
  const closed = new Promise((r) => socket.once('close', r));
  // Half a body: the request stays in flight until the client sends the rest, which it never does.
  socket.write('POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345');
  await new Promise((r) => setTimeout(r, 300));
  await second.dispose();
  await closed;
  rmSync(dir2, { recursive: true, force: true });
}, 20_000);
