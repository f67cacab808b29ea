// AdvancedCronJob scheduling error, for `bench:jobs` (bench/jobs/main.ts calls advancedCronJobSection):
// one `*/1 * * * *` AdvancedCronJob per path, both in the same minutes — one reconciled by the
// Node loop (its wake-up timer), one by the production Lambda handler (its wake-up is a delayed
// message on a fake SQS endpoint over loopback, delivered by a poller as Lambda's SQS event source
// would, every 50 ms, once its DelaySeconds have passed). The error of a run is the time a watch on
// Jobs sees the child ADDED minus its scheduled time (the child's apps.kruise.io/scheduled-at);
// creationTimestamp and managedFields times have 1 s resolution and are not used. Figures are
// printed, never asserted; the goal is ≤ 2 s.
import { advancedCronJobReconciler } from '../../src/advancedcronjob/controller/reconciler.js';
import type { AdvancedCronJobObserved } from '../../src/advancedcronjob/controller/decide.js';
import { makeReconcileHandler } from '../../src/aws/reconcile-handler.js';
import { sqsRequeueQueue } from '../../src/aws/sqs-fetch.js';
import { startFakeSqs } from '../../src/aws/sqs-fake.js';
import { isAlreadyExists } from '../../src/kube/errors.js';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { Reconciler } from '../../src/reconcile/types.js';

export const ACJ_NODE_NAMESPACE = 'bench-acj-node';
export const ACJ_LAMBDA_NAMESPACE = 'bench-acj-lambda';
const LAMBDA_LEASES = 'bench-acj-leases';
const GOAL_MS = 2_000;
const REGION = 'us-east-1';
const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'example-secret' };
const CLUSTER = 'bench-acj';

export type AcjPathFigures = { path: string; errorsMs: number[]; medianMs: number; maxMs: number };
export type AcjFigures = { runs: number; paths: AcjPathFigures[] };
export type AcjSection = { lines: string[]; goals: string[]; figures: AcjFigures };

/** The reconciler limited to one namespace, so that each path schedules only its own AdvancedCronJob. */
function onlyIn(ns: string): Reconciler<AdvancedCronJobObserved> {
  return {
    ...advancedCronJobReconciler,
    observe: async (kube, scope, ctx) => {
      const o = await advancedCronJobReconciler.observe(kube, scope, ctx);
      return { ...o, cronJobs: o.cronJobs.filter((a) => a.metadata.namespace === ns) };
    },
  };
}

const acj = (ns: string): KubeObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'AdvancedCronJob', metadata: { name: 'every-minute', namespace: ns },
  spec: {
    schedule: '*/1 * * * *', timeZone: 'UTC', concurrencyPolicy: 'Allow', successfulJobsHistoryLimit: 10, failedJobsHistoryLimit: 10,
    template: { jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['true'] }] } } } } },
  },
});

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};

/** Measures `runs` scheduled runs on each path (they take `runs` minutes, both paths at once). */
export async function advancedCronJobSection(opts: { kube: KubeHttp; runs?: number; log?: (m: string) => void }): Promise<AcjSection> {
  const { kube } = opts;
  const runs = opts.runs ?? 5;
  const log = opts.log ?? (() => undefined);
  for (const name of [ACJ_NODE_NAMESPACE, ACJ_LAMBDA_NAMESPACE, LAMBDA_LEASES, 'kruise-system']) {
    await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }).catch((e: unknown) => {
      if (!isAlreadyExists(e)) throw e;
    });
  }
  const stop = new AbortController();
  const seen = new Map<string, { ns: string; at: number; scheduledAt: number }>();
  const watching = watchJobs(kube, stop.signal, (job, at) => {
    const meta = job.metadata as { name?: string; namespace?: string; annotations?: Record<string, string> };
    const scheduled = meta.annotations?.['apps.kruise.io/scheduled-at'];
    if (!scheduled || !meta.name || seen.has(`${meta.namespace}/${meta.name}`)) return;
    seen.set(`${meta.namespace}/${meta.name}`, { ns: meta.namespace ?? '', at, scheduledAt: Date.parse(scheduled) });
  });

  const loop = runLoop({
    kube, reconcilers: [onlyIn(ACJ_NODE_NAMESPACE) as Reconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(kube, r, { scope, identity: 'bench-acj-node-loop' }),
  });

  const sqs = await startFakeSqs({ region: REGION, credentials: CREDENTIALS });
  const handler = makeReconcileHandler({
    reconcilers: [onlyIn(ACJ_LAMBDA_NAMESPACE) as Reconciler], clusterId: CLUSTER, resyncEveryMs: 60_000,
    run: (r, scope) => runReconciler(kube, r, { scope, identity: 'bench-acj-lambda', leaseNamespace: LAMBDA_LEASES }),
    queue: sqsRequeueQueue({ queueUrl: sqs.queueUrl, region: REGION, credentials: async () => CREDENTIALS }),
  });
  let chain = Promise.resolve();
  const invoke = (event: unknown) => (chain = chain.then(() => handler(event)).then(() => undefined, (e: unknown) => log(`lambda: ${String(e)}`)));
  const firstSeen = new Map<string, number>();
  const poller = setInterval(() => {
    const now = Date.now();
    for (const m of sqs.messages) if (!firstSeen.has(m.messageId)) firstSeen.set(m.messageId, now);
    const due = sqs.messages.filter((m) => firstSeen.get(m.messageId)! + m.delaySeconds * 1000 <= now);
    if (!due.length) return;
    sqs.messages.splice(0, sqs.messages.length, ...sqs.messages.filter((m) => !due.includes(m)));
    invoke({ Records: due.map((m) => ({ messageId: m.messageId, body: m.body, eventSource: 'aws:sqs' })) });
  }, 50);

  try {
    await kube.create(acj(ACJ_NODE_NAMESPACE));
    await kube.create(acj(ACJ_LAMBDA_NAMESPACE));
    // What the Worker publishes when it admits the AdvancedCronJob (ObjectChanged → EventBridge → this handler).
    invoke({
      version: '0', id: 'bench-acj-created', 'detail-type': 'ObjectChanged', source: 'kruise-serverless', account: '123456789012', time: new Date().toISOString(), region: REGION, resources: [],
      detail: { clusterId: CLUSTER, apiVersion: 'apps.kruise.io/v1alpha1', kind: 'AdvancedCronJob', namespace: ACJ_LAMBDA_NAMESPACE, name: 'every-minute', reason: 'created' },
    });
    log(`advancedcronjob: two */1 AdvancedCronJobs created; waiting for ${runs} runs each (about ${runs} minutes)`);
    const deadline = Date.now() + (runs + 2) * 60_000;
    const count = (ns: string) => [...seen.values()].filter((s) => s.ns === ns).length;
    while ((count(ACJ_NODE_NAMESPACE) < runs || count(ACJ_LAMBDA_NAMESPACE) < runs) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    stop.abort();
    clearInterval(poller);
    await loop;
    await chain;
    await sqs.close();
    await watching;
  }
  const paths = [
    { path: 'Node loop (wake-up timer)', ns: ACJ_NODE_NAMESPACE },
    { path: 'Lambda handler (SQS delayed wake-up)', ns: ACJ_LAMBDA_NAMESPACE },
  ].map(({ path, ns }) => {
    const errorsMs = [...seen.values()].filter((s) => s.ns === ns).sort((a, b) => a.scheduledAt - b.scheduledAt).slice(0, runs).map((s) => s.at - s.scheduledAt);
    return { path, errorsMs, medianMs: median(errorsMs), maxMs: errorsMs.length ? Math.max(...errorsMs) : NaN };
  });
  const lines = [
    '| path | runs | scheduling error per run (ms) | median | max |',
    '|---|---|---|---|---|',
    ...paths.map((p) => `| ${p.path} | ${p.errorsMs.length} | ${p.errorsMs.join(', ')} | ${p.medianMs.toFixed(0)} ms | ${p.maxMs.toFixed(0)} ms |`),
  ];
  const goals = paths.map((p) => `${p.path}: max scheduling error ${p.maxMs.toFixed(0)} ms, goal ≤ ${GOAL_MS} ms ${p.errorsMs.length === runs && p.maxMs <= GOAL_MS ? 'met' : 'NOT met'}`);
  for (const ns of [ACJ_NODE_NAMESPACE, ACJ_LAMBDA_NAMESPACE]) await kube.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }).catch(() => undefined);
  return { lines, goals, figures: { runs, paths } };
}

/** Every Job ADDED in the cluster, with when this process saw it. */
async function watchJobs(kube: KubeHttp, signal: AbortSignal, onAdded: (job: KubeObject, at: number) => void): Promise<void> {
  while (!signal.aborted) {
    try {
      const resourceVersion = await kube.collectionVersion('batch/v1', 'Job');
      await kube.watch('batch/v1', 'Job', { resourceVersion, timeoutSeconds: 60, signal }, (e) => {
        if (e.type === 'ADDED') onAdded(e.object, Date.now());
      });
    } catch {
      if (signal.aborted) return;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
