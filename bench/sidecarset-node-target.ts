// The Node platform for the sidecarset scenario, in its own process: the production feature list
// (src/registry.ts FEATURES) on @hono/node-server over HTTPS, its state in a MemoryStateStore the
// parent fills through the sync API (the Node adapter proper reads the cluster live; there is no
// cluster here), and the echo beside it. Usage: node --import tsx bench/sidecarset-node-target.ts
// <cert.pem> <key.pem>. Prints one JSON line (SidecarSetNodeTarget); exits when its stdin closes.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { newSecret, sha256Hex } from '../src/admission/auth.js';
import { registryFromJson } from '../src/admission/file-registry.js';
import { MemoryStateStore } from '../src/admission/memory-store.js';
import { buildApp } from '../src/app.js';
import { FEATURES, webhookEndpoints } from '../src/registry.js';
import { nodeSha256 } from '../functions/node/ports.js';
import { buildEchoApp } from './echo-app.js';

export type SidecarSetNodeTarget = { echoUrl: string; realUrl: string; clusterId: string; webhookSecret: string; syncToken: string; pid: number };

const CLUSTER = 'bench-node';

function serveHttps(app: Hono, tls: { cert: string; key: string }): Promise<{ server: ServerType; url: string }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', createServer, serverOptions: tls }, (info: AddressInfo) =>
      resolve({ server, url: `https://127.0.0.1:${info.port}` }),
    );
  });
}

const [certPath, keyPath] = process.argv.slice(2);
if (!certPath || !keyPath) throw new Error('usage: sidecarset-node-target.ts <cert.pem> <key.pem>');
const tls = { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
const webhookSecret = newSecret();
const syncToken = newSecret();
const registry = registryFromJson(JSON.stringify([
  { clusterId: CLUSTER, webhookSecrets: [{ sha256: await sha256Hex(webhookSecret) }], syncTokens: [{ sha256: await sha256Hex(syncToken) }] },
]));
const store = new MemoryStateStore();
const none = { collection: async () => undefined };
const real = buildApp({
  endpoints: webhookEndpoints(FEATURES),
  registry,
  state: (clusterId) => (clusterId === CLUSTER ? store : none),
  store: () => store, // only CLUSTER has a sync token
  hash: nodeSha256,
});
const echoServer = await serveHttps(buildEchoApp(), tls);
const realServer = await serveHttps(real, tls);
const target: SidecarSetNodeTarget = { echoUrl: echoServer.url, realUrl: realServer.url, clusterId: CLUSTER, webhookSecret, syncToken, pid: process.pid };
process.stdout.write(`${JSON.stringify(target)}\n`);

process.stdin.resume();
process.stdin.on('end', () => {
  for (const { server } of [echoServer, realServer]) {
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    server.close();
  }
  process.exit(0);
});
