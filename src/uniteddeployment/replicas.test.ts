import { describe, expect, it } from 'vitest';
import { allocateReplicas, parseSubsetReplicas, type ExistingSubset } from './replicas.js';
import type { Subset, UnitedDeploymentSpecLike as UnitedDeploymentSpec } from './types.js';

const none = new Map<string, ExistingSubset>();
const spec = (replicas: number | undefined, subsets: Subset[], adaptive = false): UnitedDeploymentSpec => ({
  ...(replicas === undefined ? {} : { replicas }),
  topology: { subsets, ...(adaptive ? { scheduleStrategy: { type: 'Adaptive' } } : {}) },
});

describe('parseSubsetReplicas', () => {
  it('takes numbers as they are and rounds percentages half up', () => {
    expect(parseSubsetReplicas(6, 1)).toBe(1);
    expect(parseSubsetReplicas(6, '50%')).toBe(3);
    expect(parseSubsetReplicas(5, '50%')).toBe(3);
    expect(parseSubsetReplicas(3, '34%')).toBe(1);
    expect(parseSubsetReplicas(3, '50%')).toBe(2);
  });
  it("gives OpenKruise's errors", () => {
    expect(parseSubsetReplicas(6, -1)).toEqual({ error: 'subset replicas (-1) should not be less than 0' });
    expect(parseSubsetReplicas(-1, '5%')).toEqual({ error: 'subsetReplicas (5%) should not be string when unitedDeployment replicas is empty' });
    expect(parseSubsetReplicas(6, '5')).toEqual({ error: "subset replicas (5) only support integer value or percentage value with a suffix '%'" });
    expect(parseSubsetReplicas(6, '1.5%')).toEqual({ error: 'subset replicas (1.5%) should be correct percentage integer: strconv.ParseInt: parsing "1.5": invalid syntax' });
    expect(parseSubsetReplicas(6, '120%')).toEqual({ error: 'subset replicas (120%) should be in range [0, 100]' });
  });
});

describe('allocateReplicas', () => {
  it('seed 000: 6 → a 1, b 50% (3), c the rest (2)', () => {
    expect(allocateReplicas(spec(6, [{ name: 'subset-a', replicas: 1 }, { name: 'subset-b', replicas: '50%' }, { name: 'subset-c' }]), none)).toEqual({
      replicas: { 'subset-a': 1, 'subset-b': 3, 'subset-c': 2 },
    });
  });
  it('shares the rest evenly; the +1 remainders go to the subsets with most replicas now, then the later name', () => {
    const s = spec(5, [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    expect(allocateReplicas(s, none)).toEqual({ replicas: { a: 1, b: 2, c: 2 } });
    const existing = new Map([['a', { replicas: 3, readyReplicas: 3, unschedulable: false }]]);
    expect(allocateReplicas(s, existing)).toEqual({ replicas: { a: 2, b: 1, c: 2 } });
  });
  it('reports sums that cannot be met', () => {
    expect(allocateReplicas(spec(3, [{ name: 'a', replicas: 2 }, { name: 'b', replicas: 2 }]), none)).toEqual({ error: "specified subsets' replica (4) is greater than UnitedDeployment replica (3)" });
    expect(allocateReplicas(spec(5, [{ name: 'a', replicas: 2 }, { name: 'b', replicas: 2 }]), none)).toEqual({ error: "specified subsets' replica (4) is less than UnitedDeployment replica (5)" });
    expect(allocateReplicas(spec(undefined, [{ name: 'a', replicas: 2 }, { name: 'b' }]), none)).toEqual({ error: 'all subsets must be specified when UnitedDeployment replica is unspecified' });
  });
  it('min/max: minimums in topology order, then up to each maximum', () => {
    expect(allocateReplicas(spec(5, [{ name: 'a', minReplicas: 2, maxReplicas: 4 }, { name: 'b', minReplicas: 2 }]), none)).toEqual({ replicas: { a: 3, b: 2 } });
    expect(allocateReplicas(spec(5, [{ name: 'a', minReplicas: 1, maxReplicas: 2 }, { name: 'b', minReplicas: 1 }, { name: 'c', minReplicas: 0 }]), none)).toEqual({ replicas: { a: 2, b: 3, c: 0 } });
    expect(allocateReplicas(spec(2, [{ name: 'a', minReplicas: 2 }, { name: 'b', minReplicas: 2 }]), none)).toEqual({ replicas: { a: 2, b: 0 } });
    expect(allocateReplicas(spec(5, [{ name: 'a', minReplicas: 3, maxReplicas: 2 }, { name: 'b' }]), none)).toEqual({ error: 'subset[0].maxReplicas(2) must be more than or equal to minReplicas(3)' });
  });
  it('Adaptive: an unschedulable subset keeps only its ready pods; a schedulable one keeps its ready pods', () => {
    const s = spec(4, [{ name: 'a', maxReplicas: 2 }, { name: 'b', maxReplicas: 2 }, { name: 'c' }], true);
    expect(allocateReplicas(s, none)).toEqual({ replicas: { a: 2, b: 2, c: 0 } });
    const stuck = new Map([['a', { replicas: 2, readyReplicas: 0, unschedulable: true }], ['b', { replicas: 2, readyReplicas: 2, unschedulable: false }]]);
    expect(allocateReplicas(s, stuck)).toEqual({ replicas: { a: 0, b: 2, c: 2 } });
    const recovered = new Map([['a', { replicas: 0, readyReplicas: 0, unschedulable: false }], ['b', { replicas: 2, readyReplicas: 2, unschedulable: false }], ['c', { replicas: 2, readyReplicas: 2, unschedulable: false }]]);
    expect(allocateReplicas(s, recovered)).toEqual({ replicas: { a: 0, b: 2, c: 2 } });
  });
});
