import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../kube/http.js';
import type { KubeReader, Scope } from '../reconcile/types.js';
import { observeResourceDistributions } from './observe.js';

type Call = { kind: string; labelSelector?: string; fieldSelector?: string };

const rd = (name: string, kind = 'ConfigMap', resourceName = 'shared', target = 'ns-1') =>
  ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name },
    spec: { resource: { apiVersion: 'v1', kind, metadata: { name: resourceName } }, targets: { includedNamespaces: { list: [{ name: target }] } } } });

/** A reader over fixed LIST answers, recording each call. */
function reader(items: Record<string, KubeObject[]>): KubeReader & { calls: Call[] } {
  const calls: Call[] = [];
  return {
    calls,
    async list<T extends KubeObject>(_apiVersion: string, kind: string, opts: { labelSelector?: string; fieldSelector?: string } = {}) {
      calls.push({ kind, ...opts });
      const key = opts.fieldSelector ? `${kind}?${opts.fieldSelector}` : opts.labelSelector ? `${kind}?label` : kind;
      return { items: (items[key] ?? []) as T[], resourceVersion: '1' };
    },
    async get() {
      throw new Error('observe must only LIST');
    },
  };
}

const cm = (namespace: string, name = 'shared') => ({ metadata: { name, namespace, uid: `${namespace}-${name}` } });

describe('observeResourceDistributions', () => {
  const cluster = {
    // a: its copy in ns-1 exists; b: no copy in ns-4 yet; c: no Secret copy anywhere yet
    ResourceDistribution: [rd('a'), rd('b', 'ConfigMap', 'shared', 'ns-4'), rd('c', 'Secret', 'creds'), rd('bad', 'Pod', 'p')],
    Namespace: [
      { metadata: { name: 'ns-1', labels: { team: 'x' } }, status: { phase: 'Active' } },
      { metadata: { name: 'ns-4' }, status: { phase: 'Active' } },
      { metadata: { name: 'ns-2', deletionTimestamp: '2024-01-01T00:00:00Z' }, status: { phase: 'Active' } },
      { metadata: { name: 'ns-3' }, status: { phase: 'Terminating' } },
    ],
    'ConfigMap?label': [cm('ns-1'), cm('ns-1', 'old')],
    'ConfigMap?metadata.name=shared': [cm('ns-1'), cm('ns-3')],
    'Secret?metadata.name=creds': [cm('ns-1', 'creds')],
  };

  it.each<[string, Scope, string[], Call[]]>([
    ['a full run: four LISTs, plus one per name some target has no copy of', { kind: 'all' }, ['a', 'b', 'bad', 'c'], [
      { kind: 'ResourceDistribution' },
      { kind: 'Namespace' },
      { kind: 'ConfigMap', labelSelector: 'apps.kruise.io/resourcedistribution' },
      { kind: 'Secret', labelSelector: 'apps.kruise.io/resourcedistribution' },
      { kind: 'ConfigMap', fieldSelector: 'metadata.name=shared' },
      { kind: 'Secret', fieldSelector: 'metadata.name=creds' },
    ]],
    ['a triggered run lists only the named distributions\' copies', { kind: 'objects', objects: [{ name: 'c' }] }, ['c'], [
      { kind: 'ResourceDistribution' },
      { kind: 'Namespace' },
      { kind: 'ConfigMap', labelSelector: 'apps.kruise.io/resourcedistribution in (c)' },
      { kind: 'Secret', labelSelector: 'apps.kruise.io/resourcedistribution in (c)' },
      { kind: 'Secret', fieldSelector: 'metadata.name=creds' },
    ]],
    ['a run with every copy in place makes only the four LISTs', { kind: 'objects', objects: [{ name: 'a' }] }, ['a'], [
      { kind: 'ResourceDistribution' },
      { kind: 'Namespace' },
      { kind: 'ConfigMap', labelSelector: 'apps.kruise.io/resourcedistribution in (a)' },
      { kind: 'Secret', labelSelector: 'apps.kruise.io/resourcedistribution in (a)' },
    ]],
    ['a run for a deleted distribution stops after one LIST', { kind: 'objects', objects: [{ name: 'gone' }] }, [], [{ kind: 'ResourceDistribution' }]],
  ])('%s', async (_name, scope, names, calls) => {
    const kube = reader(cluster);
    const got = await observeResourceDistributions(kube, scope);
    expect(got.distributions.map((d) => d.metadata.name).sort()).toEqual(names);
    expect(kube.calls).toEqual(calls);
  });

  it('returns namespaces as facts and each object once, with its kind', async () => {
    const got = await observeResourceDistributions(reader(cluster), { kind: 'all' });
    expect(got.namespaces).toEqual([
      { name: 'ns-1', labels: { team: 'x' }, phase: 'Active' },
      { name: 'ns-4', labels: {}, phase: 'Active' },
      { name: 'ns-2', labels: {}, phase: 'Terminating' },
      { name: 'ns-3', labels: {}, phase: 'Terminating' },
    ]);
    expect(got.objects.map((o) => `${o.apiVersion} ${o.kind} ${o.metadata.namespace}/${o.metadata.name}`).sort()).toEqual([
      'v1 ConfigMap ns-1/old', 'v1 ConfigMap ns-1/shared', 'v1 ConfigMap ns-3/shared', 'v1 Secret ns-1/creds',
    ]);
  });
});
