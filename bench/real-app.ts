// The production admission path on Node without a cluster: path-secret auth against a file-style
// registry holding only the secret's SHA-256, the dispatcher, and the stamp feature reading
// namespaces pushed through the sync API into a MemoryStateStore (instead of live reads).
import type { Hono } from 'hono';
import { buildApp } from '../src/app.js';
import { newSecret, sha256Hex } from '../src/admission/auth.js';
import { registryFromJson } from '../src/admission/file-registry.js';
import { MemoryStateStore } from '../src/admission/memory-store.js';
import { webhookEndpoints } from '../src/registry.js';
import { stampFeature } from '../test/e2e/fixtures/stamp-feature.js';
import { pushNamespaces } from './namespaces.js';
import { nodeSha256 } from '../functions/node/ports.js';

export const BENCH_CLUSTER = 'bench-cluster';

export type RealApp = { app: Hono; webhookPath: string };

export async function buildRealApp(): Promise<RealApp> {
  const webhookSecret = newSecret();
  const syncToken = newSecret();
  const registry = registryFromJson(JSON.stringify([
    { clusterId: BENCH_CLUSTER, webhookSecrets: [{ sha256: await sha256Hex(webhookSecret) }], syncTokens: [{ sha256: await sha256Hex(syncToken) }] },
  ]));
  const store = new MemoryStateStore();
  const none = { collection: async () => undefined };
  const app = buildApp({
    endpoints: webhookEndpoints([stampFeature]),
    registry,
    state: (clusterId) => (clusterId === BENCH_CLUSTER ? store : none),
    store: () => store, // only BENCH_CLUSTER has a sync token
    hash: nodeSha256, // as the Node adapter binds it
  });
  const fetch = async (input: string, init?: RequestInit) => app.request(input, init);
  await pushNamespaces({ baseUrl: 'http://bench.invalid', clusterId: BENCH_CLUSTER, syncToken, fetch });
  return { app, webhookPath: `/clusters/${BENCH_CLUSTER}/${webhookSecret}/mutate-pod` };
}
