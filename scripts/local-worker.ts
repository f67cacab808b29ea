// Runs a Worker entry locally under Miniflare (workerd), over HTTPS with a given certificate (TLS
// ends in a Node front: https-front.ts): used by `npm start`, the e2e tests and the benchmark.
// Nothing leaves the machine (cf: false).
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { join } from 'node:path';
import { REPO_ROOT } from '../test/cluster/control-plane.js';
import { startHttpsFront } from './https-front.js';

export const WORKER_ENTRY = join(REPO_ROOT, 'functions', 'worker', 'index.ts');
export const COMPATIBILITY_DATE = '2025-09-01';

/** Bundles a Worker entry as wrangler would (ESM, Web platform). */
export async function bundleWorker(entry: string = WORKER_ENTRY, minify = false): Promise<string> {
  const out = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    minify,
    write: false,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

export type LocalWorker = { url: string; mf: Miniflare; dispose(): Promise<void> };

export async function startLocalWorker(opts: {
  entry?: string;
  tls?: { cert: string; key: string };
  port?: number;
  adminToken?: string;
  /** Directory for Durable Object storage; in memory when unset. */
  persistDir?: string;
  /** More environment bindings (vars and secrets). */
  bindings?: Record<string, string>;
  /** Open workerd's V8 inspector on this port (profiling). */
  inspectorPort?: number;
}): Promise<LocalWorker> {
  const script = await bundleWorker(opts.entry);
  const mf = new Miniflare({
    modules: true,
    script,
    compatibilityDate: COMPATIBILITY_DATE,
    cf: false,
    host: '127.0.0.1',
    // With TLS, workerd listens on a free loopback port behind the HTTPS front (https-front.ts).
    port: opts.tls ? 0 : opts.port ?? 0,
    // The entry must export both classes (functions/worker/index.ts does; so do the test entries).
    durableObjects: { CLUSTERS: 'ClusterObject', LEDGERS: { className: 'LedgerObject', useSQLite: true } },
    bindings: { ...opts.bindings, ...(opts.adminToken ? { ADMIN_TOKEN: opts.adminToken } : {}) },
    ...(opts.persistDir ? { durableObjectsPersist: opts.persistDir } : {}),
    ...(opts.inspectorPort ? { inspectorPort: opts.inspectorPort } : {}),
  });
  const plain = (await mf.ready).toString().replace(/\/$/, '');
  if (!opts.tls) return { url: plain, mf, dispose: () => mf.dispose() };
  const front = await startHttpsFront(plain, opts.tls, opts.port ?? 0).catch(async (e: unknown) => {
    await mf.dispose();
    throw e;
  });
  return { url: front.url, mf, dispose: async () => { await front.close(); await mf.dispose(); } };
}
