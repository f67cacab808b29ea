// The pusher against the real app (in memory, no network): first a replace, then diffs.
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { MemoryStateStore } from './memory-store.js';
import { sha256Hex } from './auth.js';
import { pushCollection, PushError, type Fetch } from './push.js';

const spec = { name: 'namespaces', apiVersion: 'v1', kind: 'Namespace' };
const ns = (name: string, rv: string) => ({ metadata: { name, resourceVersion: rv, labels: { team: 'a' }, managedFields: [{ manager: 'x' }] } });

async function setup() {
  const store = new MemoryStateStore();
  const creds = { clusterId: 'c1', webhookSecrets: [], syncTokens: [{ sha256: await sha256Hex('tok') }] };
  const app = buildApp({ endpoints: [], registry: { credentials: async (id) => (id === 'c1' ? creds : undefined) }, state: () => store, store: () => store });
  const fetch: Fetch = async (input, init) => app.request(input, init);
  return { store, edge: { baseUrl: 'http://edge', clusterId: 'c1', syncToken: 'tok', fetch } };
}

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

  it('is refused with a wrong token, and a stale push is refused', async () => {
    const { edge } = await setup();
    const list = async () => ({ items: [ns('a', '1')], resourceVersion: '1' });
    await expect(pushCollection({ ...edge, syncToken: 'nope' }, list, spec)).rejects.toBeInstanceOf(PushError);
    await pushCollection(edge, list, spec, () => 5000);
    await expect(pushCollection(edge, list, spec, () => 4000)).rejects.toThrow(/stale/);
  });
});
