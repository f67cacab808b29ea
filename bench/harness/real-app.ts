// The production admission path on Node without a cluster: path-secret auth against a file-style
// registry holding only the secrets' SHA-256, the dispatcher, and features reading state pushed
// through the sync API into a MemoryStateStore (instead of live reads).
import type { Hono } from 'hono';
import { buildApp } from '../../src/app.js';
import { newSecret, sha256Hex } from '../../src/edge-state/auth.js';
import { registryFromJson } from '../../src/edge-state/file-registry.js';
import { MemoryStateStore } from '../../src/edge-state/memory-store.js';
import type { WebhookEndpoint } from '../../src/admission/types.js';
import { webhookEndpoints } from '../../src/registry.js';
import { stampFeature } from '../../test/e2e/fixtures/stamp-feature.js';
import { pushNamespaces } from './namespaces.js';
import { nodeSha256 } from '../../functions/node/ports.js';

export const BENCH_CLUSTER = 'bench-cluster';

export type RealApp = { app: Hono; webhookPath: string };
export type StoredApp = { app: Hono; webhookSecret: string; syncToken: string };

/** The app serving `endpoints` for `clusterId` alone, its state empty until pushed with `syncToken`. */
export async function buildStoredApp(clusterId: string, endpoints: WebhookEndpoint[]): Promise<StoredApp> {
  const webhookSecret = newSecret();
  const syncToken = newSecret();
  const registry = registryFromJson(JSON.stringify([
    { clusterId, webhookSecrets: [{ sha256: await sha256Hex(webhookSecret) }], syncTokens: [{ sha256: await sha256Hex(syncToken) }] },
  ]));
  const store = new MemoryStateStore();
  const none = { collection: async () => undefined };
  const app = buildApp({
    endpoints,
    registry,
    state: (id) => (id === clusterId ? store : none),
    store: () => store, // only clusterId has a sync token
    hash: nodeSha256, // as the Node adapter binds it
  });
  return { app, webhookSecret, syncToken };
}

/** The stamp feature alone, with the bench namespaces pushed. */
export async function buildRealApp(): Promise<RealApp> {
  const { app, webhookSecret, syncToken } = await buildStoredApp(BENCH_CLUSTER, webhookEndpoints([stampFeature]));
  const fetch = async (input: string, init?: RequestInit) => app.request(input, init);
  await pushNamespaces({ baseUrl: 'http://bench.invalid', clusterId: BENCH_CLUSTER, syncToken, fetch });
  return { app, webhookPath: `/clusters/${BENCH_CLUSTER}/${webhookSecret}/mutate-pod` };
}
