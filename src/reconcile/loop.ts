// The long-running Node mode (`npm start`, self-hosted): a full resync of every reconciler on a
// timer, and short watches used only as triggers — a change to a reconciled object runs that
// reconciler for just that object, a change to a trigger kind runs it in full. State always
// comes from a fresh LIST in the run itself; watches hold no cache.
import type { KubeHttp, KubeObject } from '../kube/http.js';
import type { Reconciler, RunReport, Scope } from './types.js';
import { WakeUps } from './wakeups.js';
import { LEASE_RETRY_MS } from './lease.js';

export type RunFn = (reconciler: Reconciler, scope: Scope) => Promise<RunReport>;

export type LoopOptions = {
  kube: KubeHttp;
  reconcilers: readonly Reconciler[];
  run: RunFn;
  resyncEveryMs: number;
  /** Watch reconciled and trigger kinds for prompt reaction (otherwise only the timer runs). */
  watch: boolean;
  /** After each full resync, e.g. push edge state. */
  afterResync?: () => Promise<void>;
  onReport?: (r: RunReport, scope: Scope) => void;
  log?: (m: string) => void;
  signal: AbortSignal;
};

const WATCH_SECONDS = 60;
const DEBOUNCE_MS = 50;

type Pending = { all: boolean; objects: Map<string, { namespace?: string; name: string }> };

export async function runLoop(opts: LoopOptions): Promise<void> {
  const log = opts.log ?? (() => undefined);
  const pending = new Map<Reconciler, Pending>();
  let queue = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  const wakeUps = new WakeUps();
  opts.signal.addEventListener('abort', () => wakeUps.cancelAll(), { once: true });
  // One pending wake-up per (reconciler, scope): a requeue asked again before the first fired
  // keeps the earlier time instead of starting a second chain.
  const later = (ms: number, r: Reconciler, scope: Scope) => {
    const id = `${r.apiVersion}/${r.kind}`;
    if (scope.kind === 'all') return wakeUps.schedule(`${id}|*`, ms, () => trigger(r));
    for (const o of scope.objects) wakeUps.schedule(`${id}|${o.namespace ?? ''}/${o.name}`, ms, () => trigger(r, { metadata: o }));
  };

  const runOnce = async (r: Reconciler, scope: Scope) => {
    if (opts.signal.aborted) return;
    try {
      const report = await opts.run(r, scope);
      opts.onReport?.(report, scope);
      if (!report.acted && !report.dryRun) later(LEASE_RETRY_MS, r, scope);
      else if (report.plan.requeueAfterMs !== undefined) later(report.plan.requeueAfterMs, r, scope);
    } catch (e) {
      log(`${r.kind}: run failed: ${String(e)}`);
      later(LEASE_RETRY_MS, r, scope);
    }
  };
  const enqueue = (r: Reconciler, scope: Scope) => {
    queue = queue.then(() => runOnce(r, scope));
    return queue;
  };

  // Triggers that arrive while a reconciler's run waits in the queue join that run instead of
  // queueing another: a burst of pod changes during a run costs one more run, not one per flush.
  const queued = new Map<Reconciler, Pending>();
  const merge = (into: Pending, from: Pending) => {
    into.all ||= from.all;
    for (const [k, o] of from.objects) into.objects.set(k, o);
  };
  const flush = () => {
    timer = undefined;
    for (const [r, p] of pending) {
      const waiting = queued.get(r);
      if (waiting) {
        merge(waiting, p);
        continue;
      }
      queued.set(r, p);
      queue = queue.then(() => {
        queued.delete(r);
        return runOnce(r, p.all ? { kind: 'all' } : { kind: 'objects', objects: [...p.objects.values()] });
      });
    }
    pending.clear();
  };

  const trigger = (r: Reconciler, obj?: KubeObject) => {
    const p = pending.get(r) ?? { all: false, objects: new Map() };
    if (!obj) p.all = true;
    else p.objects.set(`${obj.metadata?.namespace ?? ''}/${obj.metadata?.name}`, { namespace: obj.metadata?.namespace, name: obj.metadata?.name ?? '' });
    pending.set(r, p);
    timer ??= setTimeout(flush, DEBOUNCE_MS);
  };

  let resyncing = false;
  const resync = async () => {
    // A resync slower than the period is not stacked behind itself.
    if (resyncing) return;
    resyncing = true;
    try {
      for (const r of opts.reconcilers) await enqueue(r, { kind: 'all' });
      await opts.afterResync?.().catch((e: unknown) => log(`after resync: ${String(e)}`));
    } finally {
      resyncing = false;
    }
  };

  const watchKind = async (apiVersion: string, kind: string, onChange: (o: KubeObject) => void) => {
    while (!opts.signal.aborted) {
      try {
        const resourceVersion = await opts.kube.collectionVersion(apiVersion, kind);
        await opts.kube.watch(apiVersion, kind, { resourceVersion, timeoutSeconds: WATCH_SECONDS, signal: opts.signal }, (e) => {
          if (e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED') onChange(e.object);
        });
      } catch (e) {
        if (opts.signal.aborted) return;
        log(`watch ${kind}: ${String(e)}; retrying`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };

  const watches: Promise<void>[] = [];
  if (opts.watch) {
    for (const r of opts.reconcilers) {
      watches.push(watchKind(r.apiVersion, r.kind, (o) => trigger(r, o)));
      for (const t of r.triggers ?? []) {
        const objectsOf = t.objectsOf;
        watches.push(watchKind(t.apiVersion, t.kind, objectsOf ? (o) => objectsOf(o).forEach((m) => trigger(r, { metadata: m })) : () => trigger(r)));
      }
    }
  }

  await resync();
  const every = setInterval(() => void resync(), opts.resyncEveryMs);
  await new Promise<void>((resolve) => opts.signal.addEventListener('abort', () => resolve(), { once: true }));
  clearInterval(every);
  if (timer) clearTimeout(timer);
  await Promise.allSettled(watches);
  await queue;
}
