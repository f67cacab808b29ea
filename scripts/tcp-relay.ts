// A TCP relay on loopback in front of a local port, which can stop forwarding: connections open
// then are cut, and new ones are held unanswered until forwarding resumes (then closed), as
// through a network partition. Used by the soak's chaos cases (an unreachable edge).
import { createConnection, createServer, type Socket } from 'node:net';

export type TcpRelay = { port: number; forward(on: boolean): void; close(): void };

export async function startTcpRelay(targetPort: number): Promise<TcpRelay> {
  let forwarding = true;
  const open = new Set<Socket>();
  const held = new Set<Socket>();
  const server = createServer((client) => {
    client.on('error', () => undefined);
    if (!forwarding) {
      held.add(client);
      client.once('close', () => held.delete(client));
      return;
    }
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    for (const s of [client, upstream]) {
      open.add(s);
      s.once('close', () => open.delete(s));
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    forward(on) {
      forwarding = on;
      if (!on) for (const s of open) s.destroy();
      else for (const s of held) s.destroy();
    },
    close() {
      for (const s of [...open, ...held]) s.destroy();
      server.close();
    },
  };
}
