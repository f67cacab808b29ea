// TLS in front of a local Worker, with keep-alive that outlasts the API server's.
//
// workerd closes an idle keep-alive connection after 5 s (kj's HTTP pipeline timeout), while the
// API server's webhook client (client-go over Go's default transport) keeps one for 90 s and does
// not retry a POST whose connection closed under it: the admission fails with "EOF" now and then
// (a pod or a WorkloadSpread refused for nothing). So TLS ends in a Node server that keeps idle
// connections longer than any such client, and each request goes on to workerd over loopback, on
// a connection of its own: workerd closes a connection after answering a request whose body it did
// not read, and a reused one could be cut under the next request.
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { IDLE_CONNECTION_MS } from '../functions/node/keep-alive.js';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function withoutHopByHop(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) out[k] = v;
  return out;
}

async function forward(upstream: URL, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await bodyOf(req);
  const headers = { ...withoutHopByHop(req.headers), 'content-length': String(body.length), connection: 'close' };
  await new Promise<void>((resolve, reject) => {
    const out = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, withoutHopByHop(answer.headers));
      answer.pipe(res);
      answer.once('end', resolve);
      answer.once('error', reject);
    });
    out.once('error', reject);
    // Headers and body in one write: workerd has the whole request before it answers.
    out.end(body);
  });
}

export async function startHttpsFront(upstream: string, tls: { cert: string; key: string }, port = 0): Promise<{ url: string; close(): Promise<void> }> {
  const target = new URL(upstream);
  const server: Server = createServer({ cert: tls.cert, key: tls.key, keepAliveTimeout: IDLE_CONNECTION_MS }, (req, res) => {
    forward(target, req, res).catch((e: unknown) => {
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
