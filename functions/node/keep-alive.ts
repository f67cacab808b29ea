// How long our HTTPS servers keep an idle connection open, and how they close. The API server's
// webhook client keeps one for 90 s (Go's default transport, client-go's defaults) and does not
// retry a POST whose connection the server closed as it was sent ("EOF"): a server must outlast
// it. Node's default is 5 s.
import type { Server } from 'node:http';

export const IDLE_CONNECTION_MS = 120_000;

/**
 * Stops accepting, lets requests in flight finish, and closes each connection as soon as it is
 * idle: Node closes only the connections idle at the call and would keep the others open for
 * IDLE_CONNECTION_MS after their last response.
 */
export function closeGracefully(server: Pick<Server, 'close' | 'closeIdleConnections'>, everyMs = 50): Promise<void> {
  return new Promise<void>((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), everyMs);
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}
