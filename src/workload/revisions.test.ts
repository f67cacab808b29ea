import { describe, expect, it } from 'vitest';
import {
  decideUpdateRevision,
  hashControllerRevision,
  labelNamesRevision,
  nameRevision,
  revisionsBeyondLimit,
  shortRevisionHash,
  type ControllerRevision,
} from './revisions.js';

const rev = (name: string, revision: number, data: unknown = { n: revision }): ControllerRevision => ({ metadata: { name }, revision, data });

describe('revision history helpers', () => {
  it('short hash is the last "-" segment; pods match by full name or short hash', () => {
    expect(shortRevisionHash('my-app-5f7b9c6d8')).toBe('5f7b9c6d8');
    expect(shortRevisionHash('5f7b9c6d8')).toBe('5f7b9c6d8');
    expect(labelNamesRevision('my-app-5f7b9c6d8', 'my-app-5f7b9c6d8')).toBe(true);
    expect(labelNamesRevision('5f7b9c6d8', 'my-app-5f7b9c6d8')).toBe(true);
    expect(labelNamesRevision('6c9d8', 'my-app-5f7b9c6d8')).toBe(false);
    expect(labelNamesRevision(undefined, 'my-app-5f7b9c6d8')).toBe(false);
  });

  it('nameRevision raises the collision count past names held by other data', () => {
    const data = '{"a":1}';
    const first = `x-${hashControllerRevision(data, 0)}`;
    const second = `x-${hashControllerRevision(data, 1)}`;
    const taken = new Map([[first, rev(first, 1, { b: 2 })]]);
    expect(nameRevision('x', data, 0, (n) => taken.get(n))).toEqual({ name: second, hash: hashControllerRevision(data, 1), collisionCount: 1 });
    const same = new Map([[first, rev(first, 1, { a: 1 })]]);
    expect(nameRevision('x', data, 0, (n) => same.get(n)).existing).toBe(same.get(first));
  });

  it('decideUpdateRevision: newest equal, older equal (renumber), none (create)', () => {
    const list = [rev('a', 1), rev('b', 2)];
    expect(decideUpdateRevision(list, '{"n":2}')).toEqual({ kind: 'current', revision: list[1] });
    expect(decideUpdateRevision(list, '{"n":1}')).toEqual({ kind: 'renumber', revision: list[0], to: 3 });
    expect(decideUpdateRevision(list, '{"n":9}')).toEqual({ kind: 'create', to: 3 });
    expect(decideUpdateRevision([], '{"n":9}')).toEqual({ kind: 'create', to: 1 });
  });

  it('revisionsBeyondLimit deletes the oldest non-live ones beyond the limit', () => {
    const list = [1, 2, 3, 4, 5].map((n) => rev(`r${n}`, n));
    const live = (r: ControllerRevision) => r.metadata.name === 'r1' || r.metadata.name === 'r5';
    expect(revisionsBeyondLimit(list, live, 1).map((r) => r.metadata.name)).toEqual(['r2', 'r3']);
    expect(revisionsBeyondLimit(list, live, 10)).toEqual([]);
    expect(revisionsBeyondLimit(list, live, 0).map((r) => r.metadata.name)).toEqual(['r2', 'r3', 'r4']);
  });
});
