// The scale-in rankers against OpenKruise's own vectors (pod_sorter_test.go TestSameNodeRanker and
// TestSpreadConstraintsRanker, taken as data): which pods get a rank, and in what order.
import { describe, expect, it } from 'vitest';
import { sameNodeRanks, spreadConstraintRanks } from './order.js';
import type { Pod } from './pods.js';

const pod = (name: string, nodeName?: string): Pod => ({ metadata: { name, namespace: 'ns' }, spec: { containers: [], ...(nodeName ? { nodeName } : {}) } });
const byName = (ranks: Map<Pod, number>) => new Map([...ranks].map(([p, r]) => [p.metadata.name, r]));

describe('sameNodeRanks', () => {
  it('ranks all but one pod on each node with several, the first to delete highest', () => {
    const nodes = ['a', undefined, undefined, 'b', 'a', 'c', 'b', 'd', 'd', 'd', 'a'];
    const pods = nodes.map((n, i) => pod(String(i), n));
    expect(Object.fromEntries(byName(sameNodeRanks(pods)))).toEqual({ 0: 2, 4: 1, 3: 1, 7: 2, 8: 1 });
  });
});

describe('spreadConstraintRanks', () => {
  const zone = 'failure-domain.beta.kubernetes.io/zone';
  const host = 'kubernetes.io/hostname';
  const zones: Record<string, string> = { b: 'z1', c: 'z1', d: 'z1', e: 'z2', f: 'z2', g: 'z2', h: 'z3', i: 'z3' };
  const nodeLabels = new Map<string, Record<string, string>>([['a', {}], ...Object.entries(zones).map(([n, z]): [string, Record<string, string>] => [n, { [host]: n, [zone]: z }])]);
  const pods = (Object.entries({ a: 2, b: 2, c: 3, d: 5, e: 5, f: 3, i: 5 }) as [string, number][]).flatMap(([node, n]) => Array.from({ length: n }, (_, i) => pod(`${node}-${i}`, node)));

  /** Ranked pods, highest first (ties in pod order), as the OpenKruise test lists them. */
  const sorted = (keys: string[]) => {
    const ranks = spreadConstraintRanks(pods, keys, nodeLabels);
    return pods.filter((p) => (ranks.get(p) ?? 0) > 0).sort((x, y) => ranks.get(y)! - ranks.get(x)!).map((p) => p.metadata.name);
  };

  it('by zone: the fullest zones lose pods first, spread over their nodes', () => {
    expect(sorted([zone])).toEqual([
      'd-0', 'd-1', 'c-0', 'e-0', 'd-2', 'e-1', 'b-0', 'e-2', 'c-1', 'f-0', 'i-0', 'd-3', 'e-3', 'i-1',
      'b-1', 'f-1', 'i-2', 'c-2', 'e-4', 'i-3', 'd-4', 'f-2', 'i-4',
    ]);
  });

  it('by zone and hostname: both ranks add up', () => {
    expect(sorted([zone, host])).toEqual([
      'd-0', 'e-0', 'd-1', 'e-1', 'c-0', 'i-0', 'd-2', 'e-2', 'i-1', 'f-0', 'b-0', 'c-1', 'i-2', 'd-3',
      'e-3', 'f-1', 'i-3', 'b-1', 'c-2', 'e-4', 'd-4', 'f-2', 'i-4',
    ]);
  });
});
