// Whether a server answers a second request on the same connection after it sat idle for `idleMs`:
// what the API server's webhook client does with its pooled connections (it keeps them 90 s).
import { connect } from 'node:tls';

export async function answersAfterIdle(url: string, idleMs: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port), rejectUnauthorized: false });
  let received = '';
  let closed = false;
  socket.on('data', (d: Buffer) => void (received += d.toString('latin1')));
  socket.on('close', () => void (closed = true));
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('secureConnect', resolve));
  const ask = () => socket.write(`GET /healthz HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`);
  const answers = () => received.split('HTTP/1.1 200').length - 1;
  const until = async (done: () => boolean, ms: number) => {
    for (const end = Date.now() + ms; !done() && !closed && Date.now() < end;) await new Promise((r) => setTimeout(r, 20));
  };
  ask();
  await until(() => answers() === 1, 5_000);
  await new Promise((r) => setTimeout(r, idleMs));
  if (closed) return false;
  ask();
  await until(() => answers() === 2, 5_000);
  socket.destroy();
  return answers() === 2;
}
