import { describe, expect, it } from 'vitest';
import type { UpdatePriorityStrategy } from '../../api/apps/pub.js';
import { activePodsLess, expandScatterTerms, scatter, sortByPriority, trailingInt } from '../../workload/order.js';
import { sortUpdateOrder } from './order.js';
import type { Pod } from '../../workload/pods.js';
import { injectedPod, sidecarSet } from './test-builders.js';

const set = sidecarSet();
const labelled = (labels: Record<string, string>, i: number): Pod => injectedPod(set, `p${i}`, { labels });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('activePodsLess (k8s ActivePods)', () => {
  const base = () => injectedPod(set, 'x');
  it.each<[string, Pod, Pod]>([
    ['unscheduled before scheduled', { ...base(), spec: { ...base().spec, nodeName: '' } }, base()],
    ['pending before running', injectedPod(set, 'a', { phase: 'Pending' }), base()],
    ['not ready before ready', injectedPod(set, 'a', { ready: false }), base()],
    ['ready more recently before ready longer', injectedPod(set, 'a', { readySince: '2024-01-02T00:00:00Z' }), base()],
    ['more restarts first', injectedPod(set, 'a', { restarts: 3 }), base()],
    ['newer before older', injectedPod(set, 'a', { created: '2024-02-01T00:00:00Z' }), base()],
  ])('%s', (_name, first, second) => {
    expect(activePodsLess(first, second)).toBe(true);
    expect(activePodsLess(second, first)).toBe(false);
  });
});

describe('priority', () => {
  it.each([
    ['sts-10', 10],
    ['abc', 0],
    ['v1.2', 2],
  ])('trailing integer of %j', (v, want) => expect(trailingInt(v)).toBe(want));

  it('weightPriority: heavier first, ties keep their order', () => {
    const pods = [labelled({ tier: 'b' }, 0), labelled({ tier: 'a' }, 1), labelled({ tier: 'b' }, 2), labelled({ tier: 'a', canary: 'y' }, 3)];
    const strategy: UpdatePriorityStrategy = {
      weightPriority: [
        { weight: 50, matchSelector: { matchLabels: { tier: 'a' } } },
        { weight: 10, matchSelector: { matchLabels: { canary: 'y' } } },
      ],
    };
    expect(sortByPriority(strategy, pods, [0, 1, 2, 3])).toEqual([3, 1, 0, 2]);
  });

  it('orderPriority: earlier key first (pods with none of the keys before all), then larger suffix first', () => {
    const pods = [labelled({ a: 'x-1' }, 0), labelled({ b: 'x-9' }, 1), labelled({ a: 'x-5' }, 2), labelled({}, 3)];
    expect(sortByPriority({ orderPriority: [{ orderedKey: 'a' }, { orderedKey: 'b' }] }, pods, [0, 1, 2, 3])).toEqual([3, 2, 0, 1]);
  });
});

describe('scatter (OpenKruise updatesort tests)', () => {
  const parse = (spec: string): Record<string, string> =>
    Object.fromEntries(spec.split(',').flatMap((kv) => (kv.includes('=') ? [kv.split('=', 2) as [string, string]] : [])));
  const termA = { key: 'labelA', value: 'AAA' };

  // TestScatterPodsByRule: every pod waits.
  it.each<[string, string[], number[]]>([
    ['no label', [''], [0]],
    ['odd scattered pod + odd ordinary pod', ['labelA=AAA', 'bbb'], [0, 1]],
    ['even scattered pods + even ordinary pods', ['', '', '', '', 'labelA=AAA', 'labelA=AAA'], [4, 0, 1, 2, 3, 5]],
    ['odd scattered pods + odd ordinary pods', ['', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'], [3, 0, 1, 4, 2, 5]],
    ['even scattered pods + odd ordinary pods', ['', '', '', 'labelA=AAA', '', '', 'labelA=AAA'], [3, 0, 1, 2, 4, 5, 6]],
    ['odd scattered pods + even ordinary pods', ['', '', '', '', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'], [6, 0, 1, 2, 7, 3, 4, 5, 8]],
    // v1.8 rounds group sizes (math.Round: 1.5 → 2); kruise#2321/#2322 (2026) floor them, giving [2, 0, 3, 1, 4, 5].
    ['more scattered than ordinary', ['', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'], [2, 3, 0, 4, 1, 5]],
    ['odd scattered + even ordinary, more scattered', ['', 'labelA=AAA', '', 'labelA=AAA', '', '', 'labelA=AAA', 'labelA=AAA', 'labelA=AAA'], [1, 0, 3, 2, 6, 4, 7, 5, 8]],
  ])('by rule: %s', (_name, labels, want) => {
    const pods = labels.map((l, i) => labelled(parse(l), i));
    expect(scatter([termA], pods, range(pods.length))).toEqual(want);
  });

  // TestSort: the first `waiting` pods wait; the others count towards the totals.
  it.each<[string, Record<string, string>[], { key: string; value: string }[], number[]]>([
    ['one pod one label', [{}, {}, {}, {}, { labelA: 'AAA' }, { labelA: 'AAA' }], [termA], [4, 0, 1, 2, 3, 5]],
    ['2 dimensions + one pod one label', [{ labelB: 'BBB' }, { labelB: 'BBB' }, {}, {}, { labelA: 'AAA' }, { labelA: 'AAA' }], [termA, { key: 'labelB', value: 'BBB' }], [0, 4, 2, 3, 5, 1]],
    ['continuous sort 1', [{}, {}, {}, {}, { labelA: 'AAA' }, { labelA: 'AAA' }, { labelA: 'AAA' }], [termA], [0, 1, 4, 2, 3, 5]],
    ['continuous sort 2', [{ labelA: 'AAA' }, { labelA: 'AAA' }, {}, {}, {}, {}, {}, {}, {}, { labelA: 'AAA' }], [termA], [2, 0, 3, 4, 5, 6, 1]],
    [
      '3 dimensions + one pod one label',
      [{}, { labelA: 'AAA' }, { labelA: 'AAA' }, { labelB: 'BBB' }, { labelB: 'BBB' }, { labelC: 'CCC' }, { labelC: 'CCC' }, { labelC: 'CCC' }, { labelC: 'CCC' }, { labelC: 'CCC' }],
      [termA, { key: 'labelB', value: 'BBB' }, { key: 'labelC', value: 'CCC' }],
      [3, 1, 5, 0, 6, 7, 8, 9, 2, 4],
    ],
  ])('sort: %s', (_name, labels, terms, want) => {
    const pods = labels.map((l, i) => labelled(l, i));
    expect(scatter(terms, pods, range(want.length))).toEqual(want);
  });

  it('`*` expands to every value present, once each', () => {
    const pods = [labelled({ zone: 'a' }, 0), labelled({ zone: 'b' }, 1), labelled({ zone: 'a' }, 2), labelled({}, 3)];
    expect(expandScatterTerms([{ key: 'zone', value: '*' }, { key: 'zone', value: 'b' }], pods)).toEqual([
      { key: 'zone', value: 'a' },
      { key: 'zone', value: 'b' },
    ]);
  });
});

describe('sortUpdateOrder', () => {
  it('not-ready pods first, then priority among the rest', () => {
    const pods = [
      injectedPod(set, 'ready-low', { labels: { app: 'web', w: 'low' } }),
      injectedPod(set, 'ready-high', { labels: { app: 'web', w: 'high' } }),
      injectedPod(set, 'not-ready', { ready: false, labels: { app: 'web', w: 'low' } }),
    ];
    const strategy = { priorityStrategy: { weightPriority: [{ weight: 10, matchSelector: { matchLabels: { w: 'high' } } }] } };
    // Priority outranks readiness (it sorts after ActivePods); equal weights keep not-ready first.
    expect(sortUpdateOrder(strategy, pods, [0, 1, 2]).map((i) => pods[i]!.metadata.name)).toEqual(['ready-high', 'not-ready', 'ready-low']);
    expect(sortUpdateOrder({}, pods, [0, 1, 2]).map((i) => pods[i]!.metadata.name)).toEqual(['not-ready', 'ready-low', 'ready-high']);
  });
});
