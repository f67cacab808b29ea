// `kruise-serverless reconcile`: run the reconcilers against the cluster in the kubeconfig.
//   --once       one full resync of every reconciler, then exit (an in-cluster CronJob)
//   --dry-run    print the plans instead of applying them (implies --once)
//   otherwise    keep running: resync every --resync-seconds, watches trigger runs in between
// With --edge-url (+ $KS_SYNC_TOKEN) webhook state is pushed to the edge: after the runs with
// --once, otherwise at once and then every --resync-seconds on a timer of its own (push-schedule.ts).
import { hostname } from 'node:os';
import { readFileSync } from 'node:fs';
import type { KubeHttp } from '../kube/http.js';
import { reconcilersFromEnv } from '../reconcilers.js';
import { runReconciler } from '../reconcile/runner.js';
import { runLoop, type LoopOptions } from '../reconcile/loop.js';
import { HeldLeases } from '../reconcile/lease.js';
import { formatPlan } from '../reconcile/plan-format.js';
import type { Reconciler, RunReport, Scope } from '../reconcile/types.js';
import { describePush, heldCollections, pushEachCollection, type EdgeTarget } from '../edge-state/push.js';
import { pushEvery } from '../edge-state/push-schedule.js';
import { remoteLedgers } from '../edge-state/ledger-client.js';
import { fetchTrustingCa } from '../edge-state/ca-fetch.js';
import { stateCollections } from '../registry.js';
import { telemetry } from '../telemetry/telemetry.js';
import { parseMetricsPort } from '../telemetry/node.js';
import { startMetricsListener, type MetricsListener } from '../telemetry/metrics-listener.js';

export type ReconcileOptions = {
  once: boolean;
  dryRun: boolean;
  kind?: string;
  identity?: string;
  resyncSeconds: number;
  watch: boolean;
  edge?: { url: string; clusterId: string; syncToken: string; caFile?: string };
  /** Log every run and every collection pushed, not only runs that acted and one line per push. */
  verbose?: boolean;
  log: (m: string) => void;
  out: (m: string) => void;
  signal?: AbortSignal;
  /**
   * The long-running mode's /metrics, /readyz and /healthz listener: a port (0: any free one) or
   * 'off'. Unset: KS_METRICS_PORT, else DEFAULT_METRICS_PORT.
   */
  metricsPort?: number | 'off';
};

/** Where the long-running loop serves /metrics, /readyz and /healthz unless KS_METRICS_PORT says otherwise (not 9090: a Prometheus server on the same host uses it). */
export const DEFAULT_METRICS_PORT = 9464;
/** A pushed collection older than this (or three push periods, if longer) makes the loop unready. */
const MAX_PUSH_AGE_MS = 180_000;

export function summarize(r: RunReport, scope: Scope): string {
  const what = scope.kind === 'all' ? 'all' : scope.objects.map((o) => (o.namespace ? `${o.namespace}/${o.name}` : o.name)).join(',');
  if (r.dryRun) return `${r.reconciler} (${what}): dry run, ${r.plan.writes.length} writes planned, ${r.apiCalls} API calls`;
  if (!r.acted) return `${r.reconciler} (${what}): another invocation holds the lease; skipped`;
  const failed = r.failed.length ? `, ${r.failed.length} failed (${r.failed.map((f) => f.error).join('; ')})` : '';
  return `${r.reconciler} (${what}): ${r.applied} applied, ${r.conflicts} conflicts${failed}, ${r.apiCalls} API calls, ${r.durationMs} ms`;
}

/** A run worth a line when not verbose: it wrote, conflicted or failed. */
function didSomething(r: RunReport): boolean {
  return r.acted && (r.applied > 0 || r.conflicts > 0 || r.failed.length > 0);
}

function edgeTarget(e: NonNullable<ReconcileOptions['edge']>): EdgeTarget {
  const fetch = fetchTrustingCa(e.caFile ? readFileSync(e.caFile, 'utf8') : undefined);
  return { baseUrl: e.url.replace(/\/$/, ''), clusterId: e.clusterId, syncToken: e.syncToken, fetch };
}

export async function reconcile(kube: KubeHttp, opts: ReconcileOptions): Promise<number> {
  const all = reconcilersFromEnv(process.env).filter((r) => !opts.kind || r.kind === opts.kind);
  if (opts.kind && all.length === 0) throw new Error(`no reconciler for kind "${opts.kind}"`);
  const identity = opts.identity ?? `${hostname()}-${process.pid}`;
  const edge = opts.edge ? edgeTarget(opts.edge) : undefined;
  // Budgets held at the edge (PUB, WorkloadSpread) are resynced through its ledgers.
  const ledgers = edge ? remoteLedgers(edge) : undefined;
  // The Node loop keeps its leases between runs (released when it stops); one-shot runs do not.
  const heldLeases = opts.once || opts.dryRun ? undefined : new HeldLeases();
  const run = async (r: Reconciler, scope: Scope) =>
    runReconciler(kube, r, { scope, dryRun: opts.dryRun, identity, log: opts.log, ...(ledgers ? { ledgers } : {}), ...(heldLeases ? { heldLeases } : {}) });
  const verbose = opts.verbose ?? false;
  const push = async () => {
    if (!edge) return;
    const started = Date.now();
    const { results, failures } = await pushEachCollection(edge, (v, k, o) => kube.list(v, k, o), stateCollections());
    if (verbose) for (const p of results) opts.log(`pushed ${p.collection} to the edge: ${p.mode}, ${p.changed}/${p.items} changed`);
    opts.log(describePush(results, Date.now() - started, failures));
    return failures.length;
  };

  if (opts.once || opts.dryRun) {
    let failures = 0;
    for (const r of all) {
      const report = await run(r, { kind: 'all' });
      opts.out(summarize(report, { kind: 'all' }));
      if (opts.dryRun) opts.out(formatPlan(report.plan));
      failures += report.failed.length;
    }
    if (!opts.dryRun) failures += (await push()) ?? 0;
    return failures ? 1 : 0;
  }
  const signal = opts.signal ?? abortOnSignals();
  const metrics = await serveLoopHealth(opts, edge ? stateCollections().map((c) => c.name) : []);
  await keepReconciling({
    kube, reconcilers: all, run, resyncEveryMs: opts.resyncSeconds * 1000, watch: opts.watch, signal,
    log: opts.log, onReport: (r, scope) => (verbose || didSomething(r)) && opts.log(summarize(r, scope)),
  }, edge ? { push: async () => void (await push()), lost: async () => edgeLostState(await heldCollections(edge)) } : undefined);
  await heldLeases?.releaseAll(kube);
  await metrics?.close();
  return 0;
}

/** What makes the loop ready (recent ticks; each pushed collection fresh), and its listener if one is asked for. */
async function serveLoopHealth(opts: ReconcileOptions, pushed: string[]): Promise<MetricsListener | undefined> {
  const periodMs = opts.resyncSeconds * 1000;
  telemetry().health.require({
    maxTickAgeMs: 3 * periodMs + 60_000,
    ...(pushed.length ? { pushed: { collections: pushed, maxPushAgeMs: Math.max(MAX_PUSH_AGE_MS, 3 * periodMs) } } : {}),
  });
  const port = opts.metricsPort ?? parseMetricsPort(process.env.KS_METRICS_PORT, DEFAULT_METRICS_PORT);
  if (port === 'off') return undefined;
  try {
    const listener = await startMetricsListener(port);
    opts.log(`metrics, readiness and health on ${listener.url} (/metrics, /readyz, /healthz)`);
    return listener;
  } catch (e) {
    // Reconciling matters more than being scraped.
    opts.log(`metrics listener not started on port ${port}: ${String(e)}`);
    return undefined;
  }
}

/**
 * The long-running mode: the loop, and (with an edge) pushes on their own timer, every resync
 * period from the start, whatever the loop's queue holds.
 */
export async function keepReconciling(loop: LoopOptions, pushes?: { push: () => Promise<void>; lost?: () => Promise<boolean> }): Promise<void> {
  const log = loop.log ?? (() => undefined);
  // An edge that lost its state lost its ledgers too: the budgets are counted again at once, not
  // at the next period (until then the webhooks wait for them, then refuse to spend them).
  let resyncAll = () => undefined as void;
  const lost = pushes?.lost;
  const watch = lost ? { checkEveryMs: LOST_STATE_CHECK_MS, lost: async () => (await lost()) && (resyncAll(), true) } : undefined;
  await Promise.all([runLoop({ ...loop, onDemand: (fn) => (resyncAll = fn) }), pushes ? pushEvery(loop.resyncEveryMs, pushes.push, loop.signal, log, watch) : undefined]);
}

/** How often the long-running mode asks the edge whether it still holds what was pushed. */
const LOST_STATE_CHECK_MS = 2_000;

/** Whether the edge misses a collection this process pushes (it restarted, its state in memory). */
function edgeLostState(held: ReadonlySet<string>): boolean {
  return stateCollections().some((c) => !held.has(c.name));
}

function abortOnSignals(): AbortSignal {
  const ctl = new AbortController();
  process.once('SIGINT', () => ctl.abort());
  process.once('SIGTERM', () => ctl.abort());
  return ctl.signal;
}
