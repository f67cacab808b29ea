// AWS Lambda (function URL or API Gateway): the same app, reading the cluster live.
//   KS_CLUSTER_ID, KS_CLUSTERS_JSON (registry JSON)
//   the API server, as for the reconciler: KUBECONFIG, KS_KUBECONFIG_SECRET_ARN or KS_EKS_*
//     (src/aws/kube-source-env.ts); the webhooks list live state, so without one every review fails
//   KS_EVENT_BUS_NAME (optional: publish change events for reconciled kinds, and debounced ones for
//     workload pods' status changes, to this EventBridge bus)
//   KS_EDGE_URL + KS_SYNC_TOKEN (optional: the edge whose ledgers hold this cluster's budgets)
//   KS_LOG_LEVEL, KS_DECISION_LOG_SAMPLE: JSON logs and decision lines; metrics go out as EMF (docs/metrics.md)
// Concurrent Lambda instances share no memory, so budgets are never kept here: with an edge they
// are the edge's ledgers; without one there are none, and handlers follow their declared fallback.
import { handle } from 'hono/aws-lambda';
import type { Hono } from 'hono';
import { buildApp } from '../../src/app.js';
import { featuresFromEnv, changeKinds, ledgerKinds, relatedObjects, workloadPods } from '../../src/registry.js';
import { TimerDebouncer } from '../../src/edge-state/timer-debouncer.js';
import { type Feature } from '../../src/feature.js';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { remoteLedgers } from '../../src/edge-state/ledger-client.js';
import { edgeFromEnv, livePortsFrom } from '../node/ports.js';
import { kubeSourceFromEnv } from '../../src/aws/kube-source-env.js';
import { EventBridgeSink } from '../../src/aws/change-events.js';
import { flushingAfter, lambdaTelemetry, type StdoutWrite } from '../../src/telemetry/lambda.js';
import { telemetry } from '../../src/telemetry/telemetry.js';

type LambdaHandler = ReturnType<typeof handle>;

export function makeLambdaHandler(features: readonly Feature[], env: Record<string, string | undefined> = process.env, write?: StdoutWrite): LambdaHandler {
  const flushMetrics = lambdaTelemetry(env, write);
  let app: Promise<Hono> | undefined;
  const clusterId = env.KS_CLUSTER_ID ?? '';
  const edge = edgeFromEnv(env, clusterId);
  const makeApp = async (): Promise<Hono> => {
    const kube = kubeSourceFromEnv(env);
    // Connect now: a cluster that cannot be reached fails every request, the configuration probe's
    // included, so `install` sees it (src/install/probe-wait.ts).
    await kube();
    const sink = env.KS_EVENT_BUS_NAME ? new EventBridgeSink(new EventBridgeClient({}), { eventBusName: env.KS_EVENT_BUS_NAME }) : undefined;
    const onError = (e: unknown) => telemetry().log.error('change event not published', { error: String(e) });
    const pods = workloadPods(features);
    return buildApp(livePortsFrom(kube, {
      clusterId,
      registryJson: env.KS_CLUSTERS_JSON ?? '[]',
      features,
      ...(edge ? { ledgers: remoteLedgers(edge) } : {}),
      ...(sink
        ? {
            changes: {
              sink,
              kinds: changeKinds(features),
              ledgerKinds: ledgerKinds(features),
              related: relatedObjects(features),
              // Per execution environment: held events wait while it is frozen (timer-debouncer.ts).
              ...(pods.length ? { workloadPods: pods, debounce: new TimerDebouncer(sink, { onError }) } : {}),
              onError,
            },
          }
        : {}),
    }));
  };
  const handler = async (event: Parameters<LambdaHandler>[0], context: Parameters<LambdaHandler>[1]) => {
    if (!app) {
      const made = makeApp();
      // A failure (cluster unreachable, secret unreadable) is retried by the next invocation
      // instead of failing every later one in this execution environment.
      made.catch(() => app === made && (app = undefined));
      app = made;
    }
    return handle(await app)(event, context);
  };
  return flushingAfter(handler, flushMetrics) as LambdaHandler;
}

export const handler = makeLambdaHandler(featuresFromEnv(process.env));
