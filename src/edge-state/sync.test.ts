import { describe, expect, it } from 'vitest';
import { diffForPush, parseSyncPayload, planSyncWrite, type SyncItem } from './sync.js';
import { MemoryStateStore } from './memory-store.js';

const item = (name: string, rv: string, ns?: string): SyncItem => ({ metadata: { name, resourceVersion: rv, ...(ns ? { namespace: ns } : {}) } });

describe('parseSyncPayload', () => {
  it.each([
    ['not an object', 5, /JSON object/],
    ['no resourceVersion', { mode: 'replace', observedAt: 1, items: [] }, /resourceVersion/],
    ['no observedAt', { mode: 'replace', resourceVersion: '1', items: [] }, /observedAt/],
    ['item without name', { mode: 'replace', resourceVersion: '1', observedAt: 1, items: [{ metadata: {} }] }, /metadata.name/],
    ['bad mode', { mode: 'merge', resourceVersion: '1', observedAt: 1 }, /mode/],
    ['patch without base', { mode: 'patch', resourceVersion: '1', observedAt: 1, upserts: [], deletes: [] }, /baseResourceVersion/],
  ])('refuses %s', (_n, body, msg) => {
    expect(parseSyncPayload(body)).toMatch(msg);
  });

  it('accepts a replace and a patch', () => {
    expect(parseSyncPayload({ mode: 'replace', resourceVersion: '1', observedAt: 1, items: [item('a', '1')] })).toMatchObject({ mode: 'replace' });
    expect(parseSyncPayload({ mode: 'patch', resourceVersion: '2', observedAt: 2, baseResourceVersion: '1', upserts: [], deletes: ['a'] })).toMatchObject({ mode: 'patch' });
  });
});

describe('planSyncWrite', () => {
  const held = { meta: { resourceVersion: '10', observedAt: 100, count: 2 }, items: { a: '1', 'ns/b': '2' } };

  it('refuses a push observed before what the edge holds', () => {
    expect(planSyncWrite(held, { mode: 'replace', resourceVersion: '9', observedAt: 99, items: [] })).toMatchObject({ ok: false, status: 409, reason: 'Superseded' });
  });

  it('refuses a patch against another base', () => {
    expect(planSyncWrite(held, { mode: 'patch', resourceVersion: '11', observedAt: 101, baseResourceVersion: '9', upserts: [], deletes: [] })).toMatchObject({ ok: false, status: 409, reason: 'BaseMoved' });
    expect(planSyncWrite(undefined, { mode: 'patch', resourceVersion: '11', observedAt: 101, baseResourceVersion: '9', upserts: [], deletes: [] })).toMatchObject({ ok: false });
  });

  it('replace deletes what is no longer listed', () => {
    const out = planSyncWrite(held, { mode: 'replace', resourceVersion: '11', observedAt: 101, items: [item('a', '3')] });
    expect(out).toMatchObject({ ok: true, plan: { deletes: ['ns/b'], meta: { count: 1, resourceVersion: '11' } } });
  });

  it('patch upserts and deletes relative to the base', () => {
    const out = planSyncWrite(held, { mode: 'patch', resourceVersion: '11', observedAt: 101, baseResourceVersion: '10', upserts: [item('c', '5')], deletes: ['a', 'zzz'] });
    expect(out).toMatchObject({ ok: true, plan: { deletes: ['a'], meta: { count: 2 } } });
  });
});

describe('pushing diffs converges to the listed state', () => {
  it('over a random sequence of cluster states', async () => {
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const store = new MemoryStateStore();
    let rv = 0;
    let live = new Map<string, SyncItem>();
    for (let step = 0; step < 200; step++) {
      const next = new Map(live);
      for (let i = 0; i < 5; i++) {
        const name = `o${Math.floor(rand() * 30)}`;
        const r = rand();
        rv += 1;
        if (r < 0.3) next.delete(name);
        else next.set(name, item(name, String(rv), rand() < 0.5 ? 'ns' : undefined));
      }
      live = new Map([...next.values()].map((i) => [i.metadata?.namespace ? `ns/${i.metadata.name}` : i.metadata!.name!, i]));
      const payload = diffForPush(await store.versions('things'), { items: [...live.values()], resourceVersion: String(rv) }, step);
      const res = await store.sync('things', payload);
      expect(res.ok).toBe(true);
      const snap = await store.collection<SyncItem>('things');
      const got = Object.fromEntries(snap!.items.map((i) => [`${i.metadata?.namespace ?? ''}/${i.metadata?.name}`, i.metadata?.resourceVersion]));
      const want = Object.fromEntries([...live.values()].map((i) => [`${i.metadata?.namespace ?? ''}/${i.metadata?.name}`, i.metadata?.resourceVersion]));
      expect(got).toEqual(want);
      expect(snap!.resourceVersion).toBe(String(rv));
    }
  });
});
