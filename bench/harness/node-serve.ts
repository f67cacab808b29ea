// The Node side of a bench target process: the echo and a real app, each on @hono/node-server over
// HTTPS on 127.0.0.1, with the certificate and key named on the command line. The process exits
// when its stdin closes, i.e. when the parent is done with it.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';
import { buildEchoApp } from './echo-app.js';

function serveHttps(app: Hono, tls: { cert: string; key: string }): Promise<{ server: ServerType; url: string }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', createServer, serverOptions: tls }, (info: AddressInfo) =>
      resolve({ server, url: `https://127.0.0.1:${info.port}` }),
    );
  });
}

/** `<cert.pem> <key.pem>` from argv, read; `script` names the usage error. */
export function tlsFromArgs(script: string): { cert: string; key: string } {
  const [certPath, keyPath] = process.argv.slice(2);
  if (!certPath || !keyPath) throw new Error(`usage: ${script} <cert.pem> <key.pem>`);
  return { cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
}

/** Serves the echo and `real`; both close, and the process exits, when stdin ends. */
export async function serveEchoAndReal(real: Hono, tls: { cert: string; key: string }): Promise<{ echoUrl: string; realUrl: string }> {
  const echoServer = await serveHttps(buildEchoApp(), tls);
  const realServer = await serveHttps(real, tls);
  process.stdin.resume();
  process.stdin.on('end', () => {
    // Keep-alive sockets would hold close() open; the parent has finished with them.
    for (const { server } of [echoServer, realServer]) {
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      server.close();
    }
    process.exit(0);
  });
  return { echoUrl: echoServer.url, realUrl: realServer.url };
}
