import { describe, expect, it } from 'vitest';
import { podListQuery, selectedPods } from './pod-list-query.js';

const w = (namespace: string, selector?: object | null) => ({ metadata: { namespace }, spec: { selector } as never });

describe('podListQuery', () => {
  it('one workload: its namespace, the required label and its selector', () => {
    expect(podListQuery([w('ns', { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }] })], 'apps.kruise.io/cloneset-instance-id'))
      .toEqual({ namespace: 'ns', labelSelector: 'apps.kruise.io/cloneset-instance-id,app=web,tier in (a,b)' });
  });

  it('several workloads in one namespace: the namespace and the required label only', () => {
    expect(podListQuery([w('ns', { matchLabels: { app: 'a' } }), w('ns', { matchLabels: { app: 'b' } })], 'x')).toEqual({ namespace: 'ns', labelSelector: 'x' });
  });

  it('several namespaces: across the cluster', () => {
    expect(podListQuery([w('a'), w('b')])).toEqual({});
  });

  it('an empty, missing or invalid selector narrows nothing (the run still sees every pod it may own)', () => {
    expect(podListQuery([w('ns', {})])).toEqual({ namespace: 'ns' });
    expect(podListQuery([w('ns', null)], 'x')).toEqual({ namespace: 'ns', labelSelector: 'x' });
    expect(podListQuery([w('ns', { matchExpressions: [{ key: 'k', operator: 'Bogus' }] })])).toEqual({ namespace: 'ns' });
  });
});

describe('selectedPods', () => {
  const pod = (name: string, labels: Record<string, string>) => ({ metadata: { name, labels } });
  it('drops the pods a workload selector no longer matches, and nothing for a selector that cannot narrow', () => {
    const byOwner = new Map([['u1', [pod('a', { app: 'web' }), pod('b', { app: 'debug' })]], ['u2', [pod('c', {})]], ['u3', [pod('d', {})]]]);
    const workloads = [
      { metadata: { namespace: 'ns', uid: 'u1' }, spec: { selector: { matchLabels: { app: 'web' } } } },
      { metadata: { namespace: 'ns', uid: 'u2' }, spec: { selector: {} } },
    ];
    const out = selectedPods(workloads, byOwner);
    expect(out.get('u1')!.map((p) => p.metadata.name)).toEqual(['a']);
    expect(out.get('u2')!.map((p) => p.metadata.name)).toEqual(['c']);
    expect(out.get('u3')!.map((p) => p.metadata.name)).toEqual(['d']);
  });
});
