import { describe, expect, it } from 'vitest';
import { edgePorts } from './edge-ports.js';
import type { DurableObjectNamespace, Env } from './platform.js';

/** A cluster object that serves one collection, answering each fetch after the test releases it. */
function slowClusters() {
  const calls: string[] = [];
  const waiting: (() => void)[] = [];
  const snapshot = { items: [{ n: 1 }], resourceVersion: '7', observedAt: 1 };
  const namespace: DurableObjectNamespace = {
    idFromName: (name) => name,
    get: () => ({
      fetch: async (url) => {
        calls.push(new URL(url).pathname);
        await new Promise<void>((r) => waiting.push(r));
        return new Response(JSON.stringify(snapshot), { status: 200 });
      },
    }),
  };
  /** Answers the pending fetches once `n` are pending. */
  const release = async (n: number) => {
    while (waiting.length < n) await new Promise((r) => setTimeout(r, 1));
    for (const r of waiting.splice(0)) r();
  };
  return { namespace, calls, release };
}

describe('edgePorts collection reads', () => {
  // A Worker request resuming on another request's fetch runs in that request's I/O context, so
  // the handlers of one request share a fetch but two requests never do.
  it('shares an in-flight fetch within a request, not across requests', async () => {
    const clusters = slowClusters();
    const ports = await edgePorts({ CLUSTERS: clusters.namespace, LEDGERS: clusters.namespace } as Env, []);
    const one = ports.state('c');
    const two = ports.state('c');
    const reads = Promise.all([one.collection('x'), one.collection('x'), two.collection('x')]);
    await clusters.release(2);
    const [a, b, c] = await reads;
    expect(clusters.calls).toEqual(['/collection/x', '/collection/x']);
    expect([a, b, c].map((s) => s?.resourceVersion)).toEqual(['7', '7', '7']);
  });
});
