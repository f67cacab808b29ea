// TLS in front of a local Worker, with keep-alive that outlasts the API server's.
//
// workerd closes an idle keep-alive connection after 5 s (kj's HTTP pipeline timeout), while the
// API server's webhook client (client-go over Go's default transport) keeps one for 90 s and does
// not retry a POST whose connection closed under it: the admission fails with "EOF" now and then
// (a pod or a WorkloadSpread refused for nothing). So TLS ends in a Node server that keeps idle
// connections longer than any such client, and each request goes on to workerd over loopback
// (fetch's pool drops idle connections after 4 s, before workerd does).
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { IDLE_CONNECTION_MS } from '../functions/node/keep-alive.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'host', 'content-length', 'accept-encoding']);

async function body(req: IncomingMessage): Promise<Blob | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  for await (const c of req) chunks.push(new Uint8Array(c as Buffer));
  return new Blob(chunks);
}

async function forward(upstream: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (HOP_BY_HOP.has(k) || v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  // Bytes pass through as workerd sends them (fetch would decode a compressed body).
  headers.set('accept-encoding', 'identity');
  const answer = await fetch(`${upstream}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers, body: await body(req), redirect: 'manual' });
  const out: Record<string, string | string[]> = {};
  answer.headers.forEach((v, k) => {
    if (!HOP_BY_HOP.has(k)) out[k] = k === 'set-cookie' ? answer.headers.getSetCookie() : v;
  });
  res.writeHead(answer.status, out);
  if (!answer.body) return void res.end();
  Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream).pipe(res);
}

export async function startHttpsFront(upstream: string, tls: { cert: string; key: string }, port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer({ cert: tls.cert, key: tls.key, keepAliveTimeout: IDLE_CONNECTION_MS }, (req, res) => {
    forward(upstream, req, res).catch((e: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`the local Worker did not answer: ${e instanceof Error ? e.message : String(e)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  return {
    url: `https://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`,
    // A stopped edge drops its connections, as a process that exits does: connections the API
    // server keeps open would otherwise hold close() up for as long as they stay.
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
