// AWS Lambda reconcile entry. Invoked by
//   EventBridge every minute (Scheduled Event → a full resync of every reconciler, then a push of
//     what webhooks read to the edge),
//   EventBridge for each ObjectChanged event a webhook published (→ the reconcilers of that kind,
//     for that object; see src/aws/route-event.ts),
//   SQS with batches of wake-ups earlier runs asked for (Plan.requeueAfterMs, or a retry when another
//     invocation held the lease; see src/aws/requeue.ts and src/aws/route-sqs.ts).
// After any run that asks for a wake-up it sends one to the queue; after a triggered run that wrote
// to the cluster it pushes to the edge too. This file binds the environment and reports.
//   KS_CLUSTER_ID               the cluster this function reconciles (events for others are ignored)
//   then one of, in this order:
//   KUBECONFIG                  path to a kubeconfig file (e.g. in a layer)
//   KS_KUBECONFIG_SECRET_ARN    a Secrets Manager secret whose text is the kubeconfig YAML
//   KS_EKS_CLUSTER, KS_EKS_ENDPOINT, KS_EKS_CA_DATA   an EKS cluster; the bearer token is minted from
//                               the execution role (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
//                               AWS_SESSION_TOKEN) for AWS_REGION
//   optionally:
//   KS_EDGE_URL + KS_SYNC_TOKEN the edge (Worker) to push webhook state to and whose ledgers runs use
//   KS_REQUEUE_QUEUE_URL        the SQS queue for wake-ups (unset: they are logged as not scheduled)
//   KS_RESYNC_SECONDS           the schedule's period (60; 0 = no schedule): wake-ups due after the
//                               next scheduled resync are not sent, as that resync covers them
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { cachedEksToken, credentialsFromEnv } from '../../src/aws/eks-token.js';
import { eksKubeSource, kubeConfigSource, readKubeconfigSecret, type KubeSource, type SecretsClient } from '../../src/aws/kube-source.js';
import { coveredByResync, dedupeRequeues, requeueFor, scheduledRequeueFor, toQueuedMessage, type Requeue, type RequeueQueue } from '../../src/aws/requeue.js';
import { routeEvent, type PlannedRun, type Route } from '../../src/aws/route-event.js';
import { isSqsEvent, routeSqsRecords } from '../../src/aws/route-sqs.js';
import { sqsRequeueQueue } from '../../src/aws/sqs-fetch.js';
import { loadKubeConnection } from '../../src/kube/kubeconfig.js';
import type { Reconciler, RunReport, Scope } from '../../src/reconcile/types.js';
import type { EdgeTarget } from '../../src/edge-state/push.js';
import { edgeFromEnv } from '../node/ports.js';

export type ReconcileDeps = {
  reconcilers: readonly Reconciler[];
  run: (reconciler: Reconciler, scope: Scope) => Promise<RunReport>;
  clusterId: string;
  log?: (line: string) => void;
  /** Push the state webhooks read to the edge: after every scheduled resync, and after a triggered run that wrote. */
  pushEdge?: () => Promise<string[]>;
  /** Where wake-ups go; without a queue they are reported as not scheduled. */
  queue?: RequeueQueue;
  /** The scheduled resync's period: wake-ups due after the next resync are not sent. Absent or 0: no schedule. */
  resyncEveryMs?: number;
  now?: () => number;
};

export type RunSummary = {
  reconciler: string;
  apiVersion: string;
  /** 'all', or the objects as `namespace/name` (`name` when cluster-scoped). */
  scope: 'all' | string[];
  acted: boolean;
  applied: number;
  conflicts: number;
  failed: number;
  apiCalls: number;
  durationMs: number;
  /** The run threw (observe failed, lease unreachable …); the next run starts afresh. */
  error?: string;
};

export type RequeueNote = {
  reconciler: string;
  scope: RunSummary['scope'];
  dueAt: string;
  delaySeconds: number;
  status: 'sent' | 'failed' | 'not scheduled' | 'covered by resync';
  error?: string;
};

export type ReconcileSummary = {
  /** false when the event (or a record) was invalid, a run threw, a write failed, or a wake-up or push could not be sent. */
  ok: boolean;
  trigger: Route['trigger'] | 'requeue';
  eventId?: string;
  /** Why an event was ignored, or what is wrong with an invalid one. */
  message?: string;
  runs: RunSummary[];
  /** The wake-ups runs asked for (and records not yet due, sent again). */
  requeues?: RequeueNote[];
  /** What was pushed to the edge (collection: mode changed/items). */
  pushed?: string[];
  /** SQS records acknowledged without running, and why. */
  skipped?: string[];
  /** SQS: the records to deliver again (invalid, their run threw, or their wake-up was not sent). */
  batchItemFailures?: { itemIdentifier: string }[];
};

export type SqsBatchResponse = { batchItemFailures: { itemIdentifier: string }[] };

export type ReconcileHandler = (event: unknown, context?: unknown) => Promise<ReconcileSummary>;

type Executed = { run: PlannedRun; summary: RunSummary; report?: RunReport; records: string[]; resyncBy?: number };

/**
 * After an event or the schedule, a run sends its scheduled times; after a wake-up, only a run that
 * wrote to the cluster (an Event alone does not count: a duplicate repeats it), see Plan.scheduledAfterMs.
 */
const afterEvent = () => true;
const wrote = (e: Executed) => wroteToCluster(e);

export function makeReconcileHandler(deps: ReconcileDeps): ReconcileHandler {
  const log = deps.log ?? (() => undefined);
  return async (event) => {
    const summary = isSqsEvent(event) ? await onRequeues(deps, event.Records) : await onEvent(deps, event);
    log(JSON.stringify(summary));
    return summary;
  };
}

/** What Lambda should get back: for an SQS batch only the partial-batch response it reads. */
export function lambdaResult(summary: ReconcileSummary): ReconcileSummary | SqsBatchResponse {
  return summary.batchItemFailures ? { batchItemFailures: summary.batchItemFailures } : summary;
}

async function onEvent(deps: ReconcileDeps, event: unknown): Promise<ReconcileSummary> {
  const route = routeEvent(event, deps.reconcilers, deps.clusterId);
  const eventId = typeof (event as { id?: unknown } | null)?.id === 'string' ? (event as { id: string }).id : undefined;
  const base = { trigger: route.trigger, ...(eventId ? { eventId } : {}) };
  if (route.trigger === 'invalid') return { ...base, ok: false, message: route.error, runs: [] };
  if (route.trigger === 'ignored') return { ...base, ok: true, message: route.reason, runs: [] };
  const now = deps.now ?? Date.now;
  const executed = await runAll(deps, route.runs.map((run) => ({ run, records: [] })));
  const resyncBy = deps.resyncEveryMs ? now() + deps.resyncEveryMs : undefined;
  const summary: ReconcileSummary = { ...base, ok: runsOk(executed), runs: executed.map((e) => e.summary) };
  if (route.trigger === 'object-changed' && executed.length === 0) summary.message = `no reconciler for ${route.event.apiVersion} ${route.event.kind}`;
  const sent = await sendRequeues(deps, wakeUps(deps, executed, (e) => e.resyncBy ?? resyncBy, afterEvent));
  if (sent.notes.length) summary.requeues = sent.notes;
  if (sent.notes.some((n) => n.status === 'failed')) summary.ok = false;
  await pushIf(deps, summary, route.trigger === 'schedule' || executed.some(wroteToCluster));
  return summary;
}

async function onRequeues(deps: ReconcileDeps, records: readonly unknown[]): Promise<ReconcileSummary> {
  const now = deps.now ?? Date.now;
  const route = routeSqsRecords(records, deps.reconcilers, deps.clusterId, now());
  const executed = await runAll(deps, route.runs.map(({ records: ids, resyncBy, ...run }) => ({ run, records: ids, ...(resyncBy !== undefined ? { resyncBy } : {}) })));
  const failed = new Set<string>([...route.invalid.map((i) => i.messageId), ...executed.filter((e) => e.summary.error).flatMap((e) => e.records)]);
  const sent = await sendRequeues(deps, [...route.notYetDue, ...wakeUps(deps, executed, (e) => e.resyncBy, wrote)]);
  for (const id of sent.failed) failed.add(id);
  const summary: ReconcileSummary = {
    ok: runsOk(executed) && route.invalid.length === 0 && failed.size === 0,
    trigger: 'requeue',
    runs: executed.map((e) => e.summary),
    ...(route.invalid.length ? { message: route.invalid.map((i) => `${i.messageId || '(no id)'}: ${i.error}`).join('; ') } : {}),
    ...(sent.notes.length ? { requeues: sent.notes } : {}),
    ...(route.skipped.length ? { skipped: route.skipped.map((s) => `${s.messageId}: ${s.reason}`) } : {}),
    // An empty itemIdentifier would fail the whole batch; a record without an id cannot be retried alone.
    batchItemFailures: [...failed].filter(Boolean).map((itemIdentifier) => ({ itemIdentifier })),
  };
  await pushIf(deps, summary, executed.some(wroteToCluster));
  return summary;
}

// One at a time, in registry order, as the CLI does: a full resync should not burst the API server.
async function runAll(deps: ReconcileDeps, planned: { run: PlannedRun; records: string[]; resyncBy?: number }[]): Promise<Executed[]> {
  const out: Executed[] = [];
  for (const p of planned) out.push({ ...p, ...(await runOne(deps.run, p.run.reconciler, p.run.scope)) });
  return out;
}

const runsOk = (executed: readonly Executed[]) => executed.every((e) => !e.summary.error && e.summary.failed === 0);

/** Pushed collections only change through API writes, so events or ledger writes alone do not call for a push. */
const wroteToCluster = ({ report: r }: Executed) => r !== undefined && r.applied > 0 && (r.plan.writes.length > 0 || r.plan.status.length > 0);

function wakeUps(deps: ReconcileDeps, executed: readonly Executed[], horizon: (e: Executed) => number | undefined, passOn: (e: Executed) => boolean): Requeue[] {
  const now = (deps.now ?? Date.now)();
  return executed.flatMap((e) => {
    if (!e.report) return [];
    const { apiVersion, kind } = e.run.reconciler;
    const resyncBy = horizon(e);
    const run = { apiVersion, kind, scope: e.run.scope, report: e.report };
    const r = requeueFor(run, { clusterId: deps.clusterId, now, from: e.records, ...(resyncBy !== undefined ? { resyncBy } : {}) });
    const scheduled = scheduledRequeueFor(run, { clusterId: deps.clusterId, now, from: e.records, passOn: passOn(e) });
    return [...(r ? [r] : []), ...(scheduled ? [scheduled] : [])];
  });
}

async function sendRequeues(deps: ReconcileDeps, requeues: readonly Requeue[]): Promise<{ notes: RequeueNote[]; failed: string[] }> {
  const now = (deps.now ?? Date.now)();
  const note = (r: Requeue, status: RequeueNote['status'], error?: string): RequeueNote => {
    const m = toQueuedMessage(r, now);
    return { reconciler: r.body.kind, scope: describeScope(r.body.scope), dueAt: r.body.dueAt, delaySeconds: m.delaySeconds, status, ...(error ? { error } : {}) };
  };
  const covered = requeues.filter((r) => coveredByResync(r.body));
  const toSend = dedupeRequeues(requeues.filter((r) => !coveredByResync(r.body)));
  const notes = covered.map((r) => note(r, 'covered by resync'));
  if (!toSend.length) return { notes, failed: [] };
  if (!deps.queue) return { notes: [...notes, ...toSend.map((r) => note(r, 'not scheduled', 'no requeue queue (KS_REQUEUE_QUEUE_URL) configured'))], failed: [] };
  let rejected: { index: number; error: string }[];
  try {
    rejected = await deps.queue.send(toSend.map((r) => toQueuedMessage(r, now)));
  } catch (e) {
    rejected = toSend.map((_, index) => ({ index, error: e instanceof Error ? e.message : String(e) }));
  }
  const errors = new Map(rejected.map((f) => [f.index, f.error]));
  return {
    notes: [...notes, ...toSend.map((r, i) => (errors.has(i) ? note(r, 'failed', errors.get(i)) : note(r, 'sent')))],
    failed: [...errors.keys()].flatMap((i) => toSend[i]?.from ?? []),
  };
}

async function pushIf(deps: ReconcileDeps, summary: ReconcileSummary, wanted: boolean): Promise<void> {
  if (!wanted || !deps.pushEdge) return;
  try {
    summary.pushed = await deps.pushEdge();
  } catch (e) {
    summary.ok = false;
    summary.message = [summary.message, `edge push failed: ${e instanceof Error ? e.message : String(e)}`].filter(Boolean).join('; ');
  }
}

async function runOne(run: ReconcileDeps['run'], reconciler: Reconciler, scope: Scope): Promise<{ summary: RunSummary; report?: RunReport }> {
  const head = { reconciler: reconciler.kind, apiVersion: reconciler.apiVersion, scope: describeScope(scope) };
  const started = Date.now();
  try {
    const r = await run(reconciler, scope);
    return { summary: { ...head, acted: r.acted, applied: r.applied, conflicts: r.conflicts, failed: r.failed.length, apiCalls: r.apiCalls, durationMs: r.durationMs }, report: r };
  } catch (e) {
    return { summary: { ...head, acted: false, applied: 0, conflicts: 0, failed: 0, apiCalls: 0, durationMs: Date.now() - started, error: e instanceof Error ? e.message : String(e) } };
  }
}

function describeScope(scope: Scope): RunSummary['scope'] {
  return scope.kind === 'all' ? 'all' : scope.objects.map((o) => (o.namespace ? `${o.namespace}/${o.name}` : o.name));
}

/** The API-server client this environment describes (see the header). Builds nothing until first called. */
export function kubeSourceFromEnv(env: Record<string, string | undefined>, secrets?: () => SecretsClient): KubeSource {
  if (env.KUBECONFIG) {
    const path = env.KUBECONFIG;
    return kubeConfigSource(() => loadKubeConnection(path));
  }
  if (env.KS_KUBECONFIG_SECRET_ARN) {
    const arn = env.KS_KUBECONFIG_SECRET_ARN;
    const client = secrets ?? (() => new SecretsManagerClient({}));
    return kubeConfigSource(() => readKubeconfigSecret(client(), arn));
  }
  const missing = ['KS_EKS_CLUSTER', 'KS_EKS_ENDPOINT', 'KS_EKS_CA_DATA', 'AWS_REGION'].filter((k) => !env[k]);
  if (missing.length) {
    throw new Error(`no cluster configured: set KUBECONFIG, KS_KUBECONFIG_SECRET_ARN, or KS_EKS_CLUSTER + KS_EKS_ENDPOINT + KS_EKS_CA_DATA (missing: ${missing.join(', ')})`);
  }
  const cluster = { name: env.KS_EKS_CLUSTER!, endpoint: env.KS_EKS_ENDPOINT!, caData: env.KS_EKS_CA_DATA! };
  return eksKubeSource(cluster, cachedEksToken({ clusterName: cluster.name, region: env.AWS_REGION!, credentials: credentialsFromEnv(env) }));
}

/** Wires the real reconcilers and runner; imported lazily so a cold start only loads them when first invoked. */
async function handlerFromEnv(env: Record<string, string | undefined>): Promise<ReconcileHandler> {
  const clusterId = env.KS_CLUSTER_ID;
  if (!clusterId) throw new Error('KS_CLUSTER_ID must be set to the cluster id webhooks put in change events');
  const edge = edgeFromEnv(env, clusterId);
  const queue = requeueQueueFromEnv(env);
  return wireReconcileHandler({
    clusterId,
    kube: kubeSourceFromEnv(env),
    // One invocation at a time per execution environment, so its log stream names the lease holder;
    // runReconciler releases the lease when done.
    identity: `lambda-${env.AWS_LAMBDA_LOG_STREAM_NAME ?? process.pid}`,
    log: (m) => console.log(m),
    resyncEveryMs: resyncSecondsFromEnv(env) * 1000,
    ...(edge ? { edge } : {}),
    ...(queue ? { queue } : {}),
  });
}

export type ReconcileWiring = {
  clusterId: string;
  kube: KubeSource;
  identity: string;
  log: (line: string) => void;
  resyncEveryMs: number;
  /** The edge to push webhook state to and whose ledgers runs use. */
  edge?: EdgeTarget;
  queue?: RequeueQueue;
};

/** The production handler over the real reconcilers, runner, pushes and ledgers (the e2e drives it too). */
export async function wireReconcileHandler(w: ReconcileWiring): Promise<ReconcileHandler> {
  const [{ reconcilersFromEnv }, { runReconciler }] = await Promise.all([import('../../src/reconcilers.js'), import('../../src/reconcile/runner.js')]);
  const { edge, kube, log } = w;
  const pushEdge = edge
    ? async () => {
        const [{ pushCollections }, { stateCollections }] = await Promise.all([import('../../src/edge-state/push.js'), import('../../src/registry.js')]);
        const k = await kube();
        return (await pushCollections(edge, (v, kind, o) => k.list(v, kind, o), stateCollections())).map((p) => `${p.collection}: ${p.mode} ${p.changed}/${p.items}`);
      }
    : undefined;
  const ledgers = edge ? (await import('../../src/edge-state/ledger-client.js')).remoteLedgers(edge) : undefined;
  if (!w.queue) log('KS_REQUEUE_QUEUE_URL is not set: wake-ups that runs ask for are not scheduled; the schedule alone converges');
  return makeReconcileHandler({
    reconcilers: reconcilersFromEnv(process.env),
    clusterId: w.clusterId,
    log,
    run: async (reconciler, scope) => runReconciler(await kube(), reconciler, { scope, identity: w.identity, log, ...(ledgers ? { ledgers } : {}) }),
    resyncEveryMs: w.resyncEveryMs,
    ...(pushEdge ? { pushEdge } : {}),
    ...(w.queue ? { queue: w.queue } : {}),
  });
}

/** KS_REQUEUE_QUEUE_URL: SendMessageBatch signed with the execution role's credentials. */
export function requeueQueueFromEnv(env: Record<string, string | undefined>): RequeueQueue | undefined {
  const queueUrl = env.KS_REQUEUE_QUEUE_URL;
  if (!queueUrl) return undefined;
  // https://sqs.<region>.amazonaws.com/…; Lambda sets AWS_REGION anyway.
  const region = env.AWS_REGION ?? /^sqs\.([a-z0-9-]+)\./.exec(new URL(queueUrl).hostname)?.[1];
  if (!region) throw new Error(`KS_REQUEUE_QUEUE_URL "${queueUrl}": set AWS_REGION, the queue's Region`);
  return sqsRequeueQueue({ queueUrl, region, credentials: credentialsFromEnv(env) });
}

export function resyncSecondsFromEnv(env: Record<string, string | undefined>): number {
  const text = env.KS_RESYNC_SECONDS ?? '60';
  const seconds = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(seconds)) throw new Error(`KS_RESYNC_SECONDS "${text}": expected whole seconds (0: no scheduled resync)`);
  return seconds;
}

let wired: Promise<ReconcileHandler> | undefined;
export const handler = async (event: unknown, context?: unknown): Promise<ReconcileSummary | SqsBatchResponse> => {
  if (!wired) {
    const wiring = handlerFromEnv(process.env);
    wiring.catch(() => wired === wiring && (wired = undefined));
    wired = wiring;
  }
  return lambdaResult(await (await wired)(event, context));
};
