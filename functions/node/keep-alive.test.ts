import { createServer, get, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { closeGracefully, IDLE_CONNECTION_MS } from './keep-alive.js';

it('a close lets the request in flight finish, then closes its kept-alive connection instead of waiting out the idle time', async () => {
  const server = createServer((_req, res) => setTimeout(() => res.end('ok'), 300));
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const agent = new Agent({ keepAlive: true });
  const answered = new Promise<string>((resolve) => get({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', agent }, (res) => {
    let body = '';
    res.on('data', (d: Buffer) => void (body += d.toString()));
    res.on('end', () => resolve(body));
  }));
  await new Promise((r) => setTimeout(r, 100));
  await closeGracefully(server);
  expect(await answered).toBe('ok');
  agent.destroy();
}, 10_000);
