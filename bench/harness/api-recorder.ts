// Records a client's requests to an API server, and replays them with no cluster: to measure a
// reconciler's memory again and again against the same recorded responses (same bytes, same
// pages), without a 10,000-pod setup per try. Loopback only; a self-signed certificate.
//   record: an HTTPS proxy in front of the real API server; `save(file)` writes what it saw.
//   replay: `tsx bench/harness/api-recorder.ts <recording.json> <kubeconfig-out>` serves the recording
//           (method + URL → status + body) until killed, and writes a kubeconfig for it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type RequestOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KubeConfig } from '@kubernetes/client-node';

type Recorded = { status: number; body: string };
export type Recording = Record<string, Recorded>;

function selfSigned(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ks-api-recorder-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
  return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
}

function kubeconfigFor(port: number, file: string): void {
  writeFileSync(file, [
    'apiVersion: v1', 'kind: Config', 'current-context: rec',
    'clusters:', `- name: rec`, '  cluster:', `    server: https://127.0.0.1:${port}`, '    insecure-skip-tls-verify: true',
    'users:', '- name: rec', '  user:', '    token: none',
    'contexts:', '- name: rec', '  context:', '    cluster: rec', '    user: rec', '',
  ].join('\n'));
}

type Server = { port: number; close(): Promise<void> };

async function serve(handle: (method: string, url: string, body: Buffer) => Promise<Recorded>): Promise<Server> {
  const server = createServer(selfSigned(), (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req.method ?? 'GET', req.url ?? '/', Buffer.concat(chunks)).then(
        (r) => res.writeHead(r.status, { 'Content-Type': 'application/json' }).end(r.body),
        (e: unknown) => res.writeHead(502).end(String(e)),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(() => r())) };
}

/** A recording proxy to the kubeconfig's API server; `kubeconfig` is where it writes its own. */
export async function startRecorder(kc: KubeConfig, kubeconfig: string): Promise<Server & { save(file: string): void }> {
  const upstream = kc.getCurrentCluster()!.server.replace(/\/$/, '');
  const base: RequestOptions = { headers: {} };
  await kc.applyToHTTPSOptions(base);
  const seen: Recording = {};
  const server = await serve((method, url, body) => new Promise<Recorded>((resolve, reject) => {
    const headers = { ...(base.headers as Record<string, string>), Accept: 'application/json', 'Content-Type': 'application/json', 'Content-Length': String(body.length) };
    const req = request(new URL(upstream + url), { ...base, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const r = { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') };
        seen[`${method} ${url}`] = r;
        resolve(r);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  }));
  kubeconfigFor(server.port, kubeconfig);
  return { ...server, save: (file) => writeFileSync(file, JSON.stringify(seen)) };
}

/** Serves a recording: the same response for the same method and URL, 404 for anything else. */
export async function startReplay(recording: Recording, kubeconfig: string): Promise<Server> {
  const server = await serve(async (method, url) => recording[`${method} ${url}`] ?? { status: 404, body: JSON.stringify({ kind: 'Status', reason: 'NotFound', message: `not recorded: ${method} ${url}` }) });
  kubeconfigFor(server.port, kubeconfig);
  return server;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file = '', kubeconfig = ''] = process.argv.slice(2);
  const s = await startReplay(JSON.parse(readFileSync(file, 'utf8')) as Recording, kubeconfig);
  process.stderr.write(`replaying ${file} on 127.0.0.1:${s.port}; kubeconfig ${kubeconfig}\n`);
}
