// For unit tests: a local HTTP server playing the API server (discovery answered here, everything
// else by the test's handler) and a KubeHttp client for it, both closed after each test.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { KubeHttp, type KubeHttpOptions } from './http.js';

export type ApiHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

const DISCOVERY = { resources: [{ name: 'pods', namespaced: true, kind: 'Pod' }] };

export const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

const servers: Server[] = [];
const clients: KubeHttp[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server answering discovery itself and everything else with `handler`; a client for it. */
export async function serveApi(handler: ApiHandler, opts: KubeHttpOptions = {}): Promise<KubeHttp> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/v1') return json(res, 200, DISCOVERY);
    handler(req, res, url);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const kube = KubeHttp.connect({ server: `http://127.0.0.1:${port}`, rejectUnauthorized: true, headers: {} }, opts);
  clients.push(kube);
  return kube;
}
