import { describe, expect, it } from 'vitest';
import { runReport } from '../reconcile/run-report-fixture.js';
import type { RunReport, Scope } from '../reconcile/types.js';
import {
  coveredByResync,
  dedupeRequeues,
  delaySecondsFor,
  parseRequeueBody,
  requeueFor,
  scheduledRequeueFor,
  toQueuedMessage,
  type Requeue,
  type RequeueBody,
} from './requeue.js';
import { LEASE_RETRY_MS } from '../reconcile/lease.js';

const T0 = Date.parse('2026-11-22T14:25:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

const report = runReport;

const ALL: Scope = { kind: 'all' };
const objs = (...names: string[]): Scope => ({ kind: 'objects', objects: names.map((n) => ({ namespace: 'default', name: n })) });
const rq = (kind: string, scope: Scope, dueMs: number, from: string[] = [], resyncMs?: number): Requeue => ({
  body: { clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind, scope, dueAt: at(dueMs), ...(resyncMs !== undefined ? { resyncBy: at(resyncMs) } : {}) },
  from,
});

describe('requeueFor', () => {
  const run = (r: RunReport, scope: Scope = objs('web')) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', scope, report: r });

  it('carries cluster, reconciler, scope, due time, horizon and the records it came from', () => {
    expect(requeueFor(run(report({ requeueAfterMs: 30_000 })), { clusterId: 'example', now: T0, resyncBy: T0 + 60_000, from: ['m-1'] })).toEqual({
      body: { clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', scope: objs('web'), dueAt: at(30_000), resyncBy: at(60_000) },
      from: ['m-1'],
    });
  });

  it('nothing when nothing is asked; no horizon when no resync is scheduled', () => {
    expect(requeueFor(run(report()), { clusterId: 'example', now: T0 })).toBeUndefined();
    expect(requeueFor(run(report({ acted: false }), ALL), { clusterId: 'example', now: T0 })?.body).toEqual({
      clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', scope: ALL, dueAt: at(LEASE_RETRY_MS),
    });
  });
});

describe('coveredByResync', () => {
  it.each([
    ['due before the resync', 30_000, 60_000, false],
    ['due when the resync is', 60_000, 60_000, true],
    ['due after the resync', 20 * 60_000, 60_000, true],
    ['no resync scheduled', 20 * 60_000, undefined, false],
  ])('%s', (_name, due, resync, want) => {
    expect(coveredByResync(rq('CloneSet', ALL, due, [], resync).body)).toBe(want);
  });
});

describe('delaySecondsFor', () => {
  it.each([
    ['whole seconds', 10_000, 10],
    ['rounded up, never early', 1_500, 2],
    ['due now', 0, 0],
    ['overdue', -5_000, 0],
    ['exactly 15 minutes', 900_000, 900],
    ['beyond 15 minutes: capped (received early, sent again)', 20 * 60_000, 900],
  ])('%s', (_name, due, want) => {
    expect(delaySecondsFor(rq('CloneSet', ALL, due).body, T0)).toBe(want);
  });

  it('the message is the body as JSON with its delay', () => {
    const r = rq('CloneSet', objs('web'), 3_000);
    expect(toQueuedMessage(r, T0)).toEqual({ body: JSON.stringify(r.body), delaySeconds: 3 });
  });
});

describe('dedupeRequeues', () => {
  const shape = (rs: Requeue[]) => rs.map((r) => [r.body.kind, r.body.scope.kind === 'all' ? 'all' : r.body.scope.objects.map((o) => o.name), Date.parse(r.body.dueAt) - T0, r.from]);

  it.each<[string, Requeue[], unknown[]]>([
    ['a full resync covers object scopes due no earlier', [rq('CloneSet', objs('web'), 10_000, ['a']), rq('CloneSet', ALL, 5_000, ['b'])],
      [['CloneSet', 'all', 5_000, ['b', 'a']]]],
    ['an object scope due before the full resync stays', [rq('CloneSet', ALL, 30_000, ['a']), rq('CloneSet', objs('web'), 2_000, ['b'])],
      [['CloneSet', ['web'], 2_000, ['b']], ['CloneSet', 'all', 30_000, ['a']]]],
    ['the earlier of two full resyncs', [rq('CloneSet', ALL, 30_000, ['a']), rq('CloneSet', ALL, 2_000, ['b'])],
      [['CloneSet', 'all', 2_000, ['b', 'a']]]],
    ['the same object later: the earlier run asks again if it must', [rq('CloneSet', objs('web'), 2_000, ['a']), rq('CloneSet', objs('web'), 60_000, ['b'])],
      [['CloneSet', ['web'], 2_000, ['a', 'b']]]],
    ['object scopes due within a second merge', [rq('CloneSet', objs('web'), 2_000, ['a']), rq('CloneSet', objs('api', 'web'), 2_600, ['b'])],
      [['CloneSet', ['web', 'api'], 2_000, ['a', 'b']]]],
    ['object scopes further apart stay apart', [rq('CloneSet', objs('web'), 2_000, ['a']), rq('CloneSet', objs('api'), 10_000, ['b'])],
      [['CloneSet', ['web'], 2_000, ['a']], ['CloneSet', ['api'], 10_000, ['b']]]],
    ['other reconcilers are not touched', [rq('CloneSet', ALL, 2_000), rq('SidecarSet', objs('log'), 10_000)],
      [['CloneSet', 'all', 2_000, []], ['SidecarSet', ['log'], 10_000, []]]],
  ])('%s', (_name, input, want) => {
    expect(shape(dedupeRequeues(input))).toEqual(want);
  });

  it('a wait for a commit never merges: it is checked again when due, an ordinary wake-up just runs', () => {
    const waiting = rq('CloneSet', objs('web'), 1_000, ['w']);
    waiting.body.awaits = { admitted: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-0', operation: 'CREATE' }, until: at(15_000) };
    expect(shape(dedupeRequeues([rq('CloneSet', ALL, 500, ['a']), waiting, rq('CloneSet', objs('web'), 1_200, ['b'])]))).toEqual([
      ['CloneSet', 'all', 500, ['a', 'b']],
      ['CloneSet', ['web'], 1_000, ['w']],
    ]);
  });

  it('a merged wake-up keeps the later horizon, or none if either has none', () => {
    expect(dedupeRequeues([rq('CloneSet', ALL, 2_000, [], 60_000), rq('CloneSet', ALL, 5_000, [], 90_000)])[0]!.body.resyncBy).toBe(at(90_000));
    expect(dedupeRequeues([rq('CloneSet', ALL, 2_000, [], 60_000), rq('CloneSet', ALL, 5_000)])[0]!.body.resyncBy).toBeUndefined();
  });

  it('does not change its input', () => {
    const input = [rq('CloneSet', objs('web'), 2_000, ['a']), rq('CloneSet', objs('api'), 2_500, ['b'])];
    const copy = structuredClone(input);
    dedupeRequeues(input);
    expect(input).toEqual(copy);
  });
});

describe('parseRequeueBody', () => {
  const body: RequeueBody = { clusterId: 'example', apiVersion: 'v1', kind: 'K', scope: { kind: 'objects', objects: [{ name: 'rd' }, { namespace: 'ns', name: 'x' }] }, dueAt: at(0), resyncBy: at(60_000) };

  it('reads what requeueFor writes', () => {
    expect(parseRequeueBody(JSON.stringify(body))).toEqual({ ok: true, body });
    const { resyncBy: _r, ...noHorizon } = body;
    expect(parseRequeueBody(JSON.stringify({ ...noHorizon, scope: { kind: 'all' } }))).toEqual({ ok: true, body: { ...noHorizon, scope: { kind: 'all' } } });
  });

  it('reads a wait for a commit back, and refuses a malformed one', () => {
    const awaits = { admitted: { apiVersion: 'v1', kind: 'Pod', namespace: 'ns', name: 'x', operation: 'CREATE' as const }, until: at(15_000) };
    expect(parseRequeueBody(JSON.stringify({ ...body, awaits }))).toEqual({ ok: true, body: { ...body, awaits } });
    expect(parseRequeueBody(JSON.stringify({ ...body, awaits: { ...awaits, until: 'later' } }))).toEqual({ ok: false, error: 'body: awaits: until must be an ISO 8601 time' });
    expect(parseRequeueBody(JSON.stringify({ ...body, awaits: { until: at(0) } }))).toEqual({ ok: false, error: 'body: awaits: admitted: must be an object' });
  });

  it.each([
    ['not JSON', 'CloneSet/default/web', 'body: not JSON'],
    ['not an object', '[1]', 'body: must be an object'],
    ['fields missing', '{"scope":{"kind":"all"}}', 'body: clusterId must be a non-empty string, apiVersion must be a non-empty string, kind must be a non-empty string, dueAt must be an ISO 8601 time'],
    ['bad time', JSON.stringify({ ...body, dueAt: 'soon' }), 'body: dueAt must be an ISO 8601 time'],
    ['empty object scope', JSON.stringify({ ...body, scope: { kind: 'objects', objects: [] } }), 'body: scope must be'],
    ['object without a name', JSON.stringify({ ...body, scope: { kind: 'objects', objects: [{ namespace: 'ns' }] } }), 'body: scope must be'],
  ])('%s', (_name, text, error) => {
    const out = parseRequeueBody(text);
    expect(out.ok).toBe(false);
    expect(out.ok ? '' : out.error).toContain(error);
  });
});

describe('scheduled times (Plan.scheduledAfterMs)', () => {
  const report = (scheduledAfterMs?: number) => ({ reconciler: 'AdvancedCronJob', acted: true, dryRun: false, plan: { writes: [], status: [], events: [], ...(scheduledAfterMs !== undefined ? { scheduledAfterMs } : {}) }, applied: 0, conflicts: 0, failed: [], apiCalls: 1, durationMs: 1 });
  const run = (ms?: number) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'AdvancedCronJob', scope: { kind: 'all' } as const, report: report(ms) });
  const now = Date.parse('2026-03-07T12:00:00Z');

  it('is a message with no horizon, never covered by a resync, parsed back as scheduled', () => {
    const r = scheduledRequeueFor(run(3_600_000), { clusterId: 'c', now, passOn: true })!;
    expect(r.body).toEqual({ clusterId: 'c', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'AdvancedCronJob', scope: { kind: 'all' }, dueAt: '2026-03-07T13:00:00.000Z', scheduled: true });
    expect(coveredByResync({ ...r.body, resyncBy: '2026-03-07T12:01:00.000Z' })).toBe(false);
    expect(parseRequeueBody(JSON.stringify(r.body))).toEqual({ ok: true, body: r.body });
  });

  it('is not sent when the run may not pass it on, nor when the plan names none', () => {
    expect(scheduledRequeueFor(run(60_000), { clusterId: 'c', now, passOn: false })).toBeUndefined();
    expect(scheduledRequeueFor(run(), { clusterId: 'c', now, passOn: true })).toBeUndefined();
  });

  it('never merges with a retry of the same scope: each keeps its own time', () => {
    const retry = requeueFor({ ...run(), report: { ...report(), plan: { writes: [], status: [], events: [], requeueAfterMs: 10_000 } } }, { clusterId: 'c', now, resyncBy: now + 60_000 })!;
    const sched = scheduledRequeueFor(run(60_000), { clusterId: 'c', now, passOn: true })!;
    expect(dedupeRequeues([retry, sched]).map((r) => [r.body.dueAt, r.body.scheduled])).toEqual([
      ['2026-03-07T12:00:10.000Z', undefined],
      ['2026-03-07T12:01:00.000Z', true],
    ]);
  });
});
