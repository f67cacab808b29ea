// A rotated certificate reaches new connections without a restart: files replaced the way a
// Kubernetes secret volume replaces them (its `..data` symlink swapped to a new directory).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type PeerCertificate } from 'node:tls';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readTlsFiles, reloadTlsOnChange, type TlsReloader } from './tls-reload.js';

let work: string;
const certs: Record<'a' | 'b', { cert: string; key: string }> = { a: { cert: '', key: '' }, b: { cert: '', key: '' } };

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ks-tls-'));
  for (const name of ['a', 'b'] as const) {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=cert-${name}`,
      '-keyout', join(work, `${name}.key`), '-out', join(work, `${name}.crt`)], { stdio: 'ignore' });
    certs[name] = readTlsFiles({ cert: join(work, `${name}.crt`), key: join(work, `${name}.key`) });
  }
  return () => rmSync(work, { recursive: true, force: true });
});

let server: Server | undefined;
let reloader: TlsReloader | undefined;
afterEach(async () => {
  reloader?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** A secret volume: DIR/tls.crt → ..data/tls.crt, ..data → a timestamped directory. */
function secretVolume(): { dir: string; publish(pair: { cert: string; key: string }): void } {
  const dir = mkdtempSync(join(work, 'vol-'));
  let n = 0;
  const publish = (pair: { cert: string; key: string }) => {
    const version = `..${++n}`;
    mkdirSync(join(dir, version));
    writeFileSync(join(dir, version, 'tls.crt'), pair.cert);
    writeFileSync(join(dir, version, 'tls.key'), pair.key);
    symlinkSync(version, join(dir, '..data_tmp'));
    renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
  };
  return { dir, publish };
}

async function start(dir: string, intervalMs: number): Promise<number> {
  const files = { cert: join(dir, 'tls.crt'), key: join(dir, 'tls.key') };
  const loaded = readTlsFiles(files);
  const s = createServer(loaded, (_req, res) => res.end('ok'));
  server = s;
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  reloader = reloadTlsOnChange(s, files, loaded, { intervalMs });
  const addr = s.address();
  return typeof addr === 'object' && addr ? addr.port : 0;
}

/** The CN of the certificate a new TLS connection is given. */
function servedName(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      const cert: PeerCertificate = socket.getPeerCertificate();
      socket.end();
      resolve(String(cert.subject.CN));
    });
    socket.on('error', reject);
  });
}

/** New connections until one is served `name` (the reload is asynchronous), at most `ms`. */
async function untilServed(port: number, name: string, ms = 4_000): Promise<string> {
  const deadline = Date.now() + ms;
  let seen = await servedName(port);
  while (seen !== name && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    seen = await servedName(port);
  }
  return seen;
}

function volumeWithA(): { dir: string; publish(pair: { cert: string; key: string }): void } {
  const vol = secretVolume();
  vol.publish(certs.a);
  symlinkSync(join('..data', 'tls.crt'), join(vol.dir, 'tls.crt'));
  symlinkSync(join('..data', 'tls.key'), join(vol.dir, 'tls.key'));
  return vol;
}

describe('TLS reload', () => {
  it('a new connection gets the rotated certificate (secret volume symlink swap, seen by the watch)', async () => {
    const vol = volumeWithA();
    const port = await start(vol.dir, 3_600_000);
    expect(await servedName(port)).toBe('cert-a');
    vol.publish(certs.b);
    expect(await untilServed(port, 'cert-b')).toBe('cert-b');
  });

  it('the periodic check finds a rotation on its own', async () => {
    const vol = volumeWithA();
    const port = await start(vol.dir, 100);
    reloader!.close(); // no watch: only an explicit check now
    vol.publish(certs.b);
    expect(await servedName(port)).toBe('cert-a');
    expect(reloader!.check()).toBe(true);
    expect(await servedName(port)).toBe('cert-b');
  });

  it('keeps the current certificate while the files hold a mismatched pair, and takes the new one once whole', async () => {
    const vol = volumeWithA();
    const port = await start(vol.dir, 3_600_000);
    reloader!.close();
    vol.publish({ cert: certs.b.cert, key: certs.a.key });
    expect(reloader!.check()).toBe(false);
    expect(await servedName(port)).toBe('cert-a');
    vol.publish(certs.b);
    expect(reloader!.check()).toBe(true);
    expect(await servedName(port)).toBe('cert-b');
  });

  it('keeps serving when the files disappear', async () => {
    const vol = volumeWithA();
    const port = await start(vol.dir, 3_600_000);
    reloader!.close();
    rmSync(join(vol.dir, '..data'));
    expect(reloader!.check()).toBe(false);
    expect(await servedName(port)).toBe('cert-a');
  });
});
