// Publishing change events to EventBridge, independent of how PutEvents is sent: the AWS SDK on
// Node and Lambda (change-events.ts), a SigV4-signed fetch in the Worker (eventbridge-fetch.ts).
// Web APIs only: the Worker imports this file.
import type { PutEventsRequestEntry, PutEventsResultEntry } from '@aws-sdk/client-eventbridge';
import type { AdmittedRef, ChangeEvent, ChangeSink } from '../edge-state/contracts.js';

export const CHANGE_EVENT_SOURCE = 'kruise-serverless';
export const CHANGE_EVENT_DETAIL_TYPE = 'ObjectChanged';

// The event and the port are the admission runtime's (the Worker publishes them too).
export type { ChangeEvent } from '../edge-state/contracts.js';
export type EventSink = ChangeSink;

export class ChangeEventPublishError extends Error {
  constructor(readonly failures: { event: ChangeEvent; errorCode: string; errorMessage: string }[]) {
    super(
      `EventBridge rejected ${failures.length} change event(s): ` +
        failures.map((f) => `${f.event.kind} ${f.event.namespace ? `${f.event.namespace}/` : ''}${f.event.name}: ${f.errorCode} ${f.errorMessage}`).join('; '),
    );
    this.name = 'ChangeEventPublishError';
  }
}

/** Checks an event's `detail` (it crossed a process boundary): the event, or what is wrong with it. */
export function parseChangeEvent(detail: unknown): { ok: true; event: ChangeEvent } | { ok: false; error: string } {
  if (typeof detail !== 'object' || detail === null || Array.isArray(detail)) return { ok: false, error: 'detail: must be an object' };
  const d = detail as Record<string, unknown>;
  const missing = (['clusterId', 'kind', 'apiVersion', 'name', 'reason'] as const).filter((k) => typeof d[k] !== 'string' || d[k] === '');
  if (missing.length) return { ok: false, error: `detail: ${missing.map((k) => `${k} must be a non-empty string`).join(', ')}` };
  if (d.namespace !== undefined && (typeof d.namespace !== 'string' || d.namespace === '')) return { ok: false, error: 'detail.namespace: must be a non-empty string when present' };
  const event: ChangeEvent = {
    clusterId: d.clusterId as string,
    kind: d.kind as string,
    apiVersion: d.apiVersion as string,
    name: d.name as string,
    reason: d.reason as string,
    ...(d.namespace ? { namespace: d.namespace as string } : {}),
  };
  if (d.admitted !== undefined) {
    const admitted = parseAdmittedRef(d.admitted);
    if (typeof admitted === 'string') return { ok: false, error: `detail.admitted: ${admitted}` };
    event.admitted = admitted;
  }
  return { ok: true, event };
}

const OPERATIONS: readonly string[] = ['CREATE', 'UPDATE', 'DELETE'] satisfies AdmittedRef['operation'][];

/** The AdmittedRef, or what is wrong with it. */
export function parseAdmittedRef(v: unknown): AdmittedRef | string {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'must be an object';
  const a = v as Record<string, unknown>;
  const missing = (['apiVersion', 'kind', 'name'] as const).filter((k) => typeof a[k] !== 'string' || a[k] === '');
  if (missing.length) return missing.map((k) => `${k} must be a non-empty string`).join(', ');
  if (typeof a.operation !== 'string' || !OPERATIONS.includes(a.operation)) return `operation must be one of ${OPERATIONS.join(', ')}`;
  for (const k of ['namespace', 'basedOn'] as const) if (a[k] !== undefined && (typeof a[k] !== 'string' || a[k] === '')) return `${k} must be a non-empty string when present`;
  return {
    apiVersion: a.apiVersion as string, kind: a.kind as string, name: a.name as string, operation: a.operation as AdmittedRef['operation'],
    ...(a.namespace ? { namespace: a.namespace as string } : {}), ...(a.basedOn ? { basedOn: a.basedOn as string } : {}),
  };
}

// PutEvents limits (EventBridge API reference, PutEvents; "Calculating PutEvents event entry size").
const MAX_ENTRIES_PER_CALL = 10;
/** The total entry size must be below 256 KB (newer documentation allows 1 MB; we keep to the lower). */
const MAX_BYTES_PER_CALL = 256 * 1024;

const utf8 = new TextEncoder();

/** The size EventBridge counts for an entry: Time (14 bytes if set) + Source + DetailType + Detail + Resources, in UTF-8. */
export function entrySize(e: PutEventsRequestEntry): number {
  const bytes = (s: string | undefined) => (s ? utf8.encode(s).length : 0);
  return (e.Time ? 14 : 0) + bytes(e.Source) + bytes(e.DetailType) + bytes(e.Detail) + (e.Resources ?? []).reduce((n, r) => n + bytes(r), 0);
}

/** Groups entries into PutEvents calls of ≤ 10 entries and < 256 KB, keeping their order. */
export function batchEntries<T extends { entry: PutEventsRequestEntry }>(items: readonly T[]): { batches: T[][]; oversized: T[] } {
  const batches: T[][] = [];
  const oversized: T[] = [];
  let batch: T[] = [];
  let size = 0;
  for (const item of items) {
    const n = entrySize(item.entry);
    if (n >= MAX_BYTES_PER_CALL) {
      oversized.push(item);
      continue;
    }
    if (batch.length === MAX_ENTRIES_PER_CALL || size + n >= MAX_BYTES_PER_CALL) {
      batches.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(item);
    size += n;
  }
  if (batch.length) batches.push(batch);
  return { batches, oversized };
}

/** Sends one PutEvents request; result entries line up with request entries by index. */
export type PutEventsTransport = (entries: PutEventsRequestEntry[]) => Promise<{ FailedEntryCount?: number; Entries?: PutEventsResultEntry[] }>;

export type EventBridgeSinkConfig = { eventBusName: string };

/**
 * Publishes change events to a custom bus. Entries EventBridge rejects (FailedEntryCount > 0) are
 * retried once in a fresh call; whatever still fails is thrown as one ChangeEventPublishError
 * after every batch has been tried. Errors from the transport itself propagate unchanged.
 */
export class PutEventsSink implements ChangeSink {
  constructor(
    private readonly transport: PutEventsTransport,
    private readonly config: EventBridgeSinkConfig,
  ) {}

  async publish(events: readonly ChangeEvent[]): Promise<void> {
    const items = events.map((event) => ({ event, entry: this.toEntry(event) }));
    const { batches, oversized } = batchEntries(items);
    const failures: ChangeEventPublishError['failures'] = oversized.map(({ event }) => ({ event, errorCode: 'EntryTooLarge', errorMessage: `over the ${MAX_BYTES_PER_CALL}-byte PutEvents limit` }));
    const retry: typeof items = [];
    for (const batch of batches) for (const f of await this.put(batch)) retry.push(f.item);
    for (const batch of batchEntries(retry).batches) {
      for (const f of await this.put(batch)) failures.push({ event: f.item.event, errorCode: f.errorCode, errorMessage: f.errorMessage });
    }
    if (failures.length) throw new ChangeEventPublishError(failures);
  }

  private toEntry(event: ChangeEvent): PutEventsRequestEntry {
    return { Source: CHANGE_EVENT_SOURCE, DetailType: CHANGE_EVENT_DETAIL_TYPE, Detail: JSON.stringify(event), EventBusName: this.config.eventBusName };
  }

  /** One PutEvents call; returns the entries it rejected. */
  private async put<T extends { entry: PutEventsRequestEntry }>(batch: T[]): Promise<{ item: T; errorCode: string; errorMessage: string }[]> {
    const out = await this.transport(batch.map((b) => b.entry));
    if (!out.FailedEntryCount) return [];
    return batch.flatMap((item, i) => {
      const r = out.Entries?.[i];
      if (r?.EventId && !r.ErrorCode) return [];
      return [{ item, errorCode: r?.ErrorCode ?? 'Unknown', errorMessage: r?.ErrorMessage ?? 'no result entry returned' }];
    });
  }
}
