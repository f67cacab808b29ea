// Issue 27, "stay up under load": the long-running mode (`reconcile` with an edge, as `npm start`
// runs it) with more watches open than the API client may have requests in flight. Two replicas
// of the loop share one client here — every reconciler of each, real reconcilers, real pushes to
// the production Worker. Watches have their own connections, so a LIST and the pushes still
// complete; they used to wait in one 32-socket pool until some watch ended (up to 60 s each).
import { inject, afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../src/cli/reconcile.js';
import { MAX_IN_FLIGHT } from '../../src/kube/client-limits.js';
import { FEATURES } from '../../src/registry.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { eventually } from './support/kube.js';

let env: EdgeEnv;

beforeAll(async () => {
  env = await startEdgeEnv('ld', FEATURES);
});

afterAll(async () => {
  await env?.dispose();
});

describe('the long-running mode under more watches than request slots', () => {
  it('a LIST and a push still complete', { timeout: 90_000 }, async () => {
    const { kube } = env;
    // Counts the watches the loops have open on this client.
    let watching = 0;
    const watch = kube.watch.bind(kube);
    kube.watch = async (...args: Parameters<typeof watch>) => {
      watching += 1;
      try {
        return await watch(...args);
      } finally {
        watching -= 1;
      }
    };
    const stop = new AbortController();
    const pushes: string[] = [];
    const replica = (i: number) =>
      reconcile(kube, {
        once: false, dryRun: false, resyncSeconds: 5, watch: true, identity: `ld-${i}`, signal: stop.signal,
        edge: { url: env.worker.url, clusterId: env.clusterId, syncToken: env.edge.syncToken, caFile: inject('caCert') },
        log: (m) => /^pushed \d+ collections/.test(m) && pushes.push(m), out: () => undefined,
      });
    const replicas = [replica(1), replica(2)];
    try {
      await eventually('more watches open than requests may be in flight', async () => (watching > MAX_IN_FLIGHT ? true : undefined), 60_000);
      const pushedBefore = pushes.length;
      const namespaces = await kube.list('v1', 'Namespace');
      expect(namespaces.items.some((n) => n.metadata?.name === env.ns)).toBe(true);
      await eventually('a push after the watches opened', async () => (pushes.length > pushedBefore ? true : undefined), 45_000);
      expect(pushes.at(-1)).not.toMatch(/failed/);
      expect(watching).toBeGreaterThan(MAX_IN_FLIGHT);
    } finally {
      stop.abort();
      await Promise.all(replicas);
      kube.watch = watch;
    }
  });
});
