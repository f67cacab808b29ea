import { describe, expect, it } from 'vitest';
import { HeldState } from './held.js';
import type { SyncPayload } from './sync.js';

const replace = (observedAt: number, names: string[] = ['a']): SyncPayload => ({
  mode: 'replace', resourceVersion: String(observedAt), observedAt, items: names.map((name, i) => ({ metadata: { name, resourceVersion: String(i + 1) } })),
});

function push(held: HeldState, name: string, payload: SyncPayload) {
  const plan = held.plan(name, payload);
  if (!plan.ok) throw new Error(plan.message);
  held.applyPlan(name, plan.plan);
}

describe('HeldState: when the edge last knew a collection current', () => {
  it('a push sets it to the push\'s observedAt', () => {
    const held = new HeldState();
    push(held, 'sets', replace(1_000));
    expect(held.snapshot('sets')).toMatchObject({ observedAt: 1_000, currentAt: 1_000 });
    push(held, 'sets', replace(2_000));
    expect(held.snapshot('sets')).toMatchObject({ observedAt: 2_000, currentAt: 2_000 });
  });

  it('a write-through or observer write to the collection refreshes it; other collections keep theirs', () => {
    const held = new HeldState();
    push(held, 'sets', replace(1_000));
    push(held, 'namespaces', replace(1_000));
    held.admit([{ collection: 'sets', key: 'b', item: { metadata: { name: 'b' } }, admittedAt: 200_000 }]);
    expect(held.snapshot('sets')).toMatchObject({ observedAt: 1_000, currentAt: 200_000 });
    expect(held.snapshot('namespaces')).toMatchObject({ observedAt: 1_000, currentAt: 1_000 });
    expect(held.summary().sets).toMatchObject({ observedAt: 1_000, currentAt: 200_000, admitted: 1 });
  });

  it('a write that replaces nothing (it lost to an earlier one) still refreshes, and changes the stamp so readers learn it', () => {
    const held = new HeldState();
    push(held, 'pods', replace(1_000));
    held.admit([{ collection: 'pods', key: 'a', item: { metadata: { name: 'a' } }, basedOn: '5', conditional: true, admittedAt: 2_000 }]);
    const stamp = held.stamp('pods');
    expect(held.admit([{ collection: 'pods', key: 'a', item: { metadata: { name: 'a' } }, basedOn: '5', conditional: true, admittedAt: 3_000 }])).toEqual([]);
    expect(held.snapshot('pods')?.currentAt).toBe(3_000);
    expect(held.stamp('pods')).not.toBe(stamp);
  });

  it('pushes stay ordered by observedAt: one listed before what the edge holds is refused, whatever the writes since', () => {
    const held = new HeldState();
    push(held, 'sets', replace(5_000));
    held.admit([{ collection: 'sets', key: 'b', item: { metadata: { name: 'b' } }, admittedAt: 9_000 }]);
    expect(held.plan('sets', replace(4_000))).toMatchObject({ ok: false, status: 409 });
    // A push listed after the push but before the write is accepted; the write keeps currentAt.
    push(held, 'sets', replace(6_000, ['a', 'b']));
    expect(held.snapshot('sets')).toMatchObject({ observedAt: 6_000, currentAt: 9_000 });
  });

  it('a write before the first push does not make the collection known', () => {
    const held = new HeldState();
    held.admit([{ collection: 'sets', key: 'b', item: { metadata: { name: 'b' } }, admittedAt: 9_000 }]);
    expect(held.snapshot('sets')).toBeUndefined();
    push(held, 'sets', replace(1_000));
    expect(held.snapshot('sets')?.currentAt).toBe(9_000);
  });
});
