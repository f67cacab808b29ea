import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lambdaResult, makeReconcileHandler, type ReconcileDeps } from './reconcile-handler.js';
import type { QueuedMessage, RequeueBody, RequeueQueue } from './requeue.js';
import { startFakeSqs, type FakeSqs } from './sqs-fake.js';
import { sqsRequeueQueue } from './sqs-fetch.js';
import { emptyPlan, type Plan, type Reconciler, type RunReport, type Scope } from '../reconcile/types.js';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'lambda', name), 'utf8')) as Record<string, unknown>;
const scheduled = fixture('scheduled-event.json');
const changed = fixture('object-changed-event.json');
const withDetail = (detail: unknown) => ({ ...changed, detail });

const reconciler = (apiVersion: string, kind: string, triggers?: Reconciler['triggers']): Reconciler => ({
  apiVersion, kind, ...(triggers ? { triggers } : {}),
  observe: async () => undefined,
  decide: () => emptyPlan(),
});
const cloneSet = reconciler('apps.kruise.io/v1alpha1', 'CloneSet');
const sidecarSet = reconciler('apps.kruise.io/v1alpha1', 'SidecarSet');
const resourceDistribution = reconciler('apps.kruise.io/v1alpha1', 'ResourceDistribution', [{ apiVersion: 'v1', kind: 'Namespace' }]);
const broadcastJob = reconciler('apps.kruise.io/v1alpha1', 'BroadcastJob');
const cronJob = reconciler('apps.kruise.io/v1alpha1', 'AdvancedCronJob', [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'BroadcastJob', objectsOf: () => [{ namespace: 'default', name: 'cron' }] }]);
const all = [cloneSet, sidecarSet, resourceDistribution];

function fakeRun(fail?: (r: Reconciler) => Error | undefined) {
  const calls: { kind: string; scope: Scope }[] = [];
  const run = async (r: Reconciler, scope: Scope): Promise<RunReport> => {
    calls.push({ kind: r.kind, scope });
    const err = fail?.(r);
    if (err) throw err;
    return { reconciler: r.kind, acted: true, dryRun: false, plan: emptyPlan(), applied: 2, conflicts: 1, failed: [], apiCalls: 5, durationMs: 7 };
  };
  return { run, calls };
}

describe('makeReconcileHandler', () => {
  it('a Scheduled Event runs every reconciler over everything', async () => {
    const { run, calls } = fakeRun();
    const lines: string[] = [];
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example', log: (l) => lines.push(l) })(scheduled);
    expect(calls).toEqual(all.map((r) => ({ kind: r.kind, scope: { kind: 'all' } })));
    expect(summary).toEqual({
      ok: true,
      trigger: 'schedule',
      eventId: 'd3b1f0a2-6c4e-4b7a-9e55-1f2c3a4b5c6d',
      runs: all.map((r) => ({ reconciler: r.kind, apiVersion: r.apiVersion, scope: 'all', acted: true, applied: 2, conflicts: 1, failed: 0, apiCalls: 5, durationMs: 7 })),
    });
    expect(JSON.parse(lines[0]!)).toEqual(summary);
  });

  it('an ObjectChanged event runs only that kind, for that object', async () => {
    const { run, calls } = fakeRun();
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example' })(changed);
    expect(calls).toEqual([{ kind: 'CloneSet', scope: { kind: 'objects', objects: [{ namespace: 'default', name: 'web' }] } }]);
    expect(summary).toMatchObject({ ok: true, trigger: 'object-changed', runs: [{ reconciler: 'CloneSet', scope: ['default/web'], applied: 2, conflicts: 1, apiCalls: 5 }] });
  });

  it.each([
    ['cluster-scoped object', { clusterId: 'example', kind: 'ResourceDistribution', apiVersion: 'apps.kruise.io/v1alpha1', name: 'rd', reason: 'created' },
      [{ kind: 'ResourceDistribution', scope: { kind: 'objects', objects: [{ name: 'rd' }] } }]],
    ['a trigger kind runs its reconciler in full', { clusterId: 'example', kind: 'Namespace', apiVersion: 'v1', name: 'team-a', reason: 'created' },
      [{ kind: 'ResourceDistribution', scope: { kind: 'all' } }]],
    ['same kind, other apiVersion: nothing', { clusterId: 'example', kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1beta1', namespace: 'default', name: 'web', reason: 'updated' }, []],
    ['a kind nobody reconciles: nothing', { clusterId: 'example', kind: 'ConfigMap', apiVersion: 'v1', namespace: 'default', name: 'cm', reason: 'deleted' }, []],
  ])('%s', async (_name, detail, want) => {
    const { run, calls } = fakeRun();
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example' })(withDetail(detail));
    expect(calls).toEqual(want);
    expect(summary.ok).toBe(true);
    expect(summary.message).toBe(want.length ? undefined : `no reconciler for ${detail.apiVersion} ${detail.kind}`);
  });

  it('a trigger that maps changes to its objects (objectsOf) runs nothing in full: the edge publishes an event for those objects', async () => {
    const { run, calls } = fakeRun();
    await makeReconcileHandler({ reconcilers: [...all, broadcastJob, cronJob], run, clusterId: 'example' })(
      withDetail({ clusterId: 'example', kind: 'BroadcastJob', apiVersion: 'apps.kruise.io/v1alpha1', namespace: 'default', name: 'bj', reason: 'updated' }),
    );
    expect(calls).toEqual([{ kind: 'BroadcastJob', scope: { kind: 'objects', objects: [{ namespace: 'default', name: 'bj' }] } }]);
  });

  it('ignores events for another cluster', async () => {
    const { run, calls } = fakeRun();
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'prod' })(changed);
    expect(calls).toEqual([]);
    expect(summary).toEqual({ ok: true, trigger: 'ignored', eventId: '7f9e2c41-0b5d-4e8a-a3c6-2d4f6e8a0b1c', message: 'event for cluster "example"; this function serves "prod"', runs: [] });
  });

  it.each([
    ['not an object', 'hello', 'event: expected an EventBridge event object'],
    ['null', null, 'event: expected an EventBridge event object'],
    ['no source', { 'detail-type': 'ObjectChanged', detail: {} }, 'event: "source" and "detail-type" must be strings (is this an EventBridge event?)'],
    ['detail missing fields', withDetail({ kind: 'CloneSet', name: 'web' }),
      'ObjectChanged event 7f9e2c41-0b5d-4e8a-a3c6-2d4f6e8a0b1c: detail: clusterId must be a non-empty string, apiVersion must be a non-empty string, reason must be a non-empty string'],
    ['detail not an object', withDetail('CloneSet/default/web'), 'ObjectChanged event 7f9e2c41-0b5d-4e8a-a3c6-2d4f6e8a0b1c: detail: must be an object'],
  ])('malformed (%s): an error in the result, no run', async (_name, event, message) => {
    const { run, calls } = fakeRun();
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example' })(event);
    expect(calls).toEqual([]);
    expect(summary).toMatchObject({ ok: false, trigger: 'invalid', message, runs: [] });
  });

  it('ignores other EventBridge events', async () => {
    const { run, calls } = fakeRun();
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example' })({ ...scheduled, source: 'aws.ec2', 'detail-type': 'EC2 Instance State-change Notification' });
    expect(calls).toEqual([]);
    expect(summary).toMatchObject({ ok: true, trigger: 'ignored', message: 'unhandled event: source "aws.ec2", detail-type "EC2 Instance State-change Notification"' });
  });

  it('a run that throws is reported and the others still run', async () => {
    const { run, calls } = fakeRun((r) => (r.kind === 'SidecarSet' ? new Error('SidecarSet: observe failed: 503') : undefined));
    const summary = await makeReconcileHandler({ reconcilers: all, run, clusterId: 'example' })(scheduled);
    expect(calls.map((c) => c.kind)).toEqual(['CloneSet', 'SidecarSet', 'ResourceDistribution']);
    expect(summary.ok).toBe(false);
    expect(summary.runs[1]).toMatchObject({ reconciler: 'SidecarSet', acted: false, error: 'SidecarSet: observe failed: 503' });
    expect(summary.runs[2]).toMatchObject({ reconciler: 'ResourceDistribution', acted: true });
  });

  it('failed writes make the summary not ok', async () => {
    const run = async (r: Reconciler): Promise<RunReport> => ({
      reconciler: r.kind, acted: true, dryRun: false, plan: emptyPlan(), applied: 0, conflicts: 0, failed: [{ write: 'patch CloneSet default/web', error: '422' }], apiCalls: 3, durationMs: 1,
    });
    const summary = await makeReconcileHandler({ reconcilers: [cloneSet], run, clusterId: 'example' })(scheduled);
    expect(summary).toMatchObject({ ok: false, runs: [{ failed: 1 }] });
  });
});

// ---- wake-ups, SQS batches and edge pushes -------------------------------------------------------

const T0 = Date.parse('2026-11-22T14:25:10.300Z');
const at = (ms: number, from = T0) => new Date(from + ms).toISOString();
const sqsBatch = fixture('sqs-requeue-event.json') as { Records: { messageId: string; body: string }[] };
const [webId, sidecarId] = sqsBatch.Records.map((r) => r.messageId) as [string, string];
const sqsRecord = (messageId: string, body: Partial<RequeueBody>) => ({ ...sqsBatch.Records[0]!, messageId, body: JSON.stringify(body) });
const bodyOf = (m: QueuedMessage) => JSON.parse(m.body) as RequeueBody;
const ALL: Scope = { kind: 'all' };
const WEB: Scope = { kind: 'objects', objects: [{ namespace: 'default', name: 'web' }] };

/** How a fake run of a kind goes: what its plan asks, whether it held the lease, what it wrote. */
type Script = { requeueAfterMs?: number; scheduledAfterMs?: number; acted?: boolean; writes?: number; events?: number; throws?: string };

function scripted(script: Record<string, Script>) {
  const calls: { kind: string; scope: Scope }[] = [];
  const run = async (r: Reconciler, scope: Scope): Promise<RunReport> => {
    calls.push({ kind: r.kind, scope });
    const s = script[r.kind] ?? {};
    if (s.throws) throw new Error(s.throws);
    const target = { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-0' };
    const plan: Plan = {
      ...emptyPlan(),
      writes: Array.from({ length: s.writes ?? 0 }, () => ({ op: 'patch' as const, target, patch: {}, patchType: 'merge' as const, reason: 'test' })),
      events: Array.from({ length: s.events ?? 0 }, () => ({ regarding: target, type: 'Normal' as const, reason: 'Test', message: 'test' })),
      ...(s.requeueAfterMs !== undefined ? { requeueAfterMs: s.requeueAfterMs } : {}),
      ...(s.scheduledAfterMs !== undefined ? { scheduledAfterMs: s.scheduledAfterMs } : {}),
    };
    const acted = s.acted ?? true;
    return { reconciler: r.kind, acted, dryRun: false, plan, applied: acted ? (s.writes ?? 0) + (s.events ?? 0) : 0, conflicts: 0, failed: [], apiCalls: 1, durationMs: 1 };
  };
  return { run, calls };
}

class RecordingQueue implements RequeueQueue {
  readonly calls: QueuedMessage[][] = [];
  constructor(private readonly refuse: (m: QueuedMessage) => string | undefined = () => undefined) {}
  async send(messages: readonly QueuedMessage[]) {
    this.calls.push([...messages]);
    return messages.flatMap((m, index) => {
      const error = this.refuse(m);
      return error ? [{ index, error }] : [];
    });
  }
  get sent() {
    return this.calls.flat();
  }
}

const handlerWith = (script: Record<string, Script>, over: Partial<ReconcileDeps> = {}) => {
  const { run, calls } = scripted(script);
  const handler = makeReconcileHandler({ reconcilers: all, clusterId: 'example', run, now: () => T0, resyncEveryMs: 60_000, ...over });
  return { handler, calls };
};

describe('wake-ups after EventBridge-triggered runs', () => {
  it('a plan asking for a wake-up sends one message, due then, with the next scheduled resync as horizon', async () => {
    const queue = new RecordingQueue();
    const summary = await handlerWith({ SidecarSet: { requeueAfterMs: 10_000 } }, { queue }).handler(scheduled);
    expect(queue.calls).toHaveLength(1);
    expect(queue.sent.map((m) => [bodyOf(m), m.delaySeconds])).toEqual([
      [{ clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', scope: ALL, dueAt: at(10_000), resyncBy: at(60_000) }, 10],
    ]);
    expect(summary).toMatchObject({ ok: true, requeues: [{ reconciler: 'SidecarSet', scope: 'all', dueAt: at(10_000), delaySeconds: 10, status: 'sent' }] });
  });

  it('another invocation held the lease: the same scope again in 2 s', async () => {
    const queue = new RecordingQueue();
    await handlerWith({ CloneSet: { acted: false } }, { queue }).handler(changed);
    expect(queue.sent.map((m) => [bodyOf(m).kind, bodyOf(m).scope, m.delaySeconds])).toEqual([['CloneSet', WEB, 2]]);
  });

  it('a wake-up due after the next scheduled resync is not sent: the resync covers it', async () => {
    const queue = new RecordingQueue();
    const summary = await handlerWith({ CloneSet: { requeueAfterMs: 5 * 60_000 } }, { queue }).handler(scheduled);
    expect(queue.calls).toEqual([]);
    expect(summary).toMatchObject({ ok: true, requeues: [{ reconciler: 'CloneSet', status: 'covered by resync', delaySeconds: 300 }] });
  });

  it('with no scheduled resync, a 20-minute wait is sent with the 15-minute cap and no horizon', async () => {
    const queue = new RecordingQueue();
    await handlerWith({ CloneSet: { requeueAfterMs: 20 * 60_000 } }, { queue, resyncEveryMs: 0 }).handler(scheduled);
    expect(queue.sent.map((m) => [bodyOf(m).dueAt, bodyOf(m).resyncBy, m.delaySeconds])).toEqual([[at(20 * 60_000), undefined, 900]]);
  });

  it('a scheduled time (a CronJob’s next run) is sent however far past the next resync, with no horizon, beside a retry', async () => {
    const queue = new RecordingQueue();
    await handlerWith({ CloneSet: { scheduledAfterMs: 20 * 60_000, requeueAfterMs: 10_000 } }, { queue }).handler(scheduled);
    expect(queue.sent.map((m) => [bodyOf(m).dueAt, bodyOf(m).resyncBy, bodyOf(m).scheduled, m.delaySeconds])).toEqual([
      [at(10_000), at(60_000), undefined, 10],
      [at(20 * 60_000), undefined, true, 900],
    ]);
  });

  it('without a queue, wake-ups are reported as not scheduled and the run is otherwise unchanged', async () => {
    const summary = await handlerWith({ CloneSet: { requeueAfterMs: 10_000 } }).handler(scheduled);
    expect(summary.ok).toBe(true);
    expect(summary.runs).toHaveLength(3);
    expect(summary.requeues).toEqual([
      { reconciler: 'CloneSet', scope: 'all', dueAt: at(10_000), delaySeconds: 10, status: 'not scheduled', error: 'no requeue queue (KS_REQUEUE_QUEUE_URL) configured' },
    ]);
  });

  it('a wake-up SQS refused makes the summary not ok', async () => {
    const queue = new RecordingQueue(() => 'KmsThrottled: slow down');
    const summary = await handlerWith({ CloneSet: { requeueAfterMs: 10_000 } }, { queue }).handler(changed);
    expect(summary).toMatchObject({ ok: false, requeues: [{ status: 'failed', error: 'KmsThrottled: slow down' }] });
  });

  it('a run that threw asks for nothing (the schedule retries it)', async () => {
    const queue = new RecordingQueue();
    const summary = await handlerWith({ CloneSet: { throws: 'observe failed: 503' } }, { queue }).handler(changed);
    expect(queue.calls).toEqual([]);
    expect(summary.ok).toBe(false);
  });
});

describe('SQS batches of wake-ups', () => {
  it('routes each record to its reconciler and scope; all delivered: no failures, and Lambda gets only batchItemFailures', async () => {
    const lines: string[] = [];
    const { handler, calls } = handlerWith({}, { log: (l) => lines.push(l) });
    const summary = await handler(sqsBatch);
    expect(calls).toEqual([{ kind: 'CloneSet', scope: WEB }, { kind: 'SidecarSet', scope: ALL }]);
    expect(summary).toMatchObject({ ok: true, trigger: 'requeue', batchItemFailures: [], runs: [{ reconciler: 'CloneSet', scope: ['default/web'] }, { reconciler: 'SidecarSet', scope: 'all' }] });
    expect(lambdaResult(summary)).toEqual({ batchItemFailures: [] });
    expect(JSON.parse(lines[0]!)).toEqual(summary);
  });

  it('only the records whose run threw, or that are malformed, are reported failed', async () => {
    const { handler, calls } = handlerWith({ SidecarSet: { throws: 'SidecarSet: observe failed: 503' } });
    const summary = await handler({ Records: [...sqsBatch.Records, { ...sqsBatch.Records[0]!, messageId: 'bad', body: '{"kind":"CloneSet"}' }] });
    expect(calls.map((c) => c.kind)).toEqual(['CloneSet', 'SidecarSet']);
    expect(summary.batchItemFailures).toEqual([{ itemIdentifier: 'bad' }, { itemIdentifier: sidecarId }]);
    expect(summary.ok).toBe(false);
    expect(summary.message).toContain('bad: body: clusterId must be a non-empty string');
  });

  it('records for one reconciler make one run: the full scope supersedes the object scope', async () => {
    const due = { clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', dueAt: at(0), resyncBy: at(50_000) };
    const { handler, calls } = handlerWith({});
    const summary = await handler({ Records: [sqsRecord('a', { ...due, scope: WEB }), sqsRecord('b', { ...due, scope: ALL })] });
    expect(calls).toEqual([{ kind: 'CloneSet', scope: ALL }]);
    expect(summary.batchItemFailures).toEqual([]);
  });

  it('a record not yet due (a wait beyond 15 minutes) is sent again with what remains, not run', async () => {
    const queue = new RecordingQueue();
    const body = { clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', scope: WEB, dueAt: at(20 * 60_000 - 15 * 60_000) };
    const { handler, calls } = handlerWith({}, { queue, resyncEveryMs: 0 });
    const summary = await handler({ Records: [sqsRecord('early', body)] });
    expect(calls).toEqual([]);
    expect(queue.sent.map((m) => [bodyOf(m), m.delaySeconds])).toEqual([[body, 300]]);
    expect(summary).toMatchObject({ ok: true, batchItemFailures: [] });
  });

  it('a scheduled time is passed on by a wake-up run that wrote, not by one that found nothing to do (duplicates end there)', async () => {
    const body = { clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', scope: WEB, dueAt: at(0), scheduled: true };
    const wrote = new RecordingQueue();
    await handlerWith({ CloneSet: { scheduledAfterMs: 60_000, writes: 1 } }, { queue: wrote }).handler({ Records: [sqsRecord('due', body)] });
    expect(wrote.sent.map((m) => [bodyOf(m).dueAt, bodyOf(m).scheduled, bodyOf(m).resyncBy])).toEqual([[at(60_000), true, undefined]]);
    const idle = new RecordingQueue();
    await handlerWith({ CloneSet: { scheduledAfterMs: 60_000 } }, { queue: idle }).handler({ Records: [sqsRecord('dup', body)] });
    expect(idle.sent).toEqual([]);
    // An Event alone (a duplicate repeats a Forbid skip's JobAlreadyActive) is not a write.
    const told = new RecordingQueue();
    await handlerWith({ CloneSet: { scheduledAfterMs: 60_000, events: 1 } }, { queue: told }).handler({ Records: [sqsRecord('dup', body)] });
    expect(told.sent).toEqual([]);
  });

  it('a scheduled time whose run lost the lease is tried again, whatever the resync horizon', async () => {
    const queue = new RecordingQueue();
    const body = { clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', scope: WEB, dueAt: at(0), scheduled: true };
    await handlerWith({ CloneSet: { acted: false } }, { queue }).handler({ Records: [sqsRecord('held', body)] });
    expect(queue.sent.map((m) => [bodyOf(m).scope, bodyOf(m).resyncBy, m.delaySeconds])).toEqual([[WEB, undefined, 2]]);
  });

  it('a record whose scheduled resync has run is acknowledged without running', async () => {
    const { handler, calls } = handlerWith({});
    const summary = await handler({ Records: [sqsRecord('stale', { clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', scope: ALL, dueAt: at(-70_000), resyncBy: at(-10_000) })] });
    expect(calls).toEqual([]);
    expect(summary).toMatchObject({ ok: true, batchItemFailures: [], skipped: [`stale: the scheduled resync due by ${at(-10_000)} covers it`] });
  });

  it('a run asking again continues the chain with the records’ horizon; if that wake-up cannot be sent, its records fail', async () => {
    const queue = new RecordingQueue((m) => (bodyOf(m).kind === 'SidecarSet' ? 'InternalError: try again' : undefined));
    const summary = await handlerWith({ CloneSet: { requeueAfterMs: 10_000 }, SidecarSet: { acted: false } }, { queue }).handler(sqsBatch);
    expect(queue.sent.map((m) => [bodyOf(m).kind, bodyOf(m).scope, bodyOf(m).resyncBy, m.delaySeconds])).toEqual([
      ['SidecarSet', ALL, '2026-11-22T14:26:00.000Z', 2],
      ['CloneSet', WEB, '2026-11-22T14:26:00.000Z', 10],
    ]);
    expect(summary.batchItemFailures).toEqual([{ itemIdentifier: sidecarId }]);
    expect(summary.batchItemFailures).not.toContainEqual({ itemIdentifier: webId });
  });
});

describe('an event that arrives before its write commits', () => {
  // The webhook published as it answered; another webhook still holds the write, so the object is not there yet.
  const created = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', namespace: 'default', name: 'web', operation: 'CREATE' as const };
  const event = withDetail({ clusterId: 'example', kind: 'CloneSet', apiVersion: 'apps.kruise.io/v1alpha1', namespace: 'default', name: 'web', reason: 'created', admitted: created });
  const reads = (versions: (string | undefined | Error)[]) => {
    const seen: string[] = [];
    const readVersion = async (ref: { name: string }) => {
      seen.push(ref.name);
      const v = versions.length > 1 ? versions.shift() : versions[0];
      if (v instanceof Error) throw v;
      return v === undefined ? undefined : { resourceVersion: v };
    };
    return { readVersion, seen };
  };

  it('runs nothing yet: its runs wait in the queue a second, carrying the write to check', async () => {
    const queue = new RecordingQueue();
    const { handler, calls } = handlerWith({}, { queue, ...reads([undefined]) });
    const summary = await handler(event);
    expect(calls).toEqual([]);
    expect(summary).toMatchObject({ ok: true, trigger: 'object-changed', runs: [], message: 'CloneSet default/web create not committed yet: the runs wait for it' });
    expect(queue.sent.map(bodyOf)).toEqual([{ clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', scope: WEB, dueAt: at(1_000), resyncBy: at(60_000), awaits: { admitted: created, until: at(15_000) } }]);
  });

  it('runs at once when the write is visible, or when it cannot tell (a failed read never holds a run back), or when there is no queue to wait in', async () => {
    for (const v of ['7', new Error('503')]) {
      const { handler, calls } = handlerWith({}, { queue: new RecordingQueue(), ...reads([v]) });
      await handler(event);
      expect(calls).toEqual([{ kind: 'CloneSet', scope: WEB }]);
    }
    const { handler, calls } = handlerWith({}, reads([undefined]));
    await handler(event);
    expect(calls).toEqual([{ kind: 'CloneSet', scope: WEB }]);
  });

  it('a waiting wake-up: sent again while the write is not visible, run once it is or once the wait is over', async () => {
    const waiting = { clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', scope: WEB, dueAt: at(0), resyncBy: at(60_000), awaits: { admitted: created, until: at(10_000) } };
    const queue = new RecordingQueue();
    const still = handlerWith({}, { queue, ...reads([undefined]) });
    const summary = await still.handler({ Records: [sqsRecord('w', waiting), sqsRecord('plain', { ...waiting, scope: ALL, awaits: undefined })] });
    expect(still.calls).toEqual([{ kind: 'CloneSet', scope: ALL }]);
    expect(summary.skipped).toEqual(['w: CloneSet default/web create not committed yet: waits again']);
    expect(summary.batchItemFailures).toEqual([]);
    expect(queue.sent.map(bodyOf)).toEqual([{ ...waiting, dueAt: at(1_000) }]);

    const visible = handlerWith({}, { queue: new RecordingQueue(), ...reads(['7']) });
    await visible.handler({ Records: [sqsRecord('w', waiting)] });
    expect(visible.calls).toEqual([{ kind: 'CloneSet', scope: WEB }]);

    const over = handlerWith({}, { queue: new RecordingQueue(), ...reads([undefined]), now: () => T0 + 10_000 });
    await over.handler({ Records: [sqsRecord('w', { ...waiting, dueAt: at(10_000) })] });
    expect(over.calls).toEqual([{ kind: 'CloneSet', scope: WEB }]);
  });

  it('a waiting wake-up the queue refuses is reported failed, so SQS delivers it again', async () => {
    const waiting = { clusterId: 'example', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', scope: WEB, dueAt: at(0), awaits: { admitted: created, until: at(10_000) } };
    const { handler } = handlerWith({}, { queue: new RecordingQueue(() => 'throttled'), ...reads([undefined]) });
    const summary = await handler({ Records: [sqsRecord('w', waiting)] });
    expect(summary.batchItemFailures).toEqual([{ itemIdentifier: 'w' }]);
    expect(summary.ok).toBe(false);
  });
});

describe('edge pushes', () => {
  const pusher = (fail?: string) => {
    const pushes: number[] = [];
    return { pushes, pushEdge: async () => { pushes.push(1); if (fail) throw new Error(fail); return ['namespaces: patch 0/3']; } };
  };

  it.each<[string, unknown, Record<string, Script>, boolean]>([
    ['after every scheduled resync, writes or not', scheduled, {}, true],
    ['after an ObjectChanged run that wrote', changed, { CloneSet: { writes: 2 } }, true],
    ['not after an ObjectChanged run that wrote nothing', changed, {}, false],
    ['not after a run that only recorded Events', changed, { CloneSet: { events: 1 } }, false],
    ['not after a run that did not act', changed, { CloneSet: { writes: 1, acted: false } }, false],
    ['after an SQS-triggered run that wrote', sqsBatch, { SidecarSet: { writes: 1 } }, true],
    ['not after an SQS batch that wrote nothing', sqsBatch, {}, false],
  ])('%s', async (_name, event, script, want) => {
    const { pushes, pushEdge } = pusher();
    const summary = await handlerWith(script, { pushEdge }).handler(event);
    expect(pushes.length).toBe(want ? 1 : 0);
    expect(summary.pushed).toEqual(want ? ['namespaces: patch 0/3'] : undefined);
  });

  it('a failed push is reported and makes the summary not ok, without failing SQS records', async () => {
    const { pushEdge } = pusher('edge refused namespaces: 401');
    const summary = await handlerWith({ CloneSet: { writes: 1 } }, { pushEdge }).handler(sqsBatch);
    expect(summary).toMatchObject({ ok: false, message: 'edge push failed: edge refused namespaces: 401', batchItemFailures: [] });
  });
});

describe('the wake-up loop through the real SQS client', () => {
  const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret', sessionToken: 'token' };
  let sqs: FakeSqs;
  beforeAll(async () => {
    sqs = await startFakeSqs({ region: 'us-east-1', credentials });
  });
  afterAll(() => sqs.close());
  beforeEach(() => {
    sqs.requests.length = 0;
    sqs.messages.length = 0;
  });

  it('schedule → signed SendMessageBatch → SQS records → runs, until the next scheduled resync ends the chain', async () => {
    const queue = sqsRequeueQueue({ queueUrl: sqs.queueUrl, region: 'us-east-1', credentials: async () => credentials });
    let now = T0;
    const { run, calls } = scripted({ SidecarSet: { requeueAfterMs: 25_000 }, CloneSet: { acted: false } });
    const handler = makeReconcileHandler({ reconcilers: all, clusterId: 'example', run, now: () => now, resyncEveryMs: 60_000, queue });

    await handler(scheduled);
    expect(sqs.requests.map((r) => r.signatureValid)).toEqual([true]);
    expect(sqs.messages.map((m) => [bodyOf(m).kind, m.delaySeconds])).toEqual([['CloneSet', 2], ['SidecarSet', 25]]);

    // Deliver each batch when its latest message is due, as SQS would (earlier ones wait with it).
    const hops: [number, string[]][] = [];
    for (let hop = 0; hop < 20 && sqs.messages.length; hop++) {
      now += Math.max(...sqs.messages.map((m) => m.delaySeconds)) * 1000;
      calls.length = 0;
      const summary = await handler({ Records: sqs.drain() });
      expect(summary.batchItemFailures).toEqual([]);
      hops.push([(now - T0) / 1000, calls.map((c) => c.kind)]);
    }
    // CloneSet keeps losing the lease and retries every 2 s; SidecarSet asks again 25 s on. A wake-up
    // that would fall at or after the resync due at +60 s is not sent, so the chain ends there.
    expect(hops).toEqual([[25, ['CloneSet', 'SidecarSet']], [50, ['CloneSet', 'SidecarSet']], [52, ['CloneSet']], [54, ['CloneSet']], [56, ['CloneSet']], [58, ['CloneSet']]]);
    expect(sqs.requests.every((r) => r.signatureValid)).toBe(true);
    expect(sqs.messages).toEqual([]);
  });
});
