// Pure: what a batch of requeue messages from SQS asks for. Each due record is routed to its
// reconciler; records for one reconciler make one run (a full-resync scope covers object scopes,
// object scopes are merged). A record not yet due (a wait beyond SQS's 15-minute delay) is sent
// again as it is; one whose scheduled resync has already run is acknowledged without running.
import type { Reconciler, Scope } from '../reconcile/types.js';
import { parseRequeueBody, type Requeue } from './requeue.js';
import type { PlannedRun } from './route-event.js';

export const SQS_EVENT_SOURCE = 'aws:sqs';

/** The parts of a Lambda SQS record this function reads. */
export type SqsRecord = { messageId: string; body: string; eventSource: string };
export type SqsEvent = { Records: SqsRecord[] };

/** A record due within this of now runs now: SQS delays are whole seconds. */
const DUE_SLACK_MS = 1000;

export function isSqsEvent(event: unknown): event is { Records: unknown[] } {
  const records = (event as { Records?: unknown } | null)?.Records;
  return Array.isArray(records) && records.length > 0 && (records[0] as { eventSource?: unknown } | null)?.eventSource === SQS_EVENT_SOURCE;
}

/** A run for some records; `resyncBy` is the horizon its own wake-ups inherit (epoch ms; undefined: none). */
export type QueuedRun = PlannedRun & { records: string[]; resyncBy?: number };

export type SqsRoute = {
  /** In registry order. */
  runs: QueuedRun[];
  /** Not yet due: to send again unchanged. */
  notYetDue: Requeue[];
  /** Acknowledged without running, and why. */
  skipped: { messageId: string; reason: string }[];
  /** Malformed: reported as failures, so after the redrive policy's receives they land in the dead-letter queue. */
  invalid: { messageId: string; error: string }[];
};

export function routeSqsRecords(records: readonly unknown[], reconcilers: readonly Reconciler[], clusterId: string, now: number): SqsRoute {
  const route: SqsRoute = { runs: [], notYetDue: [], skipped: [], invalid: [] };
  const due = new Map<Reconciler, { scopes: Scope[]; records: string[]; resyncBy: (number | undefined)[] }>();
  for (const [i, raw] of records.entries()) {
    const rec = (raw ?? {}) as Partial<Record<keyof SqsRecord, unknown>>;
    const messageId = typeof rec.messageId === 'string' && rec.messageId ? rec.messageId : undefined;
    const problem = (error: string) => route.invalid.push({ messageId: messageId ?? '', error });
    const skip = (reason: string) => route.skipped.push({ messageId: messageId ?? '', reason });
    if (!messageId) { problem(`record ${i}: no messageId`); continue; }
    if (rec.eventSource !== SQS_EVENT_SOURCE || typeof rec.body !== 'string') { problem('not an SQS record with a body'); continue; }
    const parsed = parseRequeueBody(rec.body);
    if (!parsed.ok) { problem(parsed.error); continue; }
    const body = parsed.body;
    if (body.clusterId !== clusterId) { skip(`requeue for cluster "${body.clusterId}"; this function serves "${clusterId}"`); continue; }
    const reconciler = reconcilers.find((r) => r.apiVersion === body.apiVersion && r.kind === body.kind);
    if (!reconciler) { skip(`no reconciler for ${body.apiVersion} ${body.kind}`); continue; }
    const resyncBy = body.resyncBy === undefined ? undefined : Date.parse(body.resyncBy);
    if (resyncBy !== undefined && resyncBy <= now) { skip(`the scheduled resync due by ${body.resyncBy} covers it`); continue; }
    if (Date.parse(body.dueAt) - now >= DUE_SLACK_MS) { route.notYetDue.push({ body, from: [messageId] }); continue; }
    const d = due.get(reconciler) ?? { scopes: [], records: [], resyncBy: [] };
    d.scopes.push(body.scope);
    d.records.push(messageId);
    d.resyncBy.push(resyncBy);
    due.set(reconciler, d);
  }
  for (const reconciler of reconcilers) {
    const d = due.get(reconciler);
    if (!d) continue;
    const resyncBy = d.resyncBy.some((t) => t === undefined) ? undefined : Math.max(...(d.resyncBy as number[]));
    route.runs.push({ reconciler, scope: mergeScopes(d.scopes), records: d.records, ...(resyncBy !== undefined ? { resyncBy } : {}) });
  }
  return route;
}

function mergeScopes(scopes: readonly Scope[]): Scope {
  const objects = new Map<string, { namespace?: string; name: string }>();
  for (const s of scopes) {
    if (s.kind === 'all') return { kind: 'all' };
    for (const o of s.objects) objects.set(`${o.namespace ?? ''}/${o.name}`, o);
  }
  return { kind: 'objects', objects: [...objects.values()] };
}
