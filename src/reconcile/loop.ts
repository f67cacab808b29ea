// The long-running Node mode (`npm start`, self-hosted): a full resync of every reconciler on a
// timer, and short watches used only as triggers — a change to a reconciled object runs that
// reconciler for just that object, a change to a trigger kind runs it in full. State always
// comes from a fresh LIST in the run itself; watches hold no cache. One watch per kind, shared
// by every reconciler that needs it (watch-feeds.ts). Edge pushes are not the loop's: they run
// on their own timer (src/cli/reconcile.ts), never behind its runs. Each reconciler has lanes of
// its own (run-lanes.ts): no kind waits behind another, and one object's change does not wait
// behind runs for other objects of its kind.
import { setMaxListeners } from 'node:events';
import type { KubeHttp, KubeObject } from '../kube/http.js';
import type { Reconciler, RunReport, Scope } from './types.js';
import { WakeUps } from './wakeups.js';
import { OwnWrites, ownWriteVerdict, versionKey } from './own-writes.js';
import { LEASE_RETRY_MS } from './lease.js';
import { requeueDelayMs } from './requeue-delay.js';
import { followFeed, watchFeeds } from './watch-feeds.js';
import { mergePending, pendingFor, RunLanes, type Pending } from './run-lanes.js';
import { recordLoopTick, recordReconcileRun } from '../telemetry/record.js';

export type RunFn = (reconciler: Reconciler, scope: Scope) => Promise<RunReport>;

export type LoopOptions = {
  kube: KubeHttp;
  reconcilers: readonly Reconciler[];
  run: RunFn;
  resyncEveryMs: number;
  /** Watch reconciled and trigger kinds for prompt reaction (otherwise only the timer runs). */
  watch: boolean;
  onReport?: (r: RunReport, scope: Scope) => void;
  /** Hands the caller a way to ask for a full run of every reconciler now (e.g. the edge lost its ledgers). */
  onDemand?: (resyncAll: () => void) => void;
  log?: (m: string) => void;
  signal: AbortSignal;
};

const DEBOUNCE_MS = 5;
/**
 * A change only this loop's own writes made, with no run since to observe it, runs its object
 * this much later rather than at once: a run that comes sooner for another reason (the kubelet's
 * answer, typically) observes it too, and the deferred one is dropped. Own writes are still
 * always observed (a plan may take two steps of its own), just not one run per write.
 */
export const OWN_WRITE_SETTLE_MS = 250;

export async function runLoop(opts: LoopOptions): Promise<void> {
  const log = opts.log ?? (() => undefined);
  const pending = new Map<Reconciler, Pending>();
  let timer: NodeJS.Timeout | undefined;

  const wakeUps = new WakeUps();
  const own = new OwnWrites();
  opts.signal.addEventListener('abort', () => wakeUps.cancelAll(), { once: true });
  // One pending wake-up per (reconciler, scope): a requeue asked again before the first fired
  // keeps the earlier time instead of starting a second chain.
  const later = (ms: number, r: Reconciler, scope: Scope) => {
    const id = `${r.apiVersion}/${r.kind}`;
    if (scope.kind === 'all') return wakeUps.schedule(`${id}|*`, ms, () => trigger(r));
    for (const o of scope.objects) wakeUps.schedule(`${id}|${o.namespace ?? ''}/${o.name}`, ms, () => trigger(r, o));
  };

  const runOnce = async (r: Reconciler, scope: Scope) => {
    if (opts.signal.aborted) return;
    started(r, scope);
    const t0 = Date.now();
    try {
      const report = await opts.run(r, scope);
      recordReconcileRun(r.kind, { acted: report.acted, dryRun: report.dryRun, failedWrites: report.failed.length }, Date.now() - t0);
      opts.onReport?.(report, scope);
      if (report.wrote) own.add(report.wrote);
      const retry = requeueDelayMs(report);
      const scheduled = report.acted || report.dryRun ? report.plan.scheduledAfterMs : undefined;
      if (retry !== undefined || scheduled !== undefined) later(Math.min(retry ?? Infinity, scheduled ?? Infinity), r, scope);
    } catch (e) {
      recordReconcileRun(r.kind, { threw: e }, Date.now() - t0);
      log(`${r.kind}: run failed: ${String(e)}`);
      later(LEASE_RETRY_MS, r, scope);
    } finally {
      recordLoopTick();
    }
  };

  // When each object's last run, and each reconciler's last full run, started (the loop's clock).
  const runStarts = new Map<string, number>();
  const idOf = (r: Reconciler) => `${r.apiVersion}/${r.kind}`;
  const objectKey = (r: Reconciler, o: { namespace?: string; name: string }) => `${idOf(r)}|${o.namespace ?? ''}/${o.name}`;
  const lastStart = (r: Reconciler, o: { namespace?: string; name: string }) => Math.max(runStarts.get(objectKey(r, o)) ?? 0, runStarts.get(`${idOf(r)}|*`) ?? 0);
  const started = (r: Reconciler, scope: Scope) => {
    const t = Date.now();
    if (scope.kind === 'all') return void runStarts.set(`${idOf(r)}|*`, t);
    for (const o of scope.objects) {
      runStarts.set(objectKey(r, o), t);
      wakeUps.cancel(`settle|${objectKey(r, o)}`);
    }
  };
  // Decided when the run starts, after the runs before it reported what they wrote: an object asked
  // for only by its own writes is dropped if a run observed it since, else deferred.
  const scopeOf = (r: Reconciler, p: Pending): Scope | undefined => {
    if (p.all) return { kind: 'all' };
    const objects = [...p.objects.values()].filter((t) => {
      const verdict = ownWriteVerdict(t.causes, own, lastStart(r, t.ref));
      if (verdict === 'defer') wakeUps.schedule(`settle|${objectKey(r, t.ref)}`, OWN_WRITE_SETTLE_MS, () => trigger(r, t.ref));
      return verdict === 'run';
    }).map((t) => t.ref);
    return objects.length ? { kind: 'objects', objects } : undefined;
  };
  const lanes = new Map(opts.reconcilers.map((r) => [r, new RunLanes(async (batch) => {
    const scope = scopeOf(r, batch);
    if (scope) await runOnce(r, scope);
  })]));
  const lanesOf = (r: Reconciler) => lanes.get(r) ?? new RunLanes(async () => undefined);
  const flush = () => {
    timer = undefined;
    for (const [r, p] of pending) lanesOf(r).add(p);
    pending.clear();
  };

  /** Runs `r` for `target` (all of them without), because `changed` changed (if a change asked). */
  const trigger = (r: Reconciler, target?: { namespace?: string; name?: string }, changed?: KubeObject) => {
    const cause = versionKey(changed);
    const p = pendingFor(target && { ref: { namespace: target.namespace, name: target.name ?? '' }, causes: cause ? new Set([cause]) : null });
    const held = pending.get(r);
    if (held) mergePending(held, p);
    else pending.set(r, p);
    timer ??= setTimeout(flush, DEBOUNCE_MS);
  };

  opts.onDemand?.(() => opts.reconcilers.forEach((r) => trigger(r)));

  let resyncing = false;
  const resync = async () => {
    // A resync slower than the period is not stacked behind itself.
    if (resyncing) return;
    recordLoopTick();
    resyncing = true;
    try {
      await Promise.all(opts.reconcilers.map((r) => lanesOf(r).all()));
    } finally {
      resyncing = false;
    }
  };

  const feeds = opts.watch ? watchFeeds(opts.reconcilers, trigger) : [];
  // Each open watch listens for the stop, more than EventTarget's default of 10: on a signal of
  // the loop's own, so the caller's gets one listener.
  const watchStop = new AbortController();
  setMaxListeners(feeds.length + 10, watchStop.signal);
  opts.signal.addEventListener('abort', () => watchStop.abort(), { once: true });
  if (opts.signal.aborted) watchStop.abort();
  const watches = feeds.map((feed) => followFeed(opts.kube, feed, { signal: watchStop.signal, log }));

  await resync();
  const every = setInterval(() => void resync(), opts.resyncEveryMs);
  // Aborted during the first resync: the abort event has fired already and will not again.
  if (!opts.signal.aborted) await new Promise<void>((resolve) => opts.signal.addEventListener('abort', () => resolve(), { once: true }));
  clearInterval(every);
  if (timer) clearTimeout(timer);
  await Promise.allSettled(watches);
  await Promise.all([...lanes.values()].map((l) => l.idle()));
}
