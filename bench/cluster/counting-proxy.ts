// A TLS proxy in front of kube-apiserver that counts what one client asks and receives: requests by
// `<VERB> <resource>` (LIST for a collection read, WATCH for a watch; keys as counting.ts makes
// them) and the response bytes of each key, watch streams included. One proxy per client, so the
// Node loop and kube-controller-manager are counted the same way (figure group 3). Bench only:
// it serves HTTP/1.1 (client-go then speaks HTTP/1.1 instead of HTTP/2) with the API server's own
// certificate, and forwards every header (the client's token) unchanged.
import { readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestKey } from './counting.js';

/** Per key: requests and response bytes. */
export type ProxyTally = Record<string, { requests: number; bytes: number }>;

export type CountingProxy = {
  server: string;
  /** A copy of the counts so far. */
  tally(): ProxyTally;
  close(): Promise<void>;
};

function keyOf(method: string, url: string): string {
  const u = new URL(url, 'https://proxy');
  const query = Object.fromEntries(u.searchParams);
  if (method === 'GET' && query.watch === 'true') return requestKey('GET', u.pathname, {}).replace(/^LIST/, 'WATCH');
  return requestKey(method, u.pathname, query);
}

/** Listens on a free loopback port and forwards to `target` (https://host:port). */
export async function startCountingProxy(target: string, tls: { ca: string; cert: string; key: string }): Promise<CountingProxy> {
  const to = new URL(target);
  const agent = new https.Agent({ keepAlive: true, ca: tls.ca });
  const counts: ProxyTally = {};
  const count = (key: string) => (counts[key] ??= { requests: 0, bytes: 0 });
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const key = keyOf(req.method ?? 'GET', req.url ?? '/');
    count(key).requests += 1;
    const up = https.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: { ...req.headers, host: to.host }, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.on('data', (c: Buffer) => {
        count(key).bytes += c.length;
        res.write(c);
      });
      answer.on('end', () => res.end());
      answer.on('error', () => res.destroy());
    });
    up.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    res.on('close', () => up.destroy());
    req.pipe(up);
  };
  const server = https.createServer({ cert: tls.cert, key: tls.key }, forward);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server: `https://127.0.0.1:${port}`,
    tally: () => Object.fromEntries(Object.entries(counts).map(([k, v]) => [k, { ...v }])),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
      agent.destroy();
    }),
  };
}

/** A copy of `kubeconfig` whose server is `server` (the same CA and token). */
export function kubeconfigVia(kubeconfig: string, server: string, out: string): string {
  writeFileSync(out, readFileSync(kubeconfig, 'utf8').replace(/^(\s*server: ).*$/m, `$1${server}`), { mode: 0o600 });
  return out;
}

/** `after - before`, keys that moved. */
export function proxyDelta(after: ProxyTally, before: ProxyTally): ProxyTally {
  const out: ProxyTally = {};
  for (const [k, v] of Object.entries(after)) {
    const b = before[k] ?? { requests: 0, bytes: 0 };
    if (v.requests !== b.requests || v.bytes !== b.bytes) out[k] = { requests: v.requests - b.requests, bytes: v.bytes - b.bytes };
  }
  return out;
}
