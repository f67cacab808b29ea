// The reconcile Lambda's orchestration, over ports it is given (ReconcileDeps). Invoked by
//   EventBridge every minute (Scheduled Event → a full resync of every reconciler, then a push of
//     what webhooks read to the edge),
//   EventBridge for each ObjectChanged event a webhook published (→ the reconcilers of that kind,
//     for that object; see route-event.ts),
//   SQS with batches of wake-ups earlier runs asked for (Plan.requeueAfterMs, or a retry when another
//     invocation held the lease; see requeue.ts and route-sqs.ts).
// An event whose write is not visible yet starts no run: its runs wait in the queue until it is
// (commit-wait.ts).
// After any run that asks for a wake-up it sends one to the queue; after a triggered run that wrote
// to the cluster it pushes to the edge too. Every invocation ends in a summary (ReconcileSummary).
import { COMMIT_RECHECK_MS, COMMIT_WAIT_MS, describeRef, hasCommitted, type ObjectVersion } from './commit-wait.js';
import { coveredByResync, dedupeRequeues, parseRequeueBody, requeueFor, scheduledRequeueFor, toQueuedMessage, type Requeue, type RequeueBody, type RequeueQueue } from './requeue.js';
import { routeEvent, type PlannedRun, type Route } from './route-event.js';
import { isSqsEvent, routeSqsRecords, type SqsRecord } from './route-sqs.js';
import type { AdmittedRef } from '../edge-state/contracts.js';
import type { Reconciler, RunReport, Scope } from '../reconcile/types.js';
import { recordReconcileRun } from '../telemetry/record.js';

export type ReconcileDeps = {
  reconcilers: readonly Reconciler[];
  run: (reconciler: Reconciler, scope: Scope) => Promise<RunReport>;
  clusterId: string;
  log?: (line: string) => void;
  /** Push the state webhooks read to the edge: after every scheduled resync, and after a triggered run that wrote. */
  pushEdge?: () => Promise<string[]>;
  /** Where wake-ups go; without a queue they are reported as not scheduled. */
  queue?: RequeueQueue;
  /** The scheduled resync's period: wake-ups due after the next resync are not sent. Absent or 0: no schedule. */
  resyncEveryMs?: number;
  /** Reads the object an event's write concerns, to tell whether the write has committed (commit-wait.ts); absent: runs never wait. */
  readVersion?: (ref: AdmittedRef) => Promise<ObjectVersion | undefined>;
  now?: () => number;
};

export type RunSummary = {
  reconciler: string;
  apiVersion: string;
  /** 'all', or the objects as `namespace/name` (`name` when cluster-scoped). */
  scope: 'all' | string[];
  acted: boolean;
  applied: number;
  conflicts: number;
  failed: number;
  apiCalls: number;
  durationMs: number;
  /** The run threw (observe failed, lease unreachable …); the next run starts afresh. */
  error?: string;
};

export type RequeueNote = {
  reconciler: string;
  scope: RunSummary['scope'];
  dueAt: string;
  delaySeconds: number;
  status: 'sent' | 'failed' | 'not scheduled' | 'covered by resync';
  error?: string;
};

export type ReconcileSummary = {
  /** false when the event (or a record) was invalid, a run threw, a write failed, or a wake-up or push could not be sent. */
  ok: boolean;
  trigger: Route['trigger'] | 'requeue';
  eventId?: string;
  /** Why an event was ignored, or what is wrong with an invalid one. */
  message?: string;
  runs: RunSummary[];
  /** The wake-ups runs asked for (and records not yet due, sent again). */
  requeues?: RequeueNote[];
  /** What was pushed to the edge (collection: mode changed/items). */
  pushed?: string[];
  /** SQS records acknowledged without running, and why. */
  skipped?: string[];
  /** SQS: the records to deliver again (invalid, their run threw, or their wake-up was not sent). */
  batchItemFailures?: { itemIdentifier: string }[];
};

export type SqsBatchResponse = { batchItemFailures: { itemIdentifier: string }[] };

export type ReconcileHandler = (event: unknown, context?: unknown) => Promise<ReconcileSummary>;

type Executed = { run: PlannedRun; summary: RunSummary; report?: RunReport; records: string[]; resyncBy?: number };

/**
 * After an event or the schedule, a run sends its scheduled times; after a wake-up, only a run that
 * wrote to the cluster (an Event alone does not count: a duplicate repeats it), see Plan.scheduledAfterMs.
 */
const afterEvent = () => true;
const wrote = (e: Executed) => wroteToCluster(e);

export function makeReconcileHandler(deps: ReconcileDeps): ReconcileHandler {
  const log = deps.log ?? (() => undefined);
  return async (event) => {
    const summary = isSqsEvent(event) ? await onRequeues(deps, event.Records) : await onEvent(deps, event);
    log(JSON.stringify(summary));
    return summary;
  };
}

/** What Lambda should get back: for an SQS batch only the partial-batch response it reads. */
export function lambdaResult(summary: ReconcileSummary): ReconcileSummary | SqsBatchResponse {
  return summary.batchItemFailures ? { batchItemFailures: summary.batchItemFailures } : summary;
}

async function onEvent(deps: ReconcileDeps, event: unknown): Promise<ReconcileSummary> {
  const route = routeEvent(event, deps.reconcilers, deps.clusterId);
  const eventId = typeof (event as { id?: unknown } | null)?.id === 'string' ? (event as { id: string }).id : undefined;
  const base = { trigger: route.trigger, ...(eventId ? { eventId } : {}) };
  if (route.trigger === 'invalid') return { ...base, ok: false, message: route.error, runs: [] };
  if (route.trigger === 'ignored') return { ...base, ok: true, message: route.reason, runs: [] };
  const now = deps.now ?? Date.now;
  const resyncBy = deps.resyncEveryMs ? now() + deps.resyncEveryMs : undefined;
  const admitted = route.trigger === 'object-changed' ? route.event.admitted : undefined;
  // Without a queue there is nowhere to wait: the runs go now (the schedule repairs a miss).
  if (admitted && deps.queue && route.runs.length && !(await visible(deps, admitted))) {
    const until = new Date(now() + COMMIT_WAIT_MS).toISOString();
    const waits = route.runs.map((run): Requeue => ({ body: recheck(deps, run, now(), { admitted, until }, resyncBy), from: [] }));
    const sent = await sendRequeues(deps, waits);
    return { ...base, ok: !sent.notes.some((n) => n.status === 'failed'), message: `${describeRef(admitted)} not committed yet: the runs wait for it`, runs: [], requeues: sent.notes };
  }
  const executed = await runAll(deps, route.runs.map((run) => ({ run, records: [] })));
  const summary: ReconcileSummary = { ...base, ok: runsOk(executed), runs: executed.map((e) => e.summary) };
  if (route.trigger === 'object-changed' && executed.length === 0) summary.message = `no reconciler for ${route.event.apiVersion} ${route.event.kind}`;
  const sent = await sendRequeues(deps, wakeUps(deps, executed, (e) => e.resyncBy ?? resyncBy, afterEvent));
  if (sent.notes.length) summary.requeues = sent.notes;
  if (sent.notes.some((n) => n.status === 'failed')) summary.ok = false;
  await pushIf(deps, summary, route.trigger === 'schedule' || executed.some(wroteToCluster));
  return summary;
}

async function onRequeues(deps: ReconcileDeps, all: readonly unknown[]): Promise<ReconcileSummary> {
  const now = deps.now ?? Date.now;
  const { records, waiting } = await stillWaiting(deps, all, now());
  const route = routeSqsRecords(records, deps.reconcilers, deps.clusterId, now());
  route.skipped.push(...waiting.map((w) => ({ messageId: w.from[0] ?? '', reason: w.reason })));
  const executed = await runAll(deps, route.runs.map(({ records: ids, resyncBy, ...run }) => ({ run, records: ids, ...(resyncBy !== undefined ? { resyncBy } : {}) })));
  const failed = new Set<string>([...route.invalid.map((i) => i.messageId), ...executed.filter((e) => e.summary.error).flatMap((e) => e.records)]);
  const sent = await sendRequeues(deps, [...route.notYetDue, ...waiting, ...wakeUps(deps, executed, (e) => e.resyncBy, wrote)]);
  for (const id of sent.failed) failed.add(id);
  const summary: ReconcileSummary = {
    ok: runsOk(executed) && route.invalid.length === 0 && failed.size === 0,
    trigger: 'requeue',
    runs: executed.map((e) => e.summary),
    ...(route.invalid.length ? { message: route.invalid.map((i) => `${i.messageId || '(no id)'}: ${i.error}`).join('; ') } : {}),
    ...(sent.notes.length ? { requeues: sent.notes } : {}),
    ...(route.skipped.length ? { skipped: route.skipped.map((s) => `${s.messageId}: ${s.reason}`) } : {}),
    // An empty itemIdentifier would fail the whole batch; a record without an id cannot be retried alone.
    batchItemFailures: [...failed].filter(Boolean).map((itemIdentifier) => ({ itemIdentifier })),
  };
  await pushIf(deps, summary, executed.some(wroteToCluster));
  return summary;
}

/** Whether the write is visible (or cannot be told: a failed read never holds a run back). */
async function visible(deps: ReconcileDeps, ref: AdmittedRef): Promise<boolean> {
  if (!deps.readVersion) return true;
  try {
    return hasCommitted(ref, await deps.readVersion(ref));
  } catch {
    return true;
  }
}

function recheck(deps: ReconcileDeps, run: PlannedRun, now: number, awaits: NonNullable<RequeueBody['awaits']>, resyncBy: number | undefined): RequeueBody {
  const { apiVersion, kind } = run.reconciler;
  return {
    clusterId: deps.clusterId, apiVersion, kind, scope: run.scope, dueAt: new Date(now + COMMIT_RECHECK_MS).toISOString(), awaits,
    ...(resyncBy !== undefined ? { resyncBy: new Date(resyncBy).toISOString() } : {}),
  };
}

/** The due records whose event's write is still not visible (to send again a second later), and the rest (to route). */
async function stillWaiting(deps: ReconcileDeps, records: readonly unknown[], now: number): Promise<{ records: unknown[]; waiting: (Requeue & { reason: string })[] }> {
  const out: { records: unknown[]; waiting: (Requeue & { reason: string })[] } = { records: [], waiting: [] };
  for (const raw of records) {
    const rec = (raw ?? {}) as Partial<SqsRecord>;
    const parsed = typeof rec.body === 'string' ? parseRequeueBody(rec.body) : undefined;
    const body = parsed?.ok ? parsed.body : undefined;
    const awaits = body?.clusterId === deps.clusterId ? body.awaits : undefined;
    if (!body || !awaits || Date.parse(awaits.until) <= now || Date.parse(body.dueAt) > now + COMMIT_RECHECK_MS || (await visible(deps, awaits.admitted))) {
      out.records.push(raw);
      continue;
    }
    out.waiting.push({
      body: { ...body, dueAt: new Date(now + COMMIT_RECHECK_MS).toISOString() }, from: typeof rec.messageId === 'string' ? [rec.messageId] : [],
      reason: `${describeRef(awaits.admitted)} not committed yet: waits again`,
    });
  }
  return out;
}

// One at a time, in registry order, as the CLI does: a full resync should not burst the API server.
async function runAll(deps: ReconcileDeps, planned: { run: PlannedRun; records: string[]; resyncBy?: number }[]): Promise<Executed[]> {
  const out: Executed[] = [];
  for (const p of planned) out.push({ ...p, ...(await runOne(deps.run, p.run.reconciler, p.run.scope)) });
  return out;
}

const runsOk = (executed: readonly Executed[]) => executed.every((e) => !e.summary.error && e.summary.failed === 0);

/** Pushed collections only change through API writes, so events or ledger writes alone do not call for a push. */
const wroteToCluster = ({ report: r }: Executed) => r !== undefined && r.applied > 0 && (r.plan.writes.length > 0 || r.plan.status.length > 0);

function wakeUps(deps: ReconcileDeps, executed: readonly Executed[], horizon: (e: Executed) => number | undefined, passOn: (e: Executed) => boolean): Requeue[] {
  const now = (deps.now ?? Date.now)();
  return executed.flatMap((e) => {
    if (!e.report) return [];
    const { apiVersion, kind } = e.run.reconciler;
    const resyncBy = horizon(e);
    const run = { apiVersion, kind, scope: e.run.scope, report: e.report };
    const r = requeueFor(run, { clusterId: deps.clusterId, now, from: e.records, ...(resyncBy !== undefined ? { resyncBy } : {}) });
    const scheduled = scheduledRequeueFor(run, { clusterId: deps.clusterId, now, from: e.records, passOn: passOn(e) });
    return [...(r ? [r] : []), ...(scheduled ? [scheduled] : [])];
  });
}

async function sendRequeues(deps: ReconcileDeps, requeues: readonly Requeue[]): Promise<{ notes: RequeueNote[]; failed: string[] }> {
  const now = (deps.now ?? Date.now)();
  const note = (r: Requeue, status: RequeueNote['status'], error?: string): RequeueNote => {
    const m = toQueuedMessage(r, now);
    return { reconciler: r.body.kind, scope: describeScope(r.body.scope), dueAt: r.body.dueAt, delaySeconds: m.delaySeconds, status, ...(error ? { error } : {}) };
  };
  const covered = requeues.filter((r) => coveredByResync(r.body));
  const toSend = dedupeRequeues(requeues.filter((r) => !coveredByResync(r.body)));
  const notes = covered.map((r) => note(r, 'covered by resync'));
  if (!toSend.length) return { notes, failed: [] };
  if (!deps.queue) return { notes: [...notes, ...toSend.map((r) => note(r, 'not scheduled', 'no requeue queue (KS_REQUEUE_QUEUE_URL) configured'))], failed: [] };
  let rejected: { index: number; error: string }[];
  try {
    rejected = await deps.queue.send(toSend.map((r) => toQueuedMessage(r, now)));
  } catch (e) {
    rejected = toSend.map((_, index) => ({ index, error: e instanceof Error ? e.message : String(e) }));
  }
  const errors = new Map(rejected.map((f) => [f.index, f.error]));
  return {
    notes: [...notes, ...toSend.map((r, i) => (errors.has(i) ? note(r, 'failed', errors.get(i)) : note(r, 'sent')))],
    failed: [...errors.keys()].flatMap((i) => toSend[i]?.from ?? []),
  };
}

async function pushIf(deps: ReconcileDeps, summary: ReconcileSummary, wanted: boolean): Promise<void> {
  if (!wanted || !deps.pushEdge) return;
  try {
    summary.pushed = await deps.pushEdge();
  } catch (e) {
    summary.ok = false;
    summary.message = [summary.message, `edge push failed: ${e instanceof Error ? e.message : String(e)}`].filter(Boolean).join('; ');
  }
}

async function runOne(run: ReconcileDeps['run'], reconciler: Reconciler, scope: Scope): Promise<{ summary: RunSummary; report?: RunReport }> {
  const head = { reconciler: reconciler.kind, apiVersion: reconciler.apiVersion, scope: describeScope(scope) };
  const started = Date.now();
  try {
    const r = await run(reconciler, scope);
    recordReconcileRun(reconciler.kind, { acted: r.acted, dryRun: r.dryRun, failedWrites: r.failed.length }, Date.now() - started);
    return { summary: { ...head, acted: r.acted, applied: r.applied, conflicts: r.conflicts, failed: r.failed.length, apiCalls: r.apiCalls, durationMs: r.durationMs }, report: r };
  } catch (e) {
    recordReconcileRun(reconciler.kind, { threw: e }, Date.now() - started);
    return { summary: { ...head, acted: false, applied: 0, conflicts: 0, failed: 0, apiCalls: 0, durationMs: Date.now() - started, error: e instanceof Error ? e.message : String(e) } };
  }
}

function describeScope(scope: Scope): RunSummary['scope'] {
  return scope.kind === 'all' ? 'all' : scope.objects.map((o) => (o.namespace ? `${o.namespace}/${o.name}` : o.name));
}
