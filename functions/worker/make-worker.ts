// Builds the Worker's fetch handler for a feature list (production: src/registry.ts FEATURES;
// tests may add their own). The app is built once per isolate. The entry exports the Durable
// Object classes beside it: ClusterObject, and makeLedgerObject(ledgerKinds(features)) as LedgerObject.
import type { ExecutionContext, Hono } from 'hono';
import { buildApp } from '../../src/app.js';
import { changeKinds, featureExplainers, ledgerKinds, relatedObjects, stateCollections, webhookEndpoints, workloadPods } from '../../src/registry.js';
import { type Feature } from '../../src/feature.js';
import { edgePorts } from './edge-ports.js';
import type { Env } from './platform.js';
import { configureWorkerTelemetry } from './analytics.js';

/** `features`: a list, or the list the Worker's environment configures (its KS_FEATURE_GATES). */
export function makeWorker(featureList: readonly Feature[] | ((env: Env) => readonly Feature[])) {
  let app: Promise<Hono> | undefined;
  return {
    // The execution context lets the app finish publishing change events after it has answered (waitUntil).
    async fetch(request: Request, env: Env, ctx?: ExecutionContext): Promise<Response> {
      if (!app) configureWorkerTelemetry(env);
      const features = typeof featureList === 'function' ? featureList(env) : featureList;
      app ??= edgePorts(env, webhookEndpoints(features), {
        changeKinds: changeKinds(features), ledgerKinds: ledgerKinds(features), relatedObjects: relatedObjects(features),
        collections: stateCollections(features), workloadPods: workloadPods(features),
      }).then((ports) => buildApp({ ...ports, explainers: featureExplainers(features) }));
      return (await app).fetch(request, env, ctx);
    },
  };
}

