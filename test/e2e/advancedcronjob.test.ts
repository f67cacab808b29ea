// AdvancedCronJob end to end on a real API server: its webhooks on the production Worker, and its
// controller through the Node loop (watches as triggers, the full resync set to an hour so that
// nothing here waits for it; the runs at the minute are wake-ups). Every AdvancedCronJob is created
// before one minute boundary and checked after it, so the file waits for one minute, not one per
// case. No Job or BroadcastJob controller runs: the tests finish children as those would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advancedCronJobFeature } from '../../src/advancedcronjob/index.js';
import { advancedCronJobReconciler } from '../../src/advancedcronjob/controller/reconciler.js';
import { KubeApiError } from '../../src/kube/errors.js';
import type { KubeObject } from '../../src/kube/http.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { Scope } from '../../src/reconcile/types.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { attempt, eventually } from './support/kube.js';
import {
  ACJ, BCJ, JOB, SCHEDULED_AT, acjOf, bcjAcj, childNameAt, childrenOf, eventReasons, finish, handChild, jobAcj, nextMinute, seedAcj, start, type AcjObj, type ChildObj,
} from './support/advancedcronjob.js';

let env: EdgeEnv;
let stop: AbortController;
let loop: Promise<void>;
/** When each run of the loop started, and for what (pushed once it ended). */
const runs: { at: number; scope: Scope }[] = [];

beforeAll(async () => {
  env = await startEdgeEnv('acj', [advancedCronJobFeature]);
  await env.resync();
  stop = new AbortController();
  loop = runLoop({
    kube: env.kube, reconcilers: [advancedCronJobReconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: async (r, scope) => {
      const at = Date.now();
      const report = await runReconciler(env.kube, r, { scope, identity: `acj-loop-${scope.kind}` });
      runs.push({ at, scope });
      return report;
    },
  });
});
afterAll(async () => {
  stop?.abort();
  await loop;
  await env?.dispose();
});

const ns = () => env.ns;
const create = (obj: AcjObj) => env.kube.create<AcjObj>(obj);
const acj = (name: string) => acjOf(env.kube, ns(), name);
const jobPods = async (job: string) => (await env.kube.list<KubeObject & { metadata: { deletionTimestamp?: string } }>('v1', 'Pod', { namespace: ns(), labelSelector: `job-name=${job}` })).items.filter((p) => !p.metadata.deletionTimestamp);
const ranFor = (name: string, after: number) => runs.some((r) => r.at > after && (r.scope.kind === 'all' || r.scope.objects.some((o) => o.name === name)));
const refusal = (call: Promise<unknown>) => attempt(call, 'admitted');

describe('webhooks', () => {
  it('refuses an invalid schedule or time zone at the edge, with OpenKruise’s messages', async () => {
    expect(await refusal(create(jobAcj(ns(), 'bad-fields', { schedule: '0 * * * * *' })))).toMatch(/^422 .*spec\.schedule: Invalid value: "0 \* \* \* \* \*": expected exactly 5 fields, found 6/);
    expect(await refusal(create(jobAcj(ns(), 'bad-dow', { schedule: '0 0 * * 7' })))).toMatch(/422 .*end of range \(7\) above maximum \(6\)/);
    expect(await refusal(create(jobAcj(ns(), 'bad-zone', { timeZone: 'Mars/Olympus' })))).toMatch(/422 .*spec\.timeZone: Invalid value: "Mars\/Olympus": unknown time zone/);
    expect(await refusal(create(jobAcj(ns(), 'two', { template: { jobTemplate: { spec: {} }, broadcastJobTemplate: { spec: {} } } })))).toMatch(/spec can have only one template/);
  });

  it('defaults as OpenKruise, and only the scheduling fields may change', async () => {
    const made = await create(jobAcj(ns(), 'defaults', { schedule: '@hourly', paused: true }));
    expect(made.spec).toMatchObject({ concurrencyPolicy: 'Allow', successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, paused: true });
    expect(made.spec).toMatchObject({ template: { jobTemplate: { spec: { template: { spec: { dnsPolicy: 'ClusterFirst', schedulerName: 'default-scheduler' } } } } } });
    await env.kube.patch({ ...ACJ, metadata: { name: 'defaults', namespace: ns() } }, { spec: { schedule: '*/7 * * * *', timeZone: 'Asia/Shanghai' } });
    expect(await refusal(env.kube.patch({ ...ACJ, metadata: { name: 'defaults', namespace: ns() } }, { spec: { template: { jobTemplate: { metadata: { labels: { x: 'y' } } } } } }))).toMatch(/422 .*updates to advancedcronjob spec for fields other than/);
  });
});

describe('one minute boundary, every case at once', () => {
  let minute: number;
  const made = new Map<string, AcjObj>();
  const hand = new Map<string, ChildObj>();
  const past = (minutesAgo: number) => new Date(Math.floor(Date.now() / 60_000) * 60_000 - minutesAgo * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

  it('set-up before the minute: history limits prune at once; after downtime only the latest missed run; too many missed → TooManyMissedTimes; startingDeadlineSeconds skips a late one', async () => {
    // Room before the boundary for the set-up, and a few seconds since the last one (the deadline case).
    const sinceLast = Date.now() % 60_000;
    if (60_000 - sinceLast < 15_000 || sinceLast < 6_000) await new Promise((r) => setTimeout(r, nextMinute() - Date.now() + 6_000));
    minute = nextMinute();
    const add = async (obj: AcjObj) => made.set(obj.metadata.name, await create(obj));
    await add(seedAcj('002-advancedcronjob-broadcastjob.yaml', ns()));
    await add(jobAcj(ns(), 'allow', { concurrencyPolicy: 'Allow' }));
    await add(jobAcj(ns(), 'forbid', { concurrencyPolicy: 'Forbid' }));
    await add(jobAcj(ns(), 'replace', { concurrencyPolicy: 'Replace' }));
    await add(jobAcj(ns(), 'paused', { paused: true }));
    await add(bcjAcj(ns(), 'ttl-zero', { successfulJobsHistoryLimit: 0 }));
    await add(bcjAcj(ns(), 'history', { successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 1, schedule: '0 0 1 1 *' }));
    await add(jobAcj(ns(), 'downtime', { schedule: '*/1 * * * *' }));
    await add(jobAcj(ns(), 'too-many', { schedule: '*/1 * * * *' }));
    await add(jobAcj(ns(), 'deadline', { startingDeadlineSeconds: 5 }));
    for (const name of ['allow', 'forbid', 'replace']) {
      const c = await env.kube.create<ChildObj>(handChild(made.get(name)!, `${name}-earlier`));
      await start(env.kube, c, new Date(Date.now() - 60_000));
      hand.set(name, c);
    }
    // kube-controller-manager's Job controller runs the earlier Job's pod: Replace's Background
    // deletion must take it along (an orphaning delete would leave it).
    await eventually('the pod of replace-earlier', async () => ((await jobPods('replace-earlier')).length ? true : undefined), 15_000, 100);
    // History: 3 complete, 2 failed; keep the newest of each.
    const h = made.get('history')!;
    for (const [i, how] of (['Complete', 'Complete', 'Complete', 'Failed', 'Failed'] as const).entries()) {
      const c = await env.kube.create<ChildObj>(handChild(h, `history-${i}`, BCJ));
      await finish(env.kube, c, how, new Date(Date.now() - (10 - i) * 60_000));
    }
    await eventually('history pruned to the newest complete and failed', async () => {
      const names = (await childrenOf(env.kube, h, BCJ)).map((c) => c.metadata.name);
      return names.join(',') === 'history-2,history-4' ? names : undefined;
    }, 15_000, 100).catch(async (e: unknown) => {
      const left = (await childrenOf(env.kube, h, BCJ)).map((c) => `${c.metadata.name} ${JSON.stringify(c.status)} ${c.metadata.deletionTimestamp ?? ''} ${JSON.stringify(c.metadata.finalizers ?? [])}`);
      throw new Error(`${String(e)}\n${left.join('\n')}\n${JSON.stringify((await acj('history')).spec)}`);
    });
    // As if the controller had been down: lastScheduleTime minutes (or hours) back.
    const setLast = (name: string, t: string) => env.kube.patch({ ...ACJ, metadata: { name, namespace: ns() } }, { status: { lastScheduleTime: t } }, 'merge', 'status');
    await setLast('downtime', past(5));
    await setLast('too-many', past(300));
    // The deadline case's last minute started > 5 s ago: too late.
    await setLast('deadline', past(3));
    // A run that surely observed that status: the one a later change (a label) triggers.
    const beforeDeadline = Date.now();
    await env.kube.patch({ ...ACJ, metadata: { name: 'deadline', namespace: ns() } }, { metadata: { labels: { poked: 'yes' } } });
    const latest = Math.floor(Date.now() / 60_000) * 60_000;
    await eventually('downtime: one child, for the latest missed minute', async () => {
      const names = (await childrenOf(env.kube, made.get('downtime')!)).map((c) => c.metadata.name);
      return names.length ? names : undefined;
    }, 15_000, 100).then((names) => expect(names).toEqual([childNameAt('downtime', latest)]));
    await eventually('too-many: TooManyMissedTimes and the latest only', async () => ((await eventReasons(env.kube, ns(), 'too-many')).includes('TooManyMissedTimes') ? true : undefined), 15_000, 100);
    expect((await childrenOf(env.kube, made.get('too-many')!)).map((c) => c.metadata.name)).toEqual([childNameAt('too-many', latest)]);
    await eventually('a run of deadline after its status change', async () => (ranFor('deadline', beforeDeadline) ? true : undefined), 10_000, 50);
    expect(await childrenOf(env.kube, made.get('deadline')!)).toEqual([]);
    expect(Date.now()).toBeLessThan(minute);
  });

  it('at the minute: seed 002’s BroadcastJob acj-test-<unix seconds>, annotated and owned; a Job from a jobTemplate; status type, active, lastScheduleTime', async () => {
    const seed = made.get('acj-test')!;
    const want = childNameAt('acj-test', minute);
    const child = await eventually(`${want}`, async () => (await childrenOf(env.kube, seed, BCJ)).find((c) => c.metadata.name === want), 75_000, 20);
    const seen = Date.now();
    console.log(`Node loop: ${want} seen ${seen - minute} ms after the minute (creationTimestamp ${child.metadata.creationTimestamp})`);
    expect(child.metadata.annotations?.[SCHEDULED_AT]).toBe(new Date(minute).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    expect(child.metadata.ownerReferences).toEqual([expect.objectContaining({ ...ACJ, name: 'acj-test', uid: seed.metadata.uid, controller: true })]);
    expect(child.spec).toMatchObject({ completionPolicy: { type: 'Always', ttlSecondsAfterFinished: 30 } });
    await eventually('seed status', async () => {
      const s = (await acj('acj-test')).status;
      return s?.type === 'BroadcastJob' && s.active?.some((a) => a.name === want && a.uid) && s.lastScheduleTime === child.metadata.annotations?.[SCHEDULED_AT] ? s : undefined;
    }, 10_000, 50);
    const job = await eventually('allow Job', async () => (await childrenOf(env.kube, made.get('allow')!)).find((c) => c.metadata.name === childNameAt('allow', minute)), 10_000, 50);
    expect(job.metadata.labels).toMatchObject({ acj: 'allow' });
    expect(job.metadata.annotations?.[SCHEDULED_AT]).toBe(new Date(minute).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    await eventually('allow: status type Job', async () => ((await acj('allow')).status?.type === 'Job' ? true : undefined), 10_000, 50);
    expect(await eventReasons(env.kube, ns(), 'acj-test')).toContain('SuccessfulCreate');
  });

  it('concurrency: Allow runs beside the active one; Replace deletes it (Background: gone, not orphaned) and runs; Forbid skips until it finishes, then its completion starts the run; paused runs nothing; within startingDeadlineSeconds it runs', async () => {
    const names = async (n: string) => (await childrenOf(env.kube, made.get(n)!)).map((c) => c.metadata.name);
    await eventually('allow: two', async () => ((await names('allow')).length === 2 ? true : undefined), 10_000, 50);
    expect(await names('allow')).toEqual(['allow-earlier', childNameAt('allow', minute)].sort());
    await eventually('replace: only the new one, the old one deleted outright', async () => ((await names('replace')).join() === childNameAt('replace', minute) ? true : undefined), 10_000, 50);
    const gone = await env.kube.get(JOB.apiVersion, JOB.kind, 'replace-earlier', ns()).then(() => false, (e: unknown) => e instanceof KubeApiError && e.status === 404);
    expect(gone).toBe(true);
    await eventually('replace-earlier’s pod deleted with it (Background)', async () => ((await jobPods('replace-earlier')).length === 0 ? true : undefined), 15_000, 100);
    await eventually('deadline: the run within its deadline', async () => ((await names('deadline')).join() === childNameAt('deadline', minute) ? true : undefined), 10_000, 50);
    await eventually('forbid: JobAlreadyActive', async () => ((await eventReasons(env.kube, ns(), 'forbid')).includes('JobAlreadyActive') ? true : undefined), 10_000, 50);
    expect(await names('forbid')).toEqual(['forbid-earlier']);
    await finish(env.kube, hand.get('forbid')!, 'Complete');
    await eventually('forbid: the run starts once the active one completed', async () => ((await names('forbid')).includes(childNameAt('forbid', minute)) ? true : undefined), 10_000, 50);
    expect(await names('paused')).toEqual([]);
  });

  it('a finished child deleted (as a TTL or a history limit deletes it) is never created again: lastScheduleTime is stored, not recomputed (kruise#2213, #862, #1488)', async () => {
    const seedChild = childNameAt('acj-test', minute);
    const bcj = await env.kube.get<ChildObj>(BCJ.apiVersion, BCJ.kind, seedChild, ns());
    await finish(env.kube, bcj, 'Complete');
    await env.kube.delete({ ...BCJ, metadata: { name: seedChild, namespace: ns() } }, { propagationPolicy: 'Background' });
    // successfulJobsHistoryLimit 0: the controller itself deletes its finished child.
    const zero = await eventually('ttl-zero’s child', async () => (await childrenOf(env.kube, made.get('ttl-zero')!, BCJ)).find((c) => c.metadata.name === childNameAt('ttl-zero', minute)), 10_000, 50);
    await finish(env.kube, zero, 'Complete');
    await eventually('ttl-zero: its finished child deleted by the history limit', async () => ((await childrenOf(env.kube, made.get('ttl-zero')!, BCJ)).length === 0 ? true : undefined), 10_000, 50);
    // A user change runs each after the deletions (they run on the deletions too, but a run that
    // surely observed them is what the check needs).
    const poked = Date.now();
    for (const n of ['acj-test', 'ttl-zero']) await env.kube.patch({ ...ACJ, metadata: { name: n, namespace: ns() } }, { metadata: { labels: { poked: 'yes' } } });
    await eventually('runs after the deletions', async () => (ranFor('acj-test', poked) && ranFor('ttl-zero', poked) ? true : undefined), 10_000, 50);
    if (nextMinute() - Date.now() < 1_000) throw new Error('too close to the next minute to tell a re-run from the next run');
    expect((await childrenOf(env.kube, made.get('acj-test')!, BCJ)).map((c) => c.metadata.name)).not.toContain(seedChild);
    expect(await childrenOf(env.kube, made.get('ttl-zero')!, BCJ)).toEqual([]);
    expect((await acj('acj-test')).status?.lastScheduleTime).toBe(new Date(minute).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  });
});
