import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import type { StoredEphemeralJob } from '../types.js';
import { decideEphemeralJobs, DEFAULT_TTL_SECONDS, RUNNING_RECHECK_MS } from './decide.js';
import type { EphemeralJobObserved } from './observe.js';

const NOW = new Date('2026-01-01T00:10:00Z');
const job = (spec: Record<string, unknown> = {}, status?: Record<string, unknown>): StoredEphemeralJob => ({
  metadata: { name: 'ej', namespace: 'ns', uid: 'u1', resourceVersion: '3' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { ephemeralContainers: [{ name: 'debug', image: 'busybox' }] }, ...spec },
  ...(status ? { status: status as StoredEphemeralJob['status'] } : {}),
});
const ours = [{ name: 'debug', image: 'busybox', env: [{ name: 'KRUISE_EJOB_ID', value: 'u1' }] }];
const pod = (name: string, created: string, opts: { labels?: Record<string, string>; injected?: boolean; exit?: number; phase?: string; ns?: string } = {}): V1Pod => ({
  metadata: { name, namespace: opts.ns ?? 'ns', labels: opts.labels ?? { app: 'web' }, creationTimestamp: created as unknown as Date, resourceVersion: '1' },
  spec: { containers: [], ...(opts.injected ? { ephemeralContainers: ours } : {}) },
  status: {
    ...(opts.phase ? { phase: opts.phase } : {}),
    ...(opts.exit !== undefined ? { ephemeralContainerStatuses: [{ name: 'debug', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: opts.exit, finishedAt: NOW } } }] } : {}),
  },
});
const observed = (jobs: StoredEphemeralJob[], pods: V1Pod[], shape: EphemeralJobObserved['shape'] = 'legacy'): EphemeralJobObserved => ({ jobs, podsByNamespace: new Map([['ns', pods]]), shape });
const injected = (plan: ReturnType<typeof decideEphemeralJobs>) => plan.writes.filter((w) => w.op === 'patch').map((w) => (w.op === 'patch' ? w.target.name : ''));

describe('decideEphemeralJobs', () => {
  it('a new job: start time set, the oldest matching active pods injected parallelism at a time, in slow-start batches', () => {
    const pods = [pod('b', '2026-01-01T00:00:02Z'), pod('a', '2026-01-01T00:00:02Z'), pod('old', '2026-01-01T00:00:01Z'), pod('other', '2026-01-01T00:00:00Z', { labels: { app: 'db' } }), pod('gone', '2026-01-01T00:00:00Z', { phase: 'Succeeded' })];
    const plan = decideEphemeralJobs(observed([job({ parallelism: 2 })], pods), NOW);
    expect(injected(plan)).toEqual(['old', 'a']);
    expect(plan.writes[0]).toMatchObject({ subresource: 'ephemeralcontainers', slowStart: { group: 'ephemeraljob/u1', unit: 'old' }, failureEvent: { reason: 'CreateFailed' } });
    expect(plan.status[0]).toMatchObject({ resourceVersion: '3', status: { startTime: '2026-01-01T00:10:00Z', match: 3, phase: 'Unknown' } });
    expect(plan.requeueAfterMs).toBe(RUNNING_RECHECK_MS);
  });
  it('replicas caps the targets; a pod with a foreign container of a template name is skipped', () => {
    const foreign: V1Pod = { ...pod('f', '2026-01-01T00:00:00Z'), spec: { containers: [], ephemeralContainers: [{ name: 'debug', image: 'x' }] } };
    const plan = decideEphemeralJobs(observed([job({ replicas: 1, parallelism: 5 })], [foreign, pod('a', '2026-01-01T00:00:01Z'), pod('b', '2026-01-01T00:00:02Z')]), NOW);
    expect(injected(plan)).toEqual(['a']);
    expect(plan.status[0]?.status).toMatchObject({ match: 1 });
  });
  it('all targets succeeded: Succeeded, no more injection, and a wake-up for the TTL (default 1800 s)', () => {
    const plan = decideEphemeralJobs(observed([job({}, { startTime: '2026-01-01T00:00:00Z' })], [pod('a', '2026-01-01T00:00:00Z', { injected: true, exit: 0 })]), NOW);
    expect(plan.writes).toEqual([]);
    expect(plan.status[0]?.status).toMatchObject({ phase: 'Succeeded', succeeded: 1, completionTime: '2026-01-01T00:10:00Z' });
    expect(plan.scheduledAfterMs).toBe(DEFAULT_TTL_SECONDS * 1000);
  });
  it('a failed container: Failed with its count', () => {
    const plan = decideEphemeralJobs(observed([job({ replicas: 1 }, { startTime: '2026-01-01T00:00:00Z' })], [pod('a', '2026-01-01T00:00:00Z', { injected: true, exit: 2 })]), NOW);
    expect(plan.status[0]?.status).toMatchObject({ phase: 'Failed', failed: 1 });
  });
  it('activeDeadlineSeconds: woken at the deadline, then Failed with DeadlineExceeded', () => {
    const running = pod('a', '2026-01-01T00:00:00Z', { injected: true });
    const early = decideEphemeralJobs(observed([job({ activeDeadlineSeconds: 660 }, { startTime: '2026-01-01T00:00:00Z' })], [running]), NOW);
    expect(early.scheduledAfterMs).toBe(60_000);
    const late = decideEphemeralJobs(observed([job({ activeDeadlineSeconds: 600 }, { startTime: '2026-01-01T00:00:00Z' })], [running]), NOW);
    expect(late.status[0]?.status).toMatchObject({ phase: 'Failed' });
    expect((late.status[0]?.status.conditions as { reason: string }[]).at(-1)).toMatchObject({ reason: 'DeadlineExceeded' });
  });
  it('a finished job is deleted once ttlSecondsAfterFinished has passed, else woken then', () => {
    const done = (ttl: number) => job({ ttlSecondsAfterFinished: ttl }, { phase: 'Succeeded', completionTime: '2026-01-01T00:09:00Z', match: 1, succeeded: 1, failed: 0, running: 0, waiting: 0 });
    const waiting = decideEphemeralJobs(observed([done(90)], []), NOW);
    expect(waiting.writes).toEqual([]);
    expect(waiting.scheduledAfterMs).toBe(30_000);
    expect(decideEphemeralJobs(observed([done(60)], []), NOW).writes).toEqual([
      expect.objectContaining({ op: 'delete', target: expect.objectContaining({ kind: 'EphemeralJob', name: 'ej' }), preconditions: { uid: 'u1' } }),
    ]);
  });
  it('paused: status only; an unchanged status (condition times aside) is not written again', () => {
    const paused = decideEphemeralJobs(observed([job({ paused: true })], [pod('a', '2026-01-01T00:00:00Z')]), NOW);
    expect(paused.writes).toEqual([]);
    expect(paused.status[0]?.status).toMatchObject({ phase: 'Paused' });
    const stored = { ...paused.status[0]!.status, conditions: (paused.status[0]!.status.conditions as object[]).map((c) => ({ ...c, lastProbeTime: '2025-01-01T00:00:00Z' })) };
    const again = decideEphemeralJobs(observed([job({ paused: true }, stored)], [pod('a', '2026-01-01T00:00:00Z')]), new Date('2026-01-01T00:11:00Z'));
    expect(again.status).toEqual([]);
  });
});
