// The self-hosted bundle exactly as the image runs it: dist/node built into a folder with no
// node_modules anywhere above it, `node server.mjs` with the Deployment's environment (certificate
// files in a secret-volume layout). It answers over HTTPS; a rotated certificate reaches new
// connections without a restart; SIGTERM stops it (Node as PID 1 has no default handler).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { connect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSelfHosted } from './node-bundle.js';

const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
let work: string;
let server: ChildProcess | undefined;

/** `dir/tls.crt` → `..data/tls.crt`, `..data` → a new directory per version, swapped atomically. */
function publish(dir: string, version: string, cn: string): void {
  mkdirSync(join(dir, version));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${cn}`,
    '-keyout', join(dir, version, 'tls.key'), '-out', join(dir, version, 'tls.crt')], { stdio: 'ignore' });
  symlinkSync(version, join(dir, '..data_tmp'));
  renameSync(join(dir, '..data_tmp'), join(dir, '..data'));
}

const servedName = (port: number) => new Promise<string>((resolve, reject) => {
  const s = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
    resolve(String(s.getPeerCertificate().subject.CN));
    s.end();
  });
  s.on('error', reject);
});

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'ks-node-bundle-'));
  await buildSelfHosted(REPO_ROOT, join(work, 'app'));
}, 120_000);
afterAll(() => {
  server?.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('dist/node, as the image runs it', () => {
  it('is self-contained: no node_modules above it', () => {
    for (let d = join(work, 'app'); d !== dirname(d); d = dirname(d)) expect(existsSync(join(d, 'node_modules')), d).toBe(false);
    expect(existsSync(join(work, 'app', 'server.mjs')) && existsSync(join(work, 'app', 'cli.mjs'))).toBe(true);
  });

  it('serves HTTPS, reloads a rotated certificate, and exits 0 on SIGTERM', async () => {
    const tls = join(work, 'tls');
    mkdirSync(tls);
    publish(tls, '..v1', 'cert-a');
    symlinkSync('..data/tls.crt', join(tls, 'tls.crt'));
    symlinkSync('..data/tls.key', join(tls, 'tls.key'));
    writeFileSync(join(work, 'clusters.json'), JSON.stringify([{ clusterId: 'c1', webhookSecrets: [{ sha256: '0'.repeat(64) }] }]));
    // A kubeconfig for a cluster that is not there: the server reads it only when a handler needs it.
    writeFileSync(join(work, 'kubeconfig'), JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
      clusters: [{ name: 'c', cluster: { server: 'https://127.0.0.1:1' } }], users: [{ name: 'u', user: { token: 't' } }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
    }));
    const child = spawn(process.execPath, [join(work, 'app', 'server.mjs')], {
      cwd: work,
      env: {
        PATH: process.env.PATH ?? '', KUBECONFIG: join(work, 'kubeconfig'), KS_CLUSTER_ID: 'c1', KS_CLUSTERS_FILE: join(work, 'clusters.json'),
        KS_TLS_CERT: join(tls, 'tls.crt'), KS_TLS_KEY: join(tls, 'tls.key'), KS_PORT: '0', KS_HOST: '127.0.0.1', KS_TLS_RELOAD_SECONDS: '1',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    server = child;
    let stderr = '';
    const port = await new Promise<number>((resolve, reject) => {
      child.stderr!.on('data', (c: Buffer) => {
        stderr += c.toString('utf8');
        const m = /webhooks on https:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
        if (m) resolve(Number(m[1]));
      });
      child.on('exit', (code) => reject(new Error(`server exited ${code}: ${stderr}`)));
    });
    const health = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      get({ host: '127.0.0.1', port, path: '/healthz', rejectUnauthorized: false }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      }).on('error', reject);
    });
    expect(health).toEqual({ status: 200, body: '{"ok":true}' });
    expect(await servedName(port)).toBe('cert-a');

    publish(tls, '..v2', 'cert-b');
    const deadline = Date.now() + 10_000;
    let seen = await servedName(port);
    while (seen !== 'cert-b' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      seen = await servedName(port);
    }
    expect(seen).toBe('cert-b');
    expect(stderr).toContain('TLS certificate reloaded');

    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    server = undefined;
  }, 30_000);
});
