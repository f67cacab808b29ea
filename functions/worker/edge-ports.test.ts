import { describe, expect, it } from 'vitest';
import { edgePorts } from './edge-ports.js';
import { ClusterObject } from './cluster-object.js';
import type { DurableObjectNamespace, DurableObjectStorage, Env } from './platform.js';
import type { SyncPayload } from '../../src/edge-state/sync.js';
import { ADMITTED_GRACE_MS } from '../../src/edge-state/admitted.js';

/** Durable Object storage in memory, with the storage API's 128-key limit enforced. */
function memoryStorage(): DurableObjectStorage {
  const data = new Map<string, unknown>();
  const limit = (n: number) => {
    if (n > 128) throw new Error(`${n} keys in one call`);
  };
  return {
    get: async <T>(k: string) => structuredClone(data.get(k)) as T | undefined,
    put: async (entries) => {
      limit(Object.keys(entries).length);
      for (const [k, v] of Object.entries(entries)) data.set(k, structuredClone(v));
    },
    delete: async (keys) => (limit(keys.length), keys.filter((k) => data.delete(k)).length),
    list: async <T>({ prefix }: { prefix: string }) => new Map([...data].filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k, structuredClone(v) as T])),
    deleteAll: async () => data.clear(),
    getAlarm: async () => null,
    setAlarm: async () => undefined,
    deleteAlarm: async () => undefined,
  };
}

/** One real ClusterObject per name, every call recorded; `restart()` rebuilds them from storage. */
function clusterObjects() {
  const calls: string[] = [];
  const storage = new Map<string, DurableObjectStorage>();
  let objects = new Map<string, ClusterObject>();
  const objectFor = (name: string) => {
    let o = objects.get(name);
    if (!o) {
      const s = storage.get(name) ?? memoryStorage();
      storage.set(name, s);
      o = new ClusterObject({ storage: s, blockConcurrencyWhile: (fn) => fn() }, {} as Env);
      objects.set(name, o);
    }
    return o;
  };
  const namespace: DurableObjectNamespace = {
    idFromName: (name) => name,
    get: (id) => ({
      fetch: async (url, init) => {
        calls.push(`${init?.method ?? 'GET'} ${new URL(url).pathname}`);
        await new Promise((r) => setTimeout(r, 0));
        return objectFor(id as string).fetch(new Request(url, init));
      },
    }),
  };
  return { namespace, calls, restart: () => (objects = new Map()) };
}

const env = (ns: DurableObjectNamespace) => ({ CLUSTERS: ns, LEDGERS: ns }) as Env;
const replace = (items: { metadata: { name: string; resourceVersion: string } }[], observedAt: number): SyncPayload =>
  ({ mode: 'replace', resourceVersion: String(observedAt), observedAt, items });

describe('edgePorts collection reads', () => {
  it('reads the collections a request asks for in one tick in one call, and each request asks again', async () => {
    const objs = clusterObjects();
    const ports = await edgePorts(env(objs.namespace), []);
    await ports.store!('c').sync('x', replace([{ metadata: { name: 'a', resourceVersion: '1' } }], 1));
    await ports.store!('c').sync('y', replace([], 1));
    objs.calls.length = 0;
    const one = ports.state('c');
    const [x, y] = await Promise.all([one.collection('x'), one.collection('y'), one.collection('x')]);
    expect(x?.items).toHaveLength(1);
    expect(y?.items).toHaveLength(0);
    expect(objs.calls).toEqual(['POST /read']);
    // A second request: one more call, answered "unchanged", served from the isolate's copy.
    expect((await ports.state('c').collection('x'))?.items).toHaveLength(1);
    expect(objs.calls).toEqual(['POST /read', 'POST /read']);
    expect(await ports.state('c').collection('never-pushed')).toBeUndefined();
  });

  it('an admitted write is read at once by any isolate, and survives a restart of the object', async () => {
    const objs = clusterObjects();
    const first = await edgePorts(env(objs.namespace), []);
    const second = await edgePorts(env(objs.namespace), []);
    await first.store!('c').sync('x', replace([{ metadata: { name: 'a', resourceVersion: '1' } }], 1_000));
    expect((await second.state('c').collection('x'))?.items).toHaveLength(1);
    await first.store!('c').admit([
      { collection: 'x', key: 'b', item: { metadata: { name: 'b' } }, admittedAt: 2_000 },
      { collection: 'x', key: 'a', admittedAt: 2_000 },
    ]);
    const names = async () => ((await second.state('c').collection('x'))?.items ?? []).map((i) => (i as { metadata: { name: string } }).metadata.name);
    expect(await names()).toEqual(['b']);
    objs.restart();
    expect(await names()).toEqual(['b']);
    // A push listed within the grace does not undo the admitted writes; a later one settles them.
    await first.store!('c').sync('x', replace([{ metadata: { name: 'a', resourceVersion: '1' } }], 2_000 + ADMITTED_GRACE_MS - 1));
    expect(await names()).toEqual(['b']);
    await first.store!('c').sync('x', replace([{ metadata: { name: 'c', resourceVersion: '3' } }], 2_001 + ADMITTED_GRACE_MS));
    expect(await names()).toEqual(['c']);
    const at = 2_001 + ADMITTED_GRACE_MS;
    expect(await first.store!('c').summary()).toEqual({ x: { resourceVersion: String(at), observedAt: at, count: 1, currentAt: at } });
  });

  it('a write settled by a push still counts as when the edge last knew the collection current, in every isolate and after a restart', async () => {
    const objs = clusterObjects();
    const first = await edgePorts(env(objs.namespace), []);
    const second = await edgePorts(env(objs.namespace), []);
    await first.store!('c').sync('x', replace([{ metadata: { name: 'a', resourceVersion: '1' } }], 1_000));
    expect(await second.state('c').collection('x')).toMatchObject({ observedAt: 1_000, currentAt: 1_000 });
    await first.store!('c').admit([{ collection: 'x', key: 'b', item: { metadata: { name: 'b' } }, admittedAt: 5_000 }]);
    expect(await second.state('c').collection('x')).toMatchObject({ observedAt: 1_000, currentAt: 5_000 });
    // A push showing the write settles it (the overlay empties); the write still happened after the push's LIST.
    await first.store!('c').sync('x', replace([{ metadata: { name: 'a', resourceVersion: '1' } }, { metadata: { name: 'b', resourceVersion: '2' } }], 1_500));
    objs.restart();
    expect(await second.state('c').collection('x')).toMatchObject({ observedAt: 1_500, currentAt: 5_000 });
    expect(await first.store!('c').summary()).toEqual({ x: { resourceVersion: '1500', observedAt: 1_500, count: 2, currentAt: 5_000 } });
  });

  it('pushes diff against the pushed items only, not what was admitted', async () => {
    const objs = clusterObjects();
    const ports = await edgePorts(env(objs.namespace), []);
    const store = ports.store!('c');
    await store.sync('x', replace([{ metadata: { name: 'a', resourceVersion: '1' } }], 1));
    await store.admit([{ collection: 'x', key: 'b', item: { metadata: { name: 'b' } }, admittedAt: 2 }]);
    expect((await store.versions('x'))?.items).toEqual({ a: '1' });
  });

  it('refuses malformed admitted writes', async () => {
    const objs = clusterObjects();
    const ports = await edgePorts(env(objs.namespace), []);
    await expect(ports.store!('c').admit([{ collection: 'Not A Name', key: 'k', admittedAt: 1 }])).rejects.toThrow(/collection must be a collection name/);
  });
});
