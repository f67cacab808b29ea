import { describe, expect, it } from 'vitest';
import type { Plan, Write } from '../../reconcile/types.js';
import type { AdvancedCronJobLike, Child, ChildKind } from '../types.js';
import { CREATE_RETRY_MS, decideAdvancedCronJobs } from './decide.js';

const NS = 'ns';
function acj(spec: Partial<AdvancedCronJobLike['spec']> = {}, status: AdvancedCronJobLike['status'] = {}, name = 'acj-test'): AdvancedCronJobLike {
  return {
    metadata: { name, namespace: NS, uid: `uid-${name}`, resourceVersion: '7', creationTimestamp: '2026-03-07T12:00:10Z' },
    spec: { schedule: '*/1 * * * *', timeZone: 'UTC', template: { broadcastJobTemplate: { spec: { template: { spec: { containers: [] } } } } }, ...spec },
    status,
  };
}
const JOB_TEMPLATE = { jobTemplate: { metadata: { labels: { app: 'x' }, annotations: { a: 'b' } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } };

function child(name: string, finished?: 'Complete' | 'Failed', startTime?: string, extra: Partial<Child['metadata']> = {}): Child {
  return {
    metadata: { name, namespace: NS, uid: `uid-${name}`, ...extra },
    status: { ...(startTime ? { startTime } : {}), ...(finished ? { conditions: [{ type: finished, status: 'True' }] } : {}) },
  };
}
function decide(a: AdvancedCronJobLike, now: string, children: Child[] = [], kind: ChildKind = a.spec.template?.jobTemplate ? 'Job' : 'BroadcastJob'): Plan {
  return decideAdvancedCronJobs({ cronJobs: [a], children: new Map([[a.metadata.uid!, children.map((c) => ({ kind, child: c }))]]) }, new Date(now));
}
const creates = (p: Plan) => p.writes.filter((w): w is Extract<Write, { op: 'create' }> => w.op === 'create').map((w) => w.object.metadata?.name);
const deletes = (p: Plan) => p.writes.filter((w): w is Extract<Write, { op: 'delete' }> => w.op === 'delete').map((w) => w.target.name);
const reasons = (p: Plan) => [...p.events.map((e) => e.reason), ...p.writes.flatMap((w) => (w.event ? [w.event.reason] : []))];

describe('scheduling', () => {
  it('seed 002: a BroadcastJob named <acj>-<unix seconds>, annotated, owned; lastScheduleTime recorded after the create', () => {
    const p = decide(acj(), '2026-03-07T12:01:00.050Z');
    expect(creates(p)).toEqual(['acj-test-1772884860']);
    const obj = (p.writes[0] as Extract<Write, { op: 'create' }>).object;
    expect(obj).toMatchObject({
      apiVersion: 'apps.kruise.io/v1alpha1',
      kind: 'BroadcastJob',
      metadata: { namespace: NS, annotations: { 'apps.kruise.io/scheduled-at': '2026-03-07T12:01:00Z' }, ownerReferences: [{ kind: 'AdvancedCronJob', name: 'acj-test', uid: 'uid-acj-test', controller: true, blockOwnerDeletion: true }] },
    });
    expect(p.status).toEqual([expect.objectContaining({ afterWrites: true, status: expect.objectContaining({ type: 'BroadcastJob', lastScheduleTime: '2026-03-07T12:01:00Z' }) })]);
    expect(reasons(p)).toEqual(['SuccessfulCreate']);
    expect(p.requeueAfterMs).toBe(CREATE_RETRY_MS);
    expect(p.scheduledAfterMs).toBe(59_950);
  });

  it('a jobTemplate makes a batch/v1 Job with the template labels and annotations', () => {
    const p = decide(acj({ template: JOB_TEMPLATE }), '2026-03-07T12:01:00.050Z');
    const obj = (p.writes[0] as Extract<Write, { op: 'create' }>).object;
    expect(obj).toMatchObject({ apiVersion: 'batch/v1', kind: 'Job', metadata: { labels: { app: 'x' }, annotations: { a: 'b', 'apps.kruise.io/scheduled-at': '2026-03-07T12:01:00Z' } } });
    expect(p.status[0]?.status).toMatchObject({ type: 'Job' });
  });

  it('between runs: nothing written, a wake-up at the next minute', () => {
    const p = decide(acj({}, { type: 'BroadcastJob', lastScheduleTime: '2026-03-07T12:01:00Z' }), '2026-03-07T12:01:20Z');
    expect(p.writes).toEqual([]);
    expect(p.status).toEqual([]);
    expect(p.scheduledAfterMs).toBe(40_000);
    expect(p.requeueAfterMs).toBeUndefined();
  });

  it('a child deleted after it finished (TTL) is not created again: lastScheduleTime is stored, not recomputed', () => {
    const p = decide(acj({}, { type: 'BroadcastJob', lastScheduleTime: '2026-03-07T12:01:00Z' }), '2026-03-07T12:01:45Z', []);
    expect(creates(p)).toEqual([]);
    expect(p.scheduledAfterMs).toBe(15_000);
  });

  it('the child exists but lastScheduleTime was not recorded (a killed run): recorded, not created twice', () => {
    const p = decide(acj({}, { type: 'BroadcastJob' }), '2026-03-07T12:01:02Z', [child('acj-test-1772884860')]);
    expect(creates(p)).toEqual([]);
    expect(p.status[0]?.status).toMatchObject({ lastScheduleTime: '2026-03-07T12:01:00Z', active: [expect.objectContaining({ name: 'acj-test-1772884860' })] });
  });

  it('downtime: only the latest missed run', () => {
    const p = decide(acj({}, { lastScheduleTime: '2026-03-07T12:01:00Z' }), '2026-03-07T12:07:30Z');
    expect(creates(p)).toEqual(['acj-test-1772885220']);
  });

  it('more than 100 missed runs: TooManyMissedTimes, and the latest runs', () => {
    const p = decide(acj({}, { lastScheduleTime: '2026-03-01T00:00:00Z' }), '2026-03-07T12:07:30Z');
    expect(reasons(p)).toEqual(['TooManyMissedTimes', 'SuccessfulCreate']);
    expect(creates(p)).toEqual(['acj-test-1772885220']);
  });

  it('startingDeadlineSeconds: a run missed by more is skipped', () => {
    const p = decide(acj({ startingDeadlineSeconds: 10 }, { lastScheduleTime: '2026-03-07T12:01:00Z' }), '2026-03-07T12:02:30Z');
    expect(creates(p)).toEqual([]);
    expect(p.scheduledAfterMs).toBe(30_000);
  });

  it('time zone: 09:00 in Shanghai', () => {
    const a = acj({ schedule: '0 9 * * *', timeZone: 'Asia/Shanghai' });
    a.metadata.creationTimestamp = '2026-03-06T02:00:00Z';
    expect(creates(decide(a, '2026-03-07T00:59:59Z'))).toEqual([]);
    expect(creates(decide(a, '2026-03-07T01:00:00Z'))).toEqual([`acj-test-${Date.parse('2026-03-07T01:00:00Z') / 1000}`]);
  });

  it('DST: the New York 02:30 run on the spring-forward day runs at 03:30 EDT', () => {
    const a = acj({ schedule: '30 2 * * *', timeZone: 'America/New_York' }, { lastScheduleTime: '2026-03-07T07:30:00Z' });
    expect(creates(decide(a, '2026-03-08T07:29:59Z'))).toEqual([]);
    expect(creates(decide(a, '2026-03-08T07:30:00Z'))).toEqual([`acj-test-${Date.parse('2026-03-08T07:30:00Z') / 1000}`]);
  });

  it('paused: no child, no wake-up', () => {
    const p = decide(acj({ paused: true }), '2026-03-07T12:05:00Z');
    expect(creates(p)).toEqual([]);
    expect(p.requeueAfterMs).toBeUndefined();
    expect(p.scheduledAfterMs).toBeUndefined();
  });

  it('an invalid schedule or zone (one the webhook did not see): a Warning, no run', () => {
    expect(reasons(decide(acj({ schedule: '* * * * * *' }), '2026-03-07T12:05:00Z'))).toEqual(['UnparseableSchedule']);
    expect(reasons(decide(acj({ timeZone: 'Nowhere/City' }), '2026-03-07T12:05:00Z'))).toEqual(['UnknownTimeZone']);
  });
});

describe('concurrency policies', () => {
  const running = [child('acj-test-1772884860', undefined, '2026-03-07T12:01:00Z')];
  const at = '2026-03-07T12:02:00.100Z';
  const last = { lastScheduleTime: '2026-03-07T12:01:00Z' };

  it('Allow: a second one beside the running one', () => {
    const p = decide(acj({ concurrencyPolicy: 'Allow' }, last), at, running);
    expect(creates(p)).toEqual(['acj-test-1772884920']);
    expect(deletes(p)).toEqual([]);
    expect((p.status[0]?.status.active as { name: string }[]).map((r) => r.name)).toEqual(['acj-test-1772884860', 'acj-test-1772884920']);
  });

  it('Forbid: skipped while one is active (JobAlreadyActive), lastScheduleTime kept', () => {
    const p = decide(acj({ concurrencyPolicy: 'Forbid' }, last), at, running);
    expect(creates(p)).toEqual([]);
    expect(reasons(p)).toEqual(['JobAlreadyActive']);
    expect(p.scheduledAfterMs).toBe(59_900);
  });

  it('Forbid: a finished one does not block', () => {
    const p = decide(acj({ concurrencyPolicy: 'Forbid' }, last), at, [child('acj-test-1772884860', 'Complete')]);
    expect(creates(p)).toEqual(['acj-test-1772884920']);
  });

  it('Replace: the active one deleted (Background, uid precondition), the new one created', () => {
    const p = decide(acj({ concurrencyPolicy: 'Replace' }, last), at, running);
    expect(deletes(p)).toEqual(['acj-test-1772884860']);
    expect(p.writes.find((w) => w.op === 'delete')).toMatchObject({ propagationPolicy: 'Background', preconditions: { uid: 'uid-acj-test-1772884860' } });
    expect(creates(p)).toEqual(['acj-test-1772884920']);
    expect((p.status[0]?.status.active as { name: string }[]).map((r) => r.name)).toEqual(['acj-test-1772884920']);
  });
});

describe('history limits', () => {
  const last = { lastScheduleTime: '2026-03-07T12:05:00Z' };
  const at = '2026-03-07T12:05:30Z';
  const done = [
    child('acj-test-3', 'Complete', '2026-03-07T12:03:00Z'),
    child('acj-test-1', 'Complete', '2026-03-07T12:01:00Z'),
    child('acj-test-2', 'Complete', '2026-03-07T12:02:00Z'),
    child('acj-test-0', 'Complete'),
    child('acj-test-4', 'Failed', '2026-03-07T12:04:00Z'),
    child('acj-test-5', 'Failed', '2026-03-07T12:05:00Z'),
  ];

  it('the oldest finished beyond each limit go (no start time first), Background', () => {
    const p = decide(acj({ successfulJobsHistoryLimit: 2, failedJobsHistoryLimit: 1 }, last), at, done);
    expect(deletes(p)).toEqual(['acj-test-0', 'acj-test-1', 'acj-test-4']);
    expect(p.writes.every((w) => w.op !== 'delete' || w.propagationPolicy === 'Background')).toBe(true);
    expect(creates(p)).toEqual([]);
  });

  it('limits 0: every finished child goes, and none is created again', () => {
    const p = decide(acj({ successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 0 }, last), at, done);
    expect(deletes(p).sort()).toEqual(['acj-test-0', 'acj-test-1', 'acj-test-2', 'acj-test-3', 'acj-test-4', 'acj-test-5']);
    expect(creates(p)).toEqual([]);
  });

  it('no limits set: nothing deleted; a child being deleted is not active', () => {
    const p = decide(acj({}, last), at, [...done, child('acj-test-6', undefined, undefined, { deletionTimestamp: '2026-03-07T12:05:20Z' })]);
    expect(deletes(p)).toEqual([]);
    expect(p.status[0]?.status.active).toBeNull();
  });
});

describe('imageListPullJobTemplate (v1beta1)', () => {
  const ILPJ = { imageListPullJobTemplate: { metadata: { labels: { app: 'pull' } }, spec: { images: ['nginx:1.25'], completionPolicy: { type: 'Always' } } } };
  const pullJob = (name: string, status: Child['status'] = {}): Child => ({ metadata: { name, namespace: NS, uid: `uid-${name}` }, status });
  const done = (name: string, succeeded: number, desired: number, startTime: string) => pullJob(name, { completionTime: startTime, succeeded, desired, startTime });
  const last = { lastScheduleTime: '2026-03-07T12:01:00Z' };
  const at = '2026-03-07T12:02:00.100Z';

  it('creates an apps.kruise.io/v1beta1 ImageListPullJob <acj>-<unix seconds>, owned through the v1beta1 AdvancedCronJob', () => {
    const p = decide(acj({ template: ILPJ, concurrencyPolicy: 'Replace' }), '2026-03-07T12:01:00.050Z');
    const obj = (p.writes[0] as Extract<Write, { op: 'create' }>).object;
    expect(obj).toMatchObject({
      apiVersion: 'apps.kruise.io/v1beta1',
      kind: 'ImageListPullJob',
      metadata: { name: 'acj-test-1772884860', labels: { app: 'pull' }, annotations: { 'apps.kruise.io/scheduled-at': '2026-03-07T12:01:00Z' }, ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', name: 'acj-test', controller: true }] },
      spec: { images: ['nginx:1.25'] },
    });
    expect(p.status[0]?.status).toMatchObject({ type: 'ImageListPullJob', lastScheduleTime: '2026-03-07T12:01:00Z' });
  });

  it('writes status in the version it read (v1alpha1 would prune the template away)', () => {
    const read = { ...acj({ template: ILPJ, concurrencyPolicy: 'Replace' }), apiVersion: 'apps.kruise.io/v1beta1' };
    expect(decide(read, '2026-03-07T12:01:00.050Z').status[0]?.target.apiVersion).toBe('apps.kruise.io/v1beta1');
  });

  it('Replace: the running pull job (no completionTime) is deleted for the new one', () => {
    const p = decide(acj({ template: ILPJ, concurrencyPolicy: 'Replace' }, last), at, [pullJob('acj-test-1772884860', { desired: 1, succeeded: 0 })], 'ImageListPullJob');
    expect(deletes(p)).toEqual(['acj-test-1772884860']);
    expect(creates(p)).toEqual(['acj-test-1772884920']);
  });

  it('Forbid: a finished pull job does not block; one running does', () => {
    const forbid = acj({ template: ILPJ, concurrencyPolicy: 'Forbid' }, last);
    expect(creates(decide(forbid, at, [done('acj-test-1772884860', 1, 1, '2026-03-07T12:01:30Z')], 'ImageListPullJob'))).toEqual(['acj-test-1772884920']);
    expect(creates(decide(forbid, at, [pullJob('acj-test-1772884860')], 'ImageListPullJob'))).toEqual([]);
  });

  it('finished with every image pulled is successful, otherwise failed: each kept to its history limit', () => {
    const children = [
      done('s1', 2, 2, '2026-03-07T11:01:00Z'), done('s2', 2, 2, '2026-03-07T11:02:00Z'),
      done('f1', 1, 2, '2026-03-07T11:03:00Z'), done('f2', 0, 2, '2026-03-07T11:04:00Z'),
    ];
    const p = decide(acj({ template: ILPJ, concurrencyPolicy: 'Replace', successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 1 }, { lastScheduleTime: '2026-03-07T12:02:00Z' }), at, children, 'ImageListPullJob');
    expect(deletes(p)).toEqual(['s1', 'f1']);
    expect(p.writes.filter((w) => w.op === 'delete').map((w) => w.op === 'delete' && w.target.apiVersion)).toEqual(['apps.kruise.io/v1beta1', 'apps.kruise.io/v1beta1']);
  });
});
