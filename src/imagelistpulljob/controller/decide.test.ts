import { describe, expect, it } from 'vitest';
import type { Write } from '../../reconcile/types.js';
import type { ImageListPullJobStatus } from '../../api/apps/imagelistpulljob.js';
import type { ChildImagePullJob, StoredImageListPullJob } from '../types.js';
import { decideImageListPullJobs } from './decide.js';
import { childName, newChild, templateHash } from './template.js';

const NOW = new Date('2026-01-01T00:10:00Z');

const listJob = (spec: Partial<StoredImageListPullJob['spec']> = {}, status?: ImageListPullJobStatus, labels?: Record<string, string>): StoredImageListPullJob => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob',
  metadata: { name: 'list', namespace: 'ns', uid: 'u1', resourceVersion: '7', ...(labels ? { labels } : {}) },
  spec: { images: ['a:1', 'b:1'], completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, ...spec },
  ...(status ? { status } : {}),
});

const child = (job: StoredImageListPullJob, image: string, status?: ChildImagePullJob['status'], hash = templateHash(job)): ChildImagePullJob => {
  const c = newChild(job, image, hash) as unknown as ChildImagePullJob;
  return { ...c, metadata: { ...c.metadata, uid: `c-${image}` }, ...(status ? { status } : {}) };
};

const decide = (job: StoredImageListPullJob, children: ChildImagePullJob[]) => decideImageListPullJobs({ jobs: [job], childrenByJob: new Map([['u1', children]]) }, NOW);
const ops = (writes: Write[]) => writes.map((w) => (w.op === 'create' ? `create ${String((w.object.spec as { image: string }).image)}` : w.op === 'delete' ? `delete ${w.target.kind} ${w.target.name}` : w.op === 'patch' ? `patch ${w.target.name}` : `update ${String(w.object.metadata?.name)}`));

describe('decideImageListPullJobs', () => {
  it('a new job: labels its template hash, one ImagePullJob per image with the template and an owner, starts', () => {
    const job = listJob({ parallelism: 2, selector: { names: ['n1'] } });
    const plan = decide(job, []);
    const hash = templateHash(job);
    expect(ops(plan.writes)).toEqual(['patch list', 'create a:1', 'create b:1']);
    const created = plan.writes[1]!.op === 'create' ? plan.writes[1]!.object : undefined;
    expect(created).toMatchObject({
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ImagePullJob',
      metadata: { name: childName(job, 'a:1', hash), namespace: 'ns', labels: { 'controller-revision-hash': hash }, ownerReferences: [{ kind: 'ImageListPullJob', name: 'list', uid: 'u1', controller: true }] },
      spec: { image: 'a:1', parallelism: 2, selector: { names: ['n1'] }, completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } },
    });
    expect((created?.spec as Record<string, unknown>).images).toBeUndefined();
    expect(plan.events.map((e) => `${e.reason}: ${e.message}`)).toEqual(['Successful create ImagePullJob: Create 2 ImagePullJob']);
    expect(plan.status[0]?.status).toEqual({ startTime: '2026-01-01T00:10:00Z', desired: 2, active: 0, completed: 0, succeeded: 0 });
  });

  it('aggregates the ImagePullJobs as OpenKruise does and completes once every one finished', () => {
    const job = listJob({}, { startTime: '2026-01-01T00:00:00Z', desired: 2 }, { 'controller-revision-hash': templateHash(listJob()) });
    const running = decide(job, [child(job, 'a:1', { startTime: 't', desired: 2, active: 1, succeeded: 1, failed: 0 }), child(job, 'b:1', { startTime: 't', desired: 2, succeeded: 1, failed: 1 })]);
    expect(running.writes).toEqual([]);
    expect(running.status[0]?.status).toEqual({
      startTime: '2026-01-01T00:00:00Z', desired: 2, active: 1, completed: 1, succeeded: 0,
      failedImageStatuses: [{ imagePullJob: childName(job, 'b:1', templateHash(job)), name: 'b:1', message: `Please check for details which nodes failed by 'kubectl get ImagePullJob ${childName(job, 'b:1', templateHash(job))}'.` }],
    });
    const done = decide(job, [child(job, 'a:1', { startTime: 't', desired: 2, succeeded: 2 }), child(job, 'b:1', { startTime: 't', desired: 2, succeeded: 2 })]);
    expect(done.status[0]?.status).toMatchObject({ desired: 2, active: 0, completed: 2, succeeded: 2, completionTime: '2026-01-01T00:10:00Z' });
    // Never: all completed, still running.
    const never = listJob({ completionPolicy: { type: 'Never' } }, { startTime: '2026-01-01T00:00:00Z', desired: 1 });
    expect(decide(never, [child(never, 'a:1', { startTime: 't', desired: 1, succeeded: 1 }), child(never, 'b:1', { startTime: 't', desired: 1, succeeded: 1 })]).status[0]?.status.completionTime).toBeUndefined();
  });

  it('a changed template replaces every ImagePullJob; an unlisted image loses its ImagePullJob', () => {
    const old = listJob({ parallelism: 1 });
    const job = listJob({ parallelism: 3, images: ['a:1', 'c:1'] }, { startTime: 't', desired: 2 });
    const plan = decide(job, [child(old, 'a:1', { startTime: 't', desired: 1, active: 1 }), child(old, 'b:1')]);
    expect(ops(plan.writes)).toEqual([
      'patch list', `delete ImagePullJob ${childName(old, 'a:1', templateHash(old))}`, `delete ImagePullJob ${childName(old, 'b:1', templateHash(old))}`, 'create a:1', 'create c:1',
    ]);
    expect(childName(job, 'a:1', templateHash(job))).not.toBe(childName(old, 'a:1', templateHash(old)));
    expect(plan.events.map((e) => e.message)).toEqual(['Create 2 ImagePullJob', 'Delete 2 ImagePullJob']);
  });

  it('a finished job waits out its TTL, then is deleted; without a TTL it stays', () => {
    const hash = { 'controller-revision-hash': templateHash(listJob({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 300 } })) };
    const waiting = decide(listJob({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 300 } }, { desired: 2, completionTime: '2026-01-01T00:08:00Z' }, hash), []);
    expect(waiting.writes).toEqual([]);
    expect(waiting.requeueAfterMs).toBe(180_000);
    const due = decide(listJob({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 60 } }, { desired: 2, completionTime: '2026-01-01T00:08:00Z' }, hash), []);
    expect(ops(due.writes)).toEqual(['patch list', 'delete ImageListPullJob list']);
    const kept = decide(listJob({}, { desired: 2, completionTime: '2026-01-01T00:08:00Z' }, { 'controller-revision-hash': templateHash(listJob()) }), []);
    expect(kept.writes).toEqual([]);
    expect(kept.requeueAfterMs).toBeUndefined();
  });

  it('names fit a label value, whatever the list job is called', () => {
    const long = { ...listJob(), metadata: { ...listJob().metadata, name: 'x'.repeat(80) } };
    const name = childName(long, 'a:1', 'h');
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name).toMatch(/^x+-[a-z0-9]+$/);
  });
});
