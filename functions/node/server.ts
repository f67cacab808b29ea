// The app on Node over HTTPS (in-cluster or self-hosted), reading the cluster live.
//   KS_CLUSTER_ID, KS_CLUSTERS_FILE (registry JSON), KS_TLS_CERT, KS_TLS_KEY, KS_PORT (8443),
//   KS_HOST (0.0.0.0), KS_TLS_RELOAD_SECONDS (60: how often the cert files are checked for a
//   rotation, besides a watch on their directory),
//   KUBECONFIG (or in-cluster service account),
//   KS_EDGE_URL + KS_SYNC_TOKEN (optional: use that edge's ledgers)
//   KS_LOG_LEVEL, KS_DECISION_LOG_SAMPLE (docs/metrics.md); GET /metrics, /readyz, /healthz on the same port
// Ledgers (budgets) are kept in this process, which is their one authority: right for a single
// replica. Several replicas would each grant the whole budget, so they must share the edge's
// ledgers instead (KS_EDGE_URL + KS_SYNC_TOKEN).
import { readFileSync } from 'node:fs';
import { createServer, type Server as HttpsServer } from 'node:https';
import type { Server } from 'node:tls';
import { serve, type ServerType } from '@hono/node-server';
import { buildApp } from '../../src/app.js';
import { MemoryLedgers } from '../../src/edge-state/ledger.js';
import { remoteLedgers } from '../../src/edge-state/ledger-client.js';
import type { EdgeTarget } from '../../src/edge-state/push.js';
import { featuresFromEnv, ledgerKinds } from '../../src/registry.js';
import { type Feature } from '../../src/feature.js';
import { edgeFromEnv, livePorts } from './ports.js';
import { nodeTelemetry, observabilityResponse } from '../../src/telemetry/node.js';
import { telemetry } from '../../src/telemetry/telemetry.js';
import { readTlsFiles, reloadTlsOnChange, type TlsFiles } from './tls-reload.js';
import { closeGracefully, IDLE_CONNECTION_MS } from './keep-alive.js';

export type NodeServerOptions = {
  clusterId: string;
  registryJson: string;
  tlsCert: string;
  tlsKey: string;
  port: number;
  hostname?: string;
  kubeconfigPath?: string;
  features?: readonly Feature[];
  /** Use this edge's ledgers instead of keeping them in this process. */
  edge?: EdgeTarget;
  /** The files tlsCert and tlsKey were read from: watched, and served anew when they change. */
  tlsFiles?: TlsFiles & { reloadIntervalMs: number };
  log?: (message: string) => void;
};

export async function startNodeServer(opts: NodeServerOptions): Promise<{ server: ServerType; url: string; close(): Promise<void> }> {
  const features = opts.features ?? featuresFromEnv(process.env);
  const ledgers = opts.edge ? remoteLedgers(opts.edge) : new MemoryLedgers(ledgerKinds(features));
  const ports = await livePorts({ ...opts, features, ledgers });
  const app = buildApp(ports);
  const metrics = nodeTelemetry();
  // /metrics, /readyz and /healthz on the webhook port itself (Prometheus scrapes it over HTTPS).
  const fetch = async (req: Request) => (await observabilityResponse(req, metrics)) ?? app.fetch(req);
  const hostname = opts.hostname ?? '127.0.0.1';
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch, port: opts.port, hostname, createServer, serverOptions: { cert: opts.tlsCert, key: opts.tlsKey } }, () => resolve(s));
  });
  (server as HttpsServer).keepAliveTimeout = IDLE_CONNECTION_MS;
  const reloader = opts.tlsFiles
    ? reloadTlsOnChange(server as Server, opts.tlsFiles, { cert: opts.tlsCert, key: opts.tlsKey }, { intervalMs: opts.tlsFiles.reloadIntervalMs, ...(opts.log ? { log: opts.log } : {}) })
    : undefined;
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  return {
    server,
    url: `https://${hostname}:${port}`,
    close: () => {
      reloader?.close();
      ports.kube.close();
      return closeGracefully(server as HttpsServer);
    },
  };
}

function reloadSeconds(text: string | undefined): number {
  const seconds = Number(text ?? '60');
  if (!Number.isFinite(seconds) || seconds <= 0) throw new Error(`KS_TLS_RELOAD_SECONDS must be a number > 0, not "${text}"`);
  return seconds;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const env = (k: string) => {
    const v = process.env[k];
    if (!v) throw new Error(`${k} is required`);
    return v;
  };
  const edge = edgeFromEnv(process.env, env('KS_CLUSTER_ID'));
  const files = { cert: env('KS_TLS_CERT'), key: env('KS_TLS_KEY') };
  const tls = readTlsFiles(files);
  const log = (m: string) => telemetry().log.info(m);
  const s = await startNodeServer({
    clusterId: env('KS_CLUSTER_ID'),
    registryJson: readFileSync(env('KS_CLUSTERS_FILE'), 'utf8'),
    tlsCert: tls.cert,
    tlsKey: tls.key,
    tlsFiles: { ...files, reloadIntervalMs: reloadSeconds(process.env.KS_TLS_RELOAD_SECONDS) * 1000 },
    port: Number(process.env.KS_PORT ?? 8443),
    hostname: process.env.KS_HOST ?? '0.0.0.0',
    ...(edge ? { edge } : {}),
    log,
  });
  telemetry().log.info(`kruise-serverless webhooks on ${s.url}`, { url: s.url });
  // As PID 1 in a container Node has no default SIGTERM handler: stop taking connections and exit.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      setTimeout(() => process.exit(0), 10_000).unref(); // keep-alive connections past that are cut
      void s.close().then(() => process.exit(0));
    });
  }
}
