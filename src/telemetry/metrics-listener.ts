// The reconcile loop's plain-HTTP listener for /metrics, /readyz and /healthz (KS_METRICS_PORT).
import { createServer } from 'node:http';
import { serve, type ServerType } from '@hono/node-server';
import { nodeTelemetry, observabilityResponse } from './node.js';

export type MetricsListener = { url: string; close(): Promise<void> };

export async function startMetricsListener(port: number, hostname = '0.0.0.0'): Promise<MetricsListener> {
  const metrics = nodeTelemetry();
  const fetch = async (req: Request) => (await observabilityResponse(req, metrics)) ?? Response.json({ error: 'not found' }, { status: 404 });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve({ fetch, port, hostname, createServer }, () => resolve(s));
    s.once('error', reject);
  });
  const addr = server.address();
  const bound = typeof addr === 'object' && addr ? addr.port : port;
  const host = hostname === '0.0.0.0' ? '127.0.0.1' : hostname;
  return { url: `http://${host}:${bound}`, close: () => new Promise<void>((r) => server.close(() => r())) };
}
