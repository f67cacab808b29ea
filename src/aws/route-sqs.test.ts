import { describe, expect, it } from 'vitest';
import { emptyPlan, type Reconciler, type Scope } from '../reconcile/types.js';
import type { RequeueBody } from './requeue.js';
import { isSqsEvent, routeSqsRecords } from './route-sqs.js';

const T0 = Date.parse('2026-11-22T14:25:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

const reconciler = (kind: string): Reconciler => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind, observe: async () => undefined, decide: () => emptyPlan() });
const cloneSet = reconciler('CloneSet');
const sidecarSet = reconciler('SidecarSet');
const all = [cloneSet, sidecarSet];

const ALL: Scope = { kind: 'all' };
const objs = (...names: string[]): Scope => ({ kind: 'objects', objects: names.map((n) => ({ namespace: 'default', name: n })) });
const body = (kind: string, scope: Scope, dueMs = 0, over: Partial<RequeueBody> = {}): RequeueBody => ({
  clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind, scope, dueAt: at(dueMs), resyncBy: at(60_000), ...over,
});
const record = (messageId: string, b: RequeueBody | string) => ({
  messageId, receiptHandle: `rh-${messageId}`, body: typeof b === 'string' ? b : JSON.stringify(b), attributes: {}, messageAttributes: {},
  md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:123456789012:requeue', awsRegion: 'us-east-1',
});

describe('isSqsEvent', () => {
  it.each([
    ['an SQS batch', { Records: [record('a', body('CloneSet', ALL))] }, true],
    ['an EventBridge event', { source: 'aws.events', 'detail-type': 'Scheduled Event' }, false],
    ['records from another source', { Records: [{ eventSource: 'aws:kinesis' }] }, false],
    ['no records', { Records: [] }, false],
    ['null', null, false],
  ])('%s', (_name, event, want) => {
    expect(isSqsEvent(event)).toBe(want);
  });
});

describe('routeSqsRecords', () => {
  const route = (...records: unknown[]) => routeSqsRecords(records, all, 'example', T0);
  const runs = (r: ReturnType<typeof route>) => r.runs.map((x) => ({ kind: x.reconciler.kind, scope: x.scope, records: x.records, resyncBy: x.resyncBy }));

  it('a due record runs its reconciler over its scope', () => {
    expect(runs(route(record('a', body('CloneSet', objs('web')))))).toEqual([{ kind: 'CloneSet', scope: objs('web'), records: ['a'], resyncBy: T0 + 60_000 }]);
  });

  it('records for one reconciler make one run: objects merged, a full scope covers them; registry order', () => {
    const r = route(
      record('a', body('SidecarSet', objs('log'))),
      record('b', body('CloneSet', objs('web'))),
      record('c', body('SidecarSet', objs('log', 'audit'))),
      record('d', body('CloneSet', ALL)),
    );
    expect(runs(r)).toEqual([
      { kind: 'CloneSet', scope: ALL, records: ['b', 'd'], resyncBy: T0 + 60_000 },
      { kind: 'SidecarSet', scope: objs('log', 'audit'), records: ['a', 'c'], resyncBy: T0 + 60_000 },
    ]);
  });

  it('a merged run keeps the latest horizon; none if a record has none', () => {
    expect(route(record('a', body('CloneSet', ALL, 0, { resyncBy: at(30_000) })), record('b', body('CloneSet', ALL, 0, { resyncBy: at(50_000) }))).runs[0]!.resyncBy).toBe(T0 + 50_000);
    const { resyncBy: _r, ...none } = body('CloneSet', ALL);
    expect(route(record('a', body('CloneSet', ALL)), record('b', none)).runs[0]!.resyncBy).toBeUndefined();
  });

  it.each([
    ['due now', 0, 'run'],
    ['overdue', -30_000, 'run'],
    ['less than a second early (SQS delays are whole seconds)', 999, 'run'],
    ['a second or more early', 1_000, 'later'],
    ['beyond the 15-minute delay cap', 20 * 60_000, 'later'],
  ])('%s', (_name, dueMs, want) => {
    const b = body('CloneSet', objs('web'), dueMs, { resyncBy: at(60 * 60_000) });
    const r = route(record('a', b));
    expect(r.runs.length ? 'run' : 'later').toBe(want);
    if (want === 'later') expect(r.notYetDue).toEqual([{ body: b, from: ['a'] }]);
  });

  it('acknowledges without running: another cluster, an unknown kind, a resync that already ran', () => {
    const r = route(
      record('a', body('CloneSet', ALL, 0, { clusterId: 'prod' })),
      record('b', body('BroadcastJob', ALL)),
      record('c', body('CloneSet', ALL, -120_000, { resyncBy: at(-60_000) })),
    );
    expect(r.runs).toEqual([]);
    expect(r.skipped).toEqual([
      { messageId: 'a', reason: 'requeue for cluster "prod"; this function serves "example"' },
      { messageId: 'b', reason: 'no reconciler for apps.kruise.io/v1alpha1 BroadcastJob' },
      { messageId: 'c', reason: `the scheduled resync due by ${at(-60_000)} covers it` },
    ]);
  });

  it('malformed records are invalid, and do not stop the others', () => {
    const r = route(record('a', 'not json'), { ...record('b', body('CloneSet', ALL)), eventSource: 'aws:sns' }, { body: '{}' }, record('d', body('CloneSet', ALL)));
    expect(r.invalid).toEqual([
      { messageId: 'a', error: 'body: not JSON' },
      { messageId: 'b', error: 'not an SQS record with a body' },
      { messageId: '', error: 'record 2: no messageId' },
    ]);
    expect(runs(r)).toEqual([{ kind: 'CloneSet', scope: ALL, records: ['d'], resyncBy: T0 + 60_000 }]);
  });
});
