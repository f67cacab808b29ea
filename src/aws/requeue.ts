// Pure: the wake-ups a run asks for (Plan.requeueAfterMs, or a retry when another invocation held
// the lease), as messages for an SQS queue the reconcile Lambda consumes. SQS delays a message by
// whole seconds and at most 15 minutes, so a message carries the time it is due: one received
// early is sent again with what remains.
//
// A wake-up due after the next scheduled full resync is not sent: that resync covers it. Without
// this every minute's resync of a stuck rollout would start one more requeue chain that never
// ends (the Node loop had that bug: see src/reconcile/wakeups.ts). A chain keeps the `resyncBy` of
// the run that started it, so it ends within one schedule period.
//
// A time an object's spec names (Plan.scheduledAfterMs: a CronJob's next run) is the exception: it
// is sent however far off, with no horizon, so it does not wait on the resync. Chains of those end
// another way: a run a wake-up started passes the next one on only if it wrote something, so of
// several wake-ups for one time (sent by several runs before it) only the one that did the work
// goes on.
import type { AdmittedRef } from '../edge-state/contracts.js';
import type { RunReport, Scope } from '../reconcile/types.js';
import { parseAdmittedRef } from './change-sink.js';
import { requeueDelayMs } from '../reconcile/requeue-delay.js';

/** SQS's cap on DelaySeconds. */
export const MAX_DELAY_SECONDS = 900;

export type RequeueBody = {
  clusterId: string;
  apiVersion: string;
  kind: string;
  scope: Scope;
  /** When to run (ISO 8601). */
  dueAt: string;
  /** By when a scheduled full resync will have run (ISO 8601); absent when none is scheduled. */
  resyncBy?: string;
  /** A time an object's spec names (Plan.scheduledAfterMs): no resync covers it; passed on only by a run that wrote. */
  scheduled?: boolean;
  /** Runs an event started, waiting for its write to commit (commit-wait.ts): checked again when due, until `until` (ISO 8601). */
  awaits?: { admitted: AdmittedRef; until: string };
};

/** A wake-up to send, and the SQS records (message ids) to report failed if it cannot be sent. */
export type Requeue = { body: RequeueBody; from: string[] };

export type QueuedMessage = { body: string; delaySeconds: number };

/** The queue wake-ups go to (SQS on Lambda: src/aws/sqs-fetch.ts). */
export interface RequeueQueue {
  /** Enqueues every message; resolves with the ones the queue did not take, by index. */
  send(messages: readonly QueuedMessage[]): Promise<{ index: number; error: string }[]>;
}


export type RequeueContext = { clusterId: string; now: number; resyncBy?: number; from?: string[] };
type Run = { apiVersion: string; kind: string; scope: Scope; report: RunReport };

/** The wake-up one run asks for, if any (whether it is worth sending is `coveredByResync`). */
export function requeueFor(run: Run, ctx: RequeueContext): Requeue | undefined {
  const delay = requeueDelayMs(run.report);
  if (delay === undefined) return undefined;
  return wakeUp(run, ctx, delay, ctx.resyncBy !== undefined ? { resyncBy: new Date(ctx.resyncBy).toISOString() } : {});
}

function wakeUp(run: Run, ctx: RequeueContext, delay: number, extra: Pick<RequeueBody, 'resyncBy' | 'scheduled'>): Requeue {
  const body: RequeueBody = {
    clusterId: ctx.clusterId,
    apiVersion: run.apiVersion,
    kind: run.kind,
    scope: run.scope,
    dueAt: new Date(ctx.now + Math.max(0, delay)).toISOString(),
    ...extra,
  };
  return { body, from: ctx.from ?? [] };
}

/**
 * The wake-up for a time the run's objects name (Plan.scheduledAfterMs), if any: sent however far
 * off, with no resync horizon (a resync would only ask for it again). `passOn` says whether this
 * run may send it: always after an event or the schedule; after a wake-up only if it wrote (see
 * Plan.scheduledAfterMs), so that of several wake-ups due at once one chain goes on.
 */
export function scheduledRequeueFor(run: Run, ctx: RequeueContext & { passOn: boolean }): Requeue | undefined {
  const delay = run.report.plan.scheduledAfterMs;
  if (delay === undefined || !ctx.passOn) return undefined;
  return wakeUp(run, ctx, delay, { scheduled: true });
}

/** A scheduled full resync runs no later than this wake-up would (never for a scheduled time). */
export function coveredByResync(body: RequeueBody): boolean {
  return !body.scheduled && body.resyncBy !== undefined && Date.parse(body.dueAt) >= Date.parse(body.resyncBy);
}

/** Whole seconds until due, rounded up (never early), within SQS's bounds. */
export function delaySecondsFor(body: RequeueBody, now: number): number {
  const seconds = Math.ceil((Date.parse(body.dueAt) - now) / 1000);
  return Math.min(MAX_DELAY_SECONDS, Math.max(0, seconds));
}

export function toQueuedMessage(r: Requeue, now: number): QueuedMessage {
  return { body: JSON.stringify(r.body), delaySeconds: delaySecondsFor(r.body, now) };
}

/** The later horizon of two (none means unbounded, so it wins). */
function laterResync(a?: string, b?: string): string | undefined {
  if (a === undefined || b === undefined) return undefined;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

const objectKey = (o: { namespace?: string; name: string }) => `${o.namespace ?? ''}/${o.name}`;

function covers(earlier: Scope, later: Scope): boolean {
  if (earlier.kind === 'all') return true;
  if (later.kind === 'all') return false;
  const held = new Set(earlier.objects.map(objectKey));
  return later.objects.every((o) => held.has(objectKey(o)));
}

/**
 * One message where several would do. Per reconciler, in due order: a wake-up whose scope an
 * earlier (or equal) one covers is dropped, since that run decides afresh and asks again if it
 * still needs to; a full-resync scope covers every object scope. Object scopes due within the
 * same second are merged.
 */
export function dedupeRequeues(requeues: readonly Requeue[]): Requeue[] {
  const kept: Requeue[] = [];
  const sorted = [...requeues].sort((a, b) => Date.parse(a.body.dueAt) - Date.parse(b.body.dueAt));
  for (const r of sorted) {
    // A scheduled time and a retry never merge: each is passed on by its own rules. Nor does a wait
    // for a commit: it is checked again when due, an ordinary wake-up just runs.
    const same = r.body.awaits ? [] : kept.filter((k) => !k.body.awaits && k.body.clusterId === r.body.clusterId && k.body.apiVersion === r.body.apiVersion && k.body.kind === r.body.kind && Boolean(k.body.scheduled) === Boolean(r.body.scheduled));
    const due = Date.parse(r.body.dueAt);
    const into =
      same.find((k) => covers(k.body.scope, r.body.scope)) ??
      (r.body.scope.kind === 'objects' ? same.find((k) => k.body.scope.kind === 'objects' && due - Date.parse(k.body.dueAt) < 1000) : undefined);
    if (!into) {
      kept.push({ body: { ...r.body }, from: [...r.from] });
      continue;
    }
    if (into.body.scope.kind === 'objects' && r.body.scope.kind === 'objects') {
      const seen = new Set(into.body.scope.objects.map(objectKey));
      into.body.scope = { kind: 'objects', objects: [...into.body.scope.objects, ...r.body.scope.objects.filter((o) => !seen.has(objectKey(o)))] };
    }
    into.from = [...new Set([...into.from, ...r.from])];
    const resyncBy = laterResync(into.body.resyncBy, r.body.resyncBy);
    if (resyncBy === undefined) delete into.body.resyncBy;
    else into.body.resyncBy = resyncBy;
  }
  return kept;
}

export function parseRequeueBody(text: string): { ok: true; body: RequeueBody } | { ok: false; error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { ok: false, error: 'body: not JSON' };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { ok: false, error: 'body: must be an object' };
  const b = v as Record<string, unknown>;
  const errors: string[] = [];
  for (const k of ['clusterId', 'apiVersion', 'kind'] as const) if (typeof b[k] !== 'string' || !b[k]) errors.push(`${k} must be a non-empty string`);
  for (const k of ['dueAt', 'resyncBy'] as const) {
    if (k === 'resyncBy' && b[k] === undefined) continue;
    if (typeof b[k] !== 'string' || !Number.isFinite(Date.parse(b[k]))) errors.push(`${k} must be an ISO 8601 time`);
  }
  const scope = parseScope(b.scope);
  if (!scope) errors.push('scope must be {"kind":"all"} or {"kind":"objects","objects":[{"namespace"?,"name"}, …]}');
  const awaits = b.awaits === undefined ? undefined : parseAwaits(b.awaits);
  if (typeof awaits === 'string') errors.push(`awaits: ${awaits}`);
  if (errors.length || !scope) return { ok: false, error: `body: ${errors.join(', ')}` };
  const body: RequeueBody = { clusterId: b.clusterId as string, apiVersion: b.apiVersion as string, kind: b.kind as string, scope, dueAt: b.dueAt as string };
  if (typeof b.resyncBy === 'string') body.resyncBy = b.resyncBy;
  if (b.scheduled === true) body.scheduled = true;
  if (awaits && typeof awaits !== 'string') body.awaits = awaits;
  return { ok: true, body };
}

function parseScope(v: unknown): Scope | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const s = v as { kind?: unknown; objects?: unknown };
  if (s.kind === 'all') return { kind: 'all' };
  if (s.kind !== 'objects' || !Array.isArray(s.objects) || s.objects.length === 0) return undefined;
  const objects: { namespace?: string; name: string }[] = [];
  for (const o of s.objects as unknown[]) {
    const { namespace, name } = (o ?? {}) as { namespace?: unknown; name?: unknown };
    if (typeof name !== 'string' || !name || (namespace !== undefined && typeof namespace !== 'string')) return undefined;
    objects.push(namespace ? { namespace, name } : { name });
  }
  return { kind: 'objects', objects };
}

function parseAwaits(v: unknown): NonNullable<RequeueBody['awaits']> | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be an object';
  const a = v as Record<string, unknown>;
  const admitted = parseAdmittedRef(a.admitted);
  if (typeof admitted === 'string') return `admitted: ${admitted}`;
  if (typeof a.until !== 'string' || !Number.isFinite(Date.parse(a.until))) return 'until must be an ISO 8601 time';
  return { admitted, until: a.until };
}
