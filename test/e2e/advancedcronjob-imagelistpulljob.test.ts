// AdvancedCronJob's v1beta1 imageListPullJobTemplate end to end on a real API server: its
// webhooks on the production Worker (OpenKruise 1.9's defaults and rules), and the controller
// through the Node path creating an ImageListPullJob at the minute, classing it finished from its
// status and pruning it by the history limit. No ImageListPullJob controller runs: the test
// finishes the child as that controller would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advancedCronJobFeature } from '../../src/advancedcronjob/index.js';
import { advancedCronJobReconciler } from '../../src/advancedcronjob/controller/reconciler.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { attempt, eventually } from './support/kube.js';
import type { AcjObj, ChildObj } from './support/advancedcronjob.js';

const ACJ_V1BETA1 = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob' } as const;
const ILPJ = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'ImageListPullJob' } as const;

let env: EdgeEnv;
beforeAll(async () => {
  env = await startEdgeEnv('acj-ilpj', [advancedCronJobFeature]);
  await env.resync();
});
afterAll(async () => {
  await env?.dispose();
});

const pullAcj = (name: string, spec: Record<string, unknown> = {}): AcjObj => ({
  ...ACJ_V1BETA1,
  metadata: { name, namespace: env.ns },
  spec: { schedule: '* * * * *', template: { imageListPullJobTemplate: { metadata: { labels: { app: 'pull' } }, spec: { images: ['nginx:1.25', 'busybox:1.36'] } } }, ...spec },
});
const refusal = (call: Promise<unknown>) => attempt(call, 'admitted');
const reconcileOnce = async () => {
  const report = await runReconciler(env.kube, advancedCronJobReconciler, { scope: { kind: 'all' }, identity: 'acj-ilpj' });
  expect(JSON.stringify(report.failed)).toBe('[]');
};
const pullJobsOf = async (acj: AcjObj) =>
  (await env.kube.list<ChildObj>(ILPJ.apiVersion, ILPJ.kind, { namespace: env.ns })).items.filter((c) => c.metadata.ownerReferences?.some((o) => o.controller && o.uid === acj.metadata.uid));

describe('imageListPullJobTemplate webhooks', () => {
  it('defaults the template and concurrencyPolicy Replace; refuses Allow and a bad template with OpenKruise 1.9’s messages', async () => {
    const made = await env.kube.create<AcjObj>(pullAcj('defaults', { paused: true }));
    expect(made.spec).toMatchObject({
      concurrencyPolicy: 'Replace',
      template: { imageListPullJobTemplate: { spec: { completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent' } } },
    });
    expect(await refusal(env.kube.create(pullAcj('allow', { concurrencyPolicy: 'Allow' })))).toMatch(/^422 .*spec\.spec\.concurrencyPolicy: Invalid value: "Allow": concurrencyPolicy should be Replace or Forbid, but current value is: Allow/);
    expect(await refusal(env.kube.create(pullAcj('dup', { template: { imageListPullJobTemplate: { spec: { images: ['a:1', 'a:1'] } } } })))).toMatch(/422 .*spec\.template\.imageListPullJobTemplate\.spec\.images: Invalid value: \[\]string\{"a:1", "a:1"\}: images cannot have duplicate values/);
    // The template may change on UPDATE.
    await env.kube.patch({ ...ACJ_V1BETA1, metadata: { name: 'defaults', namespace: env.ns } }, { spec: { template: { imageListPullJobTemplate: { spec: { images: ['redis:7'] } } } } });
  });
});

describe('imageListPullJobTemplate controller', () => {
  it('creates <acj>-<unix seconds> at the minute, owned through v1beta1; once finished it leaves status.active and the history limit prunes it', async () => {
    const acj = await env.kube.create<AcjObj>(pullAcj('nightly', { successfulJobsHistoryLimit: 0 }));
    const [child] = await eventually('an ImageListPullJob at the minute', async () => {
      await reconcileOnce();
      const jobs = await pullJobsOf(acj);
      return jobs.length ? jobs : undefined;
    }, 75_000, 1_000);
    const scheduled = child!.metadata.annotations?.['apps.kruise.io/scheduled-at'] ?? '';
    expect(child!.metadata.name).toBe(`nightly-${Date.parse(scheduled) / 1000}`);
    expect(child!.metadata.labels).toEqual({ app: 'pull' });
    expect(child!.metadata.ownerReferences).toEqual([expect.objectContaining({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'AdvancedCronJob', name: 'nightly', controller: true })]);
    expect(child!.spec).toMatchObject({ images: ['nginx:1.25', 'busybox:1.36'], completionPolicy: { type: 'Always' } });
    const status = (await env.kube.get<AcjObj>(ACJ_V1BETA1.apiVersion, ACJ_V1BETA1.kind, 'nightly', env.ns)).status;
    expect(status).toMatchObject({ type: 'ImageListPullJob', lastScheduleTime: scheduled, active: [expect.objectContaining({ kind: 'ImageListPullJob', name: child!.metadata.name })] });

    const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    await env.kube.patch({ ...ILPJ, metadata: { name: child!.metadata.name, namespace: env.ns } }, { status: { startTime: now, completionTime: now, desired: 2, succeeded: 2, active: 0, completed: 2 } }, 'merge', 'status');
    await reconcileOnce();
    expect(await pullJobsOf(acj)).toEqual([]);
    expect((await env.kube.get<AcjObj>(ACJ_V1BETA1.apiVersion, ACJ_V1BETA1.kind, 'nightly', env.ns)).status?.active ?? []).toEqual([]);
  }, 120_000);
});
