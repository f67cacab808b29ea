// The pusher against the real app (in memory, no network): first a replace, then diffs; and
// edge calls that get no answer.
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { MemoryStateStore } from './memory-store.js';
import { sha256Hex } from './auth.js';
import { describePush, heldCollections, pushCollection, pushEachCollection, PushError, type Fetch } from './push.js';
import { applyLedger } from './ledger-client.js';
import { LedgerOpFailedError } from './ledger-http.js';

const spec = { name: 'namespaces', apiVersion: 'v1', kind: 'Namespace' };
const ns = (name: string, rv: string) => ({ metadata: { name, resourceVersion: rv, labels: { team: 'a' }, managedFields: [{ manager: 'x' }] } });

async function setup() {
  const store = new MemoryStateStore();
  const creds = { clusterId: 'c1', webhookSecrets: [], syncTokens: [{ sha256: await sha256Hex('tok') }] };
  const app = buildApp({ endpoints: [], registry: { credentials: async (id) => (id === 'c1' ? creds : undefined) }, state: () => store, store: () => store });
  const fetch: Fetch = async (input, init) => app.request(input, init);
  return { store, edge: { baseUrl: 'http://edge', clusterId: 'c1', syncToken: 'tok', fetch } };
}

describe('heldCollections', () => {
  it('names what the edge holds pushed state of, and refuses a wrong token', async () => {
    const { edge } = await setup();
    expect(await heldCollections(edge)).toEqual(new Set());
    await pushCollection(edge, async () => ({ items: [ns('a', '1')], resourceVersion: '1' }), spec);
    expect(await heldCollections(edge)).toEqual(new Set(['namespaces']));
    await expect(heldCollections({ ...edge, syncToken: 'wrong' })).rejects.toBeInstanceOf(PushError);
  });
});

describe('pushCollection', () => {
  it('replaces first, then sends only what changed', async () => {
    const { store, edge } = await setup();
    let live = { items: [ns('a', '1'), ns('b', '2')], resourceVersion: '2' };
    const list = async () => live;
    let t = 1000;
    const first = await pushCollection(edge, list, spec, () => t);
    expect(first).toMatchObject({ mode: 'replace', items: 2, changed: 2 });
    live = { items: [ns('a', '1'), ns('c', '4')], resourceVersion: '4' };
    t = 2000;
    const second = await pushCollection(edge, list, spec, () => t);
    expect(second).toMatchObject({ mode: 'patch', items: 2, changed: 2 });
    const snap = await store.collection<{ metadata: { name: string; managedFields?: unknown } }>('namespaces');
    expect(snap?.items.map((i) => i.metadata.name).sort()).toEqual(['a', 'c']);
    expect(snap?.items[0]?.metadata.managedFields).toBeUndefined();
    expect(snap).toMatchObject({ resourceVersion: '4', observedAt: 2000 });
  });

  it('is refused with a wrong token', async () => {
    const { edge } = await setup();
    const list = async () => ({ items: [ns('a', '1')], resourceVersion: '1' });
    await expect(pushCollection({ ...edge, syncToken: 'nope' }, list, spec)).rejects.toBeInstanceOf(PushError);
  });

  it('a push superseded by a later snapshot (another pusher) is done, and leaves the later one', async () => {
    const { store, edge } = await setup();
    await pushCollection(edge, async () => ({ items: [ns('a', '2'), ns('b', '2')], resourceVersion: '2' }), spec, () => 5000);
    const late = await pushCollection(edge, async () => ({ items: [ns('a', '1')], resourceVersion: '1' }), spec, () => 4000);
    expect(late.changed).toBe(0);
    expect(await store.collection('namespaces')).toMatchObject({ resourceVersion: '2', observedAt: 5000 });
  });
});

describe('pushEachCollection', () => {
  it('pushes every collection when one fails, and the line names the failure', async () => {
    const { store, edge } = await setup();
    const specs = [{ name: 'broken', apiVersion: 'v1', kind: 'Broken' }, spec];
    const list = async (_v: string, kind: string) => {
      if (kind === 'Broken') throw new Error('GET /api/v1/brokens: 500 boom');
      return { items: [ns('a', '1')], resourceVersion: '1' };
    };
    const { results, failures } = await pushEachCollection(edge, list, specs);
    expect(results.map((r) => r.collection)).toEqual(['namespaces']);
    expect(failures).toEqual([{ collection: 'broken', error: 'GET /api/v1/brokens: 500 boom' }]);
    expect((await store.collection('namespaces'))?.items).toHaveLength(1);
    expect(describePush(results, 12, failures)).toBe('pushed 1 collections, 1 changed (1 items), 1 failed (broken: GET /api/v1/brokens: 500 boom), 12 ms');
  });
});

/** An edge that never answers; the call ends only when its signal aborts. */
const silentFetch: Fetch = (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));

describe('edge calls time out', () => {
  it('a push to an edge that does not answer fails within the call timeout', async () => {
    const edge = { baseUrl: 'http://edge', clusterId: 'c1', syncToken: 'tok', fetch: silentFetch, timeoutMs: 20 };
    const list = async () => ({ items: [ns('a', '1')], resourceVersion: '1' });
    await expect(pushCollection(edge, list, spec)).rejects.toThrow('edge GET sync/namespaces: no answer within 0.02s');
  });

  it('a ledger operation on an edge that does not answer fails within the call timeout', async () => {
    const edge = { baseUrl: 'http://edge', clusterId: 'c1', syncToken: 'tok', fetch: silentFetch, timeoutMs: 20 };
    const err = await applyLedger(edge, { kind: 'PodBudget', namespace: 'ns', name: 'web' }, 'read').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerOpFailedError);
    expect(String(err)).toMatch(/ledger .*web: operation "read": no answer within 0.02s/);
  });
});
