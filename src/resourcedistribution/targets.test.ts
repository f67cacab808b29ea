import { describe, expect, it } from 'vitest';
import { targetNamespaces } from './targets.js';
import type { NamespaceFacts, ResourceDistribution, ResourceDistributionTargets } from './types.js';

const ns = (name: string, labels: Record<string, string> = {}, phase: NamespaceFacts['phase'] = 'Active'): NamespaceFacts => ({ name, labels, phase });
const CLUSTER = [
  ns('default'),
  ns('kube-system'),
  ns('kube-public'),
  ns('kube-node-lease'),
  ns('kruise-system'),
  ns('ns-1', { group: 'test' }),
  ns('ns-2', { group: 'test', env: 'prod' }),
  ns('ns-3', { group: 'test' }),
  ns('ns-4'),
  ns('dying', { group: 'test' }, 'Terminating'),
];

const rd = (targets: ResourceDistributionTargets): ResourceDistribution =>
  ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name: 'rd' }, spec: { resource: {}, targets } }) as ResourceDistribution;
const list = (...names: string[]) => ({ list: names.map((name) => ({ name })) });

describe('targetNamespaces', () => {
  it.each<[string, ResourceDistributionTargets, string[], string[]]>([
    ['no option selects nothing', {}, [], []],
    ['allNamespaces: all but kube-system, kube-public and terminating ones (reported)', { allNamespaces: true },
      ['default', 'kruise-system', 'kube-node-lease', 'ns-1', 'ns-2', 'ns-3', 'ns-4'], ['dying']],
    ['allNamespaces reaches a forbidden namespace only when listed', { allNamespaces: true, includedNamespaces: list('kube-system') },
      ['default', 'kruise-system', 'kube-node-lease', 'kube-system', 'ns-1', 'ns-2', 'ns-3', 'ns-4'], ['dying']],
    ['allNamespaces ignores an absent listed namespace (as OpenKruise)', { allNamespaces: true, includedNamespaces: list('ghost') },
      ['default', 'kruise-system', 'kube-node-lease', 'ns-1', 'ns-2', 'ns-3', 'ns-4'], ['dying']],
    ['allNamespaces minus excluded', { allNamespaces: true, excludedNamespaces: list('default', 'ns-1', 'dying') },
      ['kruise-system', 'kube-node-lease', 'ns-2', 'ns-3', 'ns-4'], []],
    ['includedNamespaces by name', { includedNamespaces: list('ns-4', 'ns-1') }, ['ns-1', 'ns-4'], []],
    ['includedNamespaces may name kube-system', { includedNamespaces: list('kube-system') }, ['kube-system'], []],
    ['included but absent is missing', { includedNamespaces: list('ns-1', 'ghost') }, ['ns-1'], ['ghost']],
    ['included but terminating is missing', { includedNamespaces: list('dying') }, [], ['dying']],
    ['empty names in the list are ignored', { includedNamespaces: { list: [{ name: '' }, {}, { name: 'ns-4' }] } }, ['ns-4'], []],
    ['label selector', { namespaceLabelSelector: { matchLabels: { group: 'test' } } }, ['ns-1', 'ns-2', 'ns-3'], ['dying']],
    ['label selector with expressions', { namespaceLabelSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] } }, ['ns-2'], []],
    ['label selector may reach kube-system', { namespaceLabelSelector: { matchExpressions: [{ key: 'group', operator: 'DoesNotExist' }] } },
      ['default', 'kruise-system', 'kube-node-lease', 'kube-public', 'kube-system', 'ns-4'], []],
    ['an empty selector selects nothing (OpenKruise: no terms, no namespaces)', { namespaceLabelSelector: {} }, [], []],
    ['union of included and selector', { includedNamespaces: list('ns-4', 'ns-1'), namespaceLabelSelector: { matchLabels: { env: 'prod' } } }, ['ns-1', 'ns-2', 'ns-4'], []],
    ['excluded wins over included and selector', {
      includedNamespaces: list('ns-4'), namespaceLabelSelector: { matchLabels: { group: 'test' } }, excludedNamespaces: list('ns-3', 'ns-4'),
    }, ['ns-1', 'ns-2'], ['dying']],
    ['excluded absent namespace is not missing', { includedNamespaces: list('ghost', 'ns-1'), excludedNamespaces: list('ghost') }, ['ns-1'], []],
    ['excluded alone selects nothing', { excludedNamespaces: list('ns-1') }, [], []],
  ])('%s', (_name, targets, want, missing) => {
    const got = targetNamespaces(rd(targets), CLUSTER);
    expect(got).toEqual({ targets: want, missing });
  });

  it('an invalid selector selects nothing and says why', () => {
    const got = targetNamespaces(rd({ includedNamespaces: list('ns-1'), namespaceLabelSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } }), CLUSTER);
    expect(got.targets).toEqual([]);
    expect(got.selectorError).toMatch(/namespaceLabelSelector\.matchExpressions\[0\]\.operator/);
  });

  it('is sorted and has no duplicates', () => {
    const got = targetNamespaces(rd({ includedNamespaces: list('ns-3', 'ns-1', 'ns-3'), namespaceLabelSelector: { matchLabels: { group: 'test' } } }), CLUSTER);
    expect(got.targets).toEqual(['ns-1', 'ns-2', 'ns-3']);
  });
});
