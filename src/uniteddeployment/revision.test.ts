import { describe, expect, it } from 'vitest';
import type { ControllerRevision } from '../workload/revisions.js';
import { planRevisions } from './revision.js';
import type { UnitedDeploymentLike } from './types.js';

const ud = (image: string, limit = 2, current?: string): UnitedDeploymentLike => ({
  metadata: { name: 'u', namespace: 'ns', uid: 'u-1' },
  spec: { selector: { matchLabels: { app: 'x' } }, revisionHistoryLimit: limit, template: { deploymentTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image }] } } } } } },
  ...(current ? { status: { currentRevision: current } } : {}),
});
const stored = (u: UnitedDeploymentLike, n: number): ControllerRevision => {
  const w = planRevisions(u, []).writes[0]!;
  if (w.op !== 'create') throw new Error('no create');
  return { ...(w.object as unknown as ControllerRevision), revision: n, metadata: { ...(w.object as unknown as ControllerRevision).metadata, uid: `r-${n}` } };
};

describe('planRevisions', () => {
  it('names the template <ud>-<hash>, the same for the same template, and creates it once', () => {
    const first = planRevisions(ud('i:1'), []);
    expect(first.updated).toMatch(/^u-[a-z0-9]+$/);
    expect(planRevisions(ud('i:1'), []).updated).toBe(first.updated);
    expect(planRevisions(ud('i:2'), []).updated).not.toBe(first.updated);
    expect(planRevisions(ud('i:1'), [stored(ud('i:1'), 1)]).writes).toEqual([]);
  });
  it('deletes revisions beyond revisionHistoryLimit that are neither current nor updated', () => {
    const revs = [1, 2, 3, 4].map((n) => stored(ud(`i:${n}`), n));
    const plan = planRevisions(ud('i:4', 1, revs[0]!.metadata.name), revs);
    expect(plan.updated).toBe(revs[3]!.metadata.name);
    expect(plan.writes.map((w) => (w.op === 'delete' ? w.target.name : w.op))).toEqual([revs[1]!.metadata.name]);
  });
});
