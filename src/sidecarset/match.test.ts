import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { candidatesFor, indexSidecarSets, matchSidecarSets, type IndexedSidecarSet, type SidecarSetIndex } from './match.js';
import type { Labels } from '../kube/selectors.js';
import type { SidecarSet } from './types.js';
import { seededRandom } from '../../test/fixtures/seeded-random.js';

type Selector = NonNullable<SidecarSet['spec']>['selector'];

const set = (name: string, selector: Selector, placement: Partial<NonNullable<SidecarSet['spec']>> = {}): SidecarSet =>
  ({ metadata: { name }, spec: { ...placement, selector, containers: [{ name: `${name}-c`, image: 'x' }] } }) as SidecarSet;
const pod = (labels: Labels): V1Pod => ({ metadata: { namespace: 'ns', labels: { ...labels } } });

/** Every set a pod in `namespace` could be indexed under, unnarrowed: the bucket, then cluster-wide. */
const everyCandidate = (index: SidecarSetIndex, namespace: string): IndexedSidecarSet[] => [
  ...(index.byNamespace.get(namespace)?.all ?? []),
  ...index.clusterWide.all,
];
const names = (list: readonly IndexedSidecarSet[]) => list.map((e) => e.set.metadata?.name);

describe('candidatesFor: narrowing by the pod labels', () => {
  const sets = [
    set('by-label', { matchLabels: { app: 'web' } }),
    set('other-app', { matchLabels: { app: 'db' } }),
    set('in-list', { matchExpressions: [{ key: 'tier', operator: 'In', values: ['fe', 'be'] }] }),
    set('exists-only', { matchExpressions: [{ key: 'app', operator: 'Exists' }] }),
    set('invalid', { matchExpressions: [{ key: 'app', operator: 'Near' }] }),
    set('empty', {}),
    set('in-namespace', { matchLabels: { app: 'web' } }, { namespace: 'ns' }),
    set('elsewhere', { matchLabels: { app: 'web' } }, { namespace: 'other' }),
  ];
  const index = indexSidecarSets(sets);

  it('keeps the sets filed under the pod labels and every set that cannot be filed, in order', () => {
    expect(names(candidatesFor(index, 'ns', { app: 'web', tier: 'be' }))).toEqual(['in-namespace', 'by-label', 'in-list', 'exists-only', 'invalid', 'empty']);
    expect(names(candidatesFor(index, 'ns', {}))).toEqual(['exists-only', 'invalid', 'empty']);
  });

  it('still reports an invalid selector for any pod (OpenKruise fails the pod)', () => {
    const results = matchSidecarSets(pod({}), 'ns', candidatesFor(index, 'ns', {}), undefined);
    expect(results.find((r) => r.set === 'invalid')?.error).toMatch(/"Near" is not a valid pod selector operator/);
  });
});

describe('candidatesFor on random sets and pods', () => {
  const rand = seededRandom(7); // every run checks the same 300 clusters
  const keys = ['app', 'tier', 'env', 'team'];
  const values = ['a', 'b', 'c'];
  const operators = ['In', 'NotIn', 'Exists', 'DoesNotExist', 'In', 'Bogus'];
  const randomSelector = (): Selector => {
    const kind = rand(8);
    if (kind === 0) return undefined as unknown as Selector;
    if (kind === 1) return {};
    const matchLabels = rand(2) ? Object.fromEntries(Array.from({ length: rand(3) }, () => [keys[rand(4)]!, values[rand(3)]!])) : undefined;
    const matchExpressions = Array.from({ length: rand(3) }, () => ({
      key: keys[rand(4)]!,
      operator: operators[rand(operators.length)]! as 'In',
      values: Array.from({ length: rand(3) }, () => values[rand(3)]!),
    }));
    return { ...(matchLabels ? { matchLabels } : {}), matchExpressions };
  };
  const placements = [{}, { namespace: 'ns' }, { namespace: 'other' }, { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ns' } } }];

  it('matching the narrowed candidates gives the same sets, the same order and the same first error as matching them all', () => {
    for (let c = 0; c < 300; c++) {
      const sets = Array.from({ length: 1 + rand(25) }, (_, i) => set(`s${i}`, randomSelector(), placements[rand(placements.length)]));
      const index = indexSidecarSets(sets);
      for (let p = 0; p < 10; p++) {
        const labels = Object.fromEntries(keys.filter(() => rand(2)).map((k) => [k, values[rand(3)]!]));
        const verdict = (list: IndexedSidecarSet[]) => {
          const results = matchSidecarSets(pod(labels), 'ns', list, { 'kubernetes.io/metadata.name': 'ns' });
          return { matched: results.filter((r) => r.matched).map((r) => r.set), error: results.find((r) => r.error)?.error };
        };
        const narrowed = candidatesFor(index, 'ns', labels);
        const all = everyCandidate(index, 'ns');
        expect(verdict(narrowed), JSON.stringify({ sets: sets.map((s) => s.spec), labels })).toEqual(verdict(all));
        expect(narrowed.length).toBeLessThanOrEqual(all.length);
      }
    }
  });
});
