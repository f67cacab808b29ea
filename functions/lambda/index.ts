// AWS Lambda (function URL or API Gateway): the same app, reading the cluster live.
//   KS_CLUSTER_ID, KS_CLUSTERS_JSON (registry JSON), KUBECONFIG (path, e.g. from a layer or /tmp),
//   KS_EVENT_BUS_NAME (optional: publish change events for reconciled kinds, and debounced ones for
//     workload pods' status changes, to this EventBridge bus)
//   KS_EDGE_URL + KS_SYNC_TOKEN (optional: the edge whose ledgers hold this cluster's budgets)
// Concurrent Lambda instances share no memory, so budgets are never kept here: with an edge they
// are the edge's ledgers; without one there are none, and handlers follow their declared fallback.
import { handle } from 'hono/aws-lambda';
import type { Hono } from 'hono';
import { buildApp } from '../../src/app.js';
import { FEATURES, changeKinds, ledgerKinds, relatedObjects, workloadPods } from '../../src/registry.js';
import { TimerDebouncer } from '../../src/edge-state/timer-debouncer.js';
import { type Feature } from '../../src/feature.js';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { remoteLedgers } from '../../src/edge-state/ledger-client.js';
import { edgeFromEnv, livePorts } from '../node/ports.js';
import { EventBridgeSink } from '../../src/aws/change-events.js';

type LambdaHandler = ReturnType<typeof handle>;

export function makeLambdaHandler(features: readonly Feature[], env: Record<string, string | undefined> = process.env): LambdaHandler {
  let app: Promise<Hono> | undefined;
  const clusterId = env.KS_CLUSTER_ID ?? '';
  const edge = edgeFromEnv(env, clusterId);
  const makeApp = (): Promise<Hono> => {
    const sink = env.KS_EVENT_BUS_NAME ? new EventBridgeSink(new EventBridgeClient({}), { eventBusName: env.KS_EVENT_BUS_NAME }) : undefined;
    const onError = (e: unknown) => console.error(`change event not published: ${String(e)}`);
    const pods = workloadPods(features);
    return livePorts({
      clusterId,
      registryJson: env.KS_CLUSTERS_JSON ?? '[]',
      kubeconfigPath: env.KUBECONFIG,
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
    }).then(buildApp);
  };
  const handler: LambdaHandler = async (event, context) => {
    app ??= makeApp();
    return handle(await app)(event, context);
  };
  return handler;
}

export const handler = makeLambdaHandler(FEATURES);
