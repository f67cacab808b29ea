// AWS Lambda (function URL or API Gateway): the same app, reading the cluster live.
//   KS_CLUSTER_ID, KS_CLUSTERS_JSON (registry JSON), KUBECONFIG (path, e.g. from a layer or /tmp),
//   KS_EVENT_BUS_NAME (optional: publish change events for reconciled kinds to this EventBridge bus)
import { handle } from 'hono/aws-lambda';
import type { Hono } from 'hono';
import { buildApp } from '../../src/app.js';
import { FEATURES, changeKinds, type Feature } from '../../src/registry.js';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { livePorts } from '../node/ports.js';
import { EventBridgeSink } from '../../src/aws/change-events.js';

type LambdaHandler = ReturnType<typeof handle>;

export function makeLambdaHandler(features: readonly Feature[], env: Record<string, string | undefined> = process.env): LambdaHandler {
  let app: Promise<Hono> | undefined;
  const handler: LambdaHandler = async (event, context) => {
    app ??= livePorts({
      clusterId: env.KS_CLUSTER_ID ?? '',
      registryJson: env.KS_CLUSTERS_JSON ?? '[]',
      kubeconfigPath: env.KUBECONFIG,
      features,
      ...(env.KS_EVENT_BUS_NAME
        ? {
            changes: {
              sink: new EventBridgeSink(new EventBridgeClient({}), { eventBusName: env.KS_EVENT_BUS_NAME }),
              kinds: changeKinds(features),
              onError: (e: unknown) => console.error(`change event not published: ${String(e)}`),
            },
          }
        : {}),
    }).then(buildApp);
    return handle(await app)(event, context);
  };
  return handler;
}

export const handler = makeLambdaHandler(FEATURES);
