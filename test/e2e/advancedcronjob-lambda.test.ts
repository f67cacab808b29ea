// AdvancedCronJob on the Lambda path: every reconcile runs in the production Lambda handler,
// triggered as AWS triggers it — the ObjectChanged events the Worker publishes when it admits the
// AdvancedCronJob or a status change of one of its children (observe-job-status), and the SQS
// wake-ups runs ask for (the next scheduled time, as a delayed message). The one-minute schedule
// never fires. Every case is created before one minute boundary and checked after it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advancedCronJobFeature } from '../../src/advancedcronjob/index.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { startLambdaPath, type LambdaPath } from './support/lambda-path.js';
import { eventually } from './support/kube.js';
import { ACJ, BCJ, SCHEDULED_AT, acjOf, childNameAt, childrenOf, eventReasons, finish, handChild, jobAcj, nextMinute, seedAcj, start, type AcjObj, type ChildObj } from './support/advancedcronjob.js';

let lambda: LambdaPath;
let env: EdgeEnv;

beforeAll(async () => {
  lambda = await startLambdaPath();
  env = await startEdgeEnv('acjl', [advancedCronJobFeature], { workerBindings: lambda.bindings });
  await lambda.attach({ clusterId: env.clusterId, kube: env.kube, edge: env.edge });
  await env.resync();
});
afterAll(async () => {
  await lambda?.close();
  await env?.dispose();
});

/** A Lambda run of the AdvancedCronJob reconciler for `name` that finished after `after`. */
const ranFor = (name: string, after: number) =>
  lambda.finished.some((f) => f.at > after && f.summary.runs.some((r) => r.reconciler === 'AdvancedCronJob' && (r.scope === 'all' || r.scope.some((o) => o.endsWith(`/${name}`)))));

describe('AdvancedCronJob through the Lambda', () => {
  let minute: number;
  const made = new Map<string, AcjObj>();
  let forbidChild: ChildObj;

  it('set-up before the minute: the webhooks default it; no run before its time', async () => {
    if (nextMinute() - Date.now() < 10_000) await new Promise((r) => setTimeout(r, nextMinute() - Date.now() + 1_000));
    minute = nextMinute();
    made.set('acj-test', await env.kube.create<AcjObj>(seedAcj('002-advancedcronjob-broadcastjob.yaml', env.ns)));
    made.set('lforbid', await env.kube.create<AcjObj>(jobAcj(env.ns, 'lforbid', { concurrencyPolicy: 'Forbid' })));
    expect(made.get('acj-test')!.spec).toMatchObject({ concurrencyPolicy: 'Allow', successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, paused: false });
    forbidChild = await env.kube.create<ChildObj>(handChild(made.get('lforbid')!, 'lforbid-earlier'));
    await start(env.kube, forbidChild, new Date(Date.now() - 60_000));
    await eventually('a Lambda run of each after its creation', async () => (ranFor('acj-test', 0) && ranFor('lforbid', 0) ? true : undefined), 15_000, 50);
    expect(await childrenOf(env.kube, made.get('acj-test')!, BCJ)).toEqual([]);
  });

  it('at the minute: the SQS wake-up creates acj-test-<unix seconds>; Forbid skips while its child runs', async () => {
    const want = childNameAt('acj-test', minute);
    const child = await eventually(want, async () => (await childrenOf(env.kube, made.get('acj-test')!, BCJ)).find((c) => c.metadata.name === want), 75_000, 20);
    console.log(`Lambda path: ${want} seen ${Date.now() - minute} ms after the minute (creationTimestamp ${child.metadata.creationTimestamp})`);
    expect(child.metadata.annotations?.[SCHEDULED_AT]).toBe(new Date(minute).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    // Made by a run an SQS wake-up started (its summary lands once the invocation ends).
    await eventually('the wake-up run that wrote it', async () => (lambda.finished.some((f) => f.summary.trigger === 'requeue' && f.summary.runs.some((r) => r.reconciler === 'AdvancedCronJob' && r.applied > 0)) ? true : undefined), 10_000, 50);
    await eventually('status', async () => {
      const s = (await acjOf(env.kube, env.ns, 'acj-test')).status;
      return s?.type === 'BroadcastJob' && s.lastScheduleTime === child.metadata.annotations?.[SCHEDULED_AT] ? s : undefined;
    }, 10_000, 50);
    await eventually('lforbid: JobAlreadyActive', async () => ((await eventReasons(env.kube, env.ns, 'lforbid')).includes('JobAlreadyActive') ? true : undefined), 10_000, 50);
    expect((await childrenOf(env.kube, made.get('lforbid')!)).map((c) => c.metadata.name)).toEqual(['lforbid-earlier']);
  });

  it('a child’s completion runs its AdvancedCronJob (the job status observer’s event): Forbid’s run starts', async () => {
    const before = lambda.received.length;
    await finish(env.kube, forbidChild, 'Complete');
    await eventually('lforbid-<minute> created', async () => ((await childrenOf(env.kube, made.get('lforbid')!)).some((c) => c.metadata.name === childNameAt('lforbid', minute)) ? true : undefined), 10_000, 50);
    expect(lambda.received.slice(before).some((e) => e.detail.kind === 'AdvancedCronJob' && e.detail.name === 'lforbid' && String(e.detail.reason).startsWith('related job'))).toBe(true);
  });

  it('a finished child deleted (as its TTL would) is not created again', async () => {
    const name = childNameAt('acj-test', minute);
    const bcj = await env.kube.get<ChildObj>(BCJ.apiVersion, BCJ.kind, name, env.ns);
    await finish(env.kube, bcj, 'Complete');
    await env.kube.delete({ ...BCJ, metadata: { name, namespace: env.ns } }, { propagationPolicy: 'Background' });
    const poked = Date.now();
    await env.kube.patch({ ...ACJ, metadata: { name: 'acj-test', namespace: env.ns } }, { metadata: { labels: { poked: 'yes' } } });
    // The run the label change's event triggers started after the deletion.
    await eventually('the Lambda run for the label change', async () => {
      const ids = new Set(lambda.received.filter((e) => e.at >= poked && e.detail.kind === 'AdvancedCronJob' && e.detail.name === 'acj-test').map((e) => e.id));
      return lambda.finished.some((f) => f.summary.eventId !== undefined && ids.has(f.summary.eventId) && f.summary.runs.some((r) => r.reconciler === 'AdvancedCronJob')) ? true : undefined;
    }, 10_000, 50);
    if (nextMinute() - Date.now() < 1_000) throw new Error('too close to the next minute to tell a re-run from the next run');
    expect((await childrenOf(env.kube, made.get('acj-test')!, BCJ)).map((c) => c.metadata.name)).not.toContain(name);
  });
});
