// The Node platform in its own process, as workerd is for the Worker, so the load generator does
// not share the servers' event loop: the echo and the real app, each on @hono/node-server over
// HTTPS on 127.0.0.1. Usage: node --import tsx bench/node-target.ts <cert.pem> <key.pem>
// Prints one JSON line (NodeTargets) when listening; exits when its stdin closes.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { buildEchoApp } from './echo-app.js';
import { buildRealApp } from './real-app.js';

export type NodeTargets = { echoUrl: string; realUrl: string; webhookPath: string; pid: number };

function serveHttps(app: Hono, tls: { cert: string; key: string }): Promise<{ server: ServerType; url: string }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', createServer, serverOptions: tls }, (info: AddressInfo) =>
      resolve({ server, url: `https://127.0.0.1:${info.port}` }),
    );
  });
}

const [certPath, keyPath] = process.argv.slice(2);
if (!certPath || !keyPath) throw new Error('usage: node-target.ts <cert.pem> <key.pem>');
const tls = { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
const real = await buildRealApp();
const echoServer = await serveHttps(buildEchoApp(), tls);
const realServer = await serveHttps(real.app, tls);
const targets: NodeTargets = { echoUrl: echoServer.url, realUrl: realServer.url, webhookPath: real.webhookPath, pid: process.pid };
process.stdout.write(`${JSON.stringify(targets)}\n`);

process.stdin.resume();
process.stdin.on('end', () => {
  // Keep-alive sockets would hold close() open; the parent has finished with them.
  for (const { server } of [echoServer, realServer]) {
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    server.close();
  }
  process.exit(0);
});
