import { describe, expect, it } from 'vitest';
import { LiveClusterState } from './live-state.js';
import type { CollectionSpec, Lister } from './contracts.js';

const SPEC: CollectionSpec = { name: 'sets', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' };

function setup() {
  let t = 1_000;
  let failing = false;
  let version = 0;
  const list: Lister = async () => {
    if (failing) throw new Error('connection refused');
    version++;
    return { items: [{ metadata: { name: `set-${version}`, resourceVersion: String(version) } }], resourceVersion: String(version) };
  };
  const live = new LiveClusterState(list, [SPEC, { ...SPEC, name: 'counts', uncachedLive: true }], 1_000, () => t);
  return { live, advance: (ms: number) => (t += ms), fail: (f: boolean) => (failing = f) };
}

describe('LiveClusterState freshness', () => {
  it('a LIST is current when taken; a write admitted later makes it current then', async () => {
    const { live, advance } = setup();
    expect(await live.collection('sets')).toMatchObject({ observedAt: 1_000, currentAt: 1_000 });
    advance(500);
    await live.admit([{ collection: 'sets', key: 'x', item: { metadata: { name: 'x' } }, admittedAt: 1_500 }]);
    expect(await live.collection('sets')).toMatchObject({ observedAt: 1_000, currentAt: 1_500 });
  });

  it('a LIST that fails answers the last one that succeeded, with its age', async () => {
    const { live, advance, fail } = setup();
    await live.collection('sets');
    advance(600_000);
    fail(true);
    const last = await live.collection<{ metadata: { name: string } }>('sets');
    expect(last).toMatchObject({ observedAt: 1_000, currentAt: 1_000 });
    expect(last?.items.map((i) => i.metadata.name)).toEqual(['set-1']);
    fail(false);
    expect(await live.collection('sets')).toMatchObject({ observedAt: 601_000 });
  });

  it('never synced, or read afresh for every decision (deletion protection): a failed LIST fails', async () => {
    const { live, fail } = setup();
    fail(true);
    await expect(live.collection('sets')).rejects.toThrow(/connection refused/);
    fail(false);
    await live.collection('counts');
    fail(true);
    await expect(live.collection('counts')).rejects.toThrow(/connection refused/);
  });
});
