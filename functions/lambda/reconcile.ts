// AWS Lambda reconcile entry: EventBridge's schedule and ObjectChanged events, and SQS batches of
// wake-ups, each handled by src/aws/reconcile-handler.ts over the production wiring
// (src/aws/reconcile-wiring.ts). This file binds the environment and returns what Lambda reads.
//   KS_CLUSTER_ID               the cluster this function reconciles (events for others are ignored)
//   the API server: KUBECONFIG, KS_KUBECONFIG_SECRET_ARN or KS_EKS_* (src/aws/kube-source-env.ts)
//   optionally:
//   KS_EDGE_URL + KS_SYNC_TOKEN the edge (Worker) to push webhook state to and whose ledgers runs use
//   KS_REQUEUE_QUEUE_URL        the SQS queue for wake-ups (unset: they are logged as not scheduled)
//   KS_RESYNC_SECONDS           the schedule's period (60; 0 = no schedule): wake-ups due after the
//                               next scheduled resync are not sent, as that resync covers them
//   KS_LOG_LEVEL                JSON logs; metrics go out as EMF lines (docs/metrics.md)
import { credentialsFromEnv } from '../../src/aws/eks-token.js';
import { kubeSourceFromEnv } from '../../src/aws/kube-source-env.js';
import { lambdaResult, type ReconcileHandler, type ReconcileSummary, type SqsBatchResponse } from '../../src/aws/reconcile-handler.js';
import { wireReconcileHandler } from '../../src/aws/reconcile-wiring.js';
import type { RequeueQueue } from '../../src/aws/requeue.js';
import { sqsRequeueQueue } from '../../src/aws/sqs-fetch.js';
import { edgeFromEnv } from '../node/ports.js';
import { flushingAfter, lambdaTelemetry, type StdoutWrite } from '../../src/telemetry/lambda.js';
import { telemetry } from '../../src/telemetry/telemetry.js';

export { kubeSourceFromEnv };

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
    log: reconcileLogLine,
    resyncEveryMs: resyncSecondsFromEnv(env) * 1000,
    ...(edge ? { edge } : {}),
    ...(queue ? { queue } : {}),
  });
}

/** The invocation's summary (a JSON line) as a field of its log line; other messages as they are. */
export function reconcileLogLine(m: string): void {
  let summary: { ok?: unknown } | undefined;
  try {
    summary = m.startsWith('{') ? (JSON.parse(m) as { ok?: unknown }) : undefined;
  } catch {
    summary = undefined;
  }
  if (summary) telemetry().log[summary.ok === false ? 'warn' : 'info']('reconcile invocation', { summary });
  else telemetry().log.info(m);
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

/**
 * The Lambda entry over a wiring (production: the environment's, handlerFromEnv). Its JSON logs
 * and the invocation's EMF metrics go to `write` (stdout).
 */
export function makeReconcileLambda(
  env: Record<string, string | undefined>,
  wire: (env: Record<string, string | undefined>) => Promise<ReconcileHandler> = handlerFromEnv,
  write?: StdoutWrite,
): (event: unknown, context?: unknown) => Promise<ReconcileSummary | SqsBatchResponse> {
  const flushMetrics = lambdaTelemetry(env, write);
  let wired: Promise<ReconcileHandler> | undefined;
  return flushingAfter(async (event: unknown, context?: unknown) => {
    if (!wired) {
      const wiring = wire(env);
      wiring.catch(() => wired === wiring && (wired = undefined));
      wired = wiring;
    }
    return lambdaResult(await (await wired)(event, context));
  }, flushMetrics);
}

export const handler = makeReconcileLambda(process.env);
