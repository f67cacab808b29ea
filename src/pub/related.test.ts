import { describe, expect, it } from 'vitest';
import { podWorkload, relatedPub, type Owned } from './related.js';
import { pub, readyPod } from './test-builders.js';

const rs = (name: string, owner?: { apiVersion: string; kind: string; name: string }): Owned => ({
  metadata: { name, namespace: 'default', ...(owner ? { ownerReferences: [{ ...owner, controller: true }] } : {}) },
});
const replicaSets = new Map<string, Owned>([
  ['web-abc', rs('web-abc', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' })],
  ['roll-abc', rs('roll-abc', { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'roll' })],
  ['bare', rs('bare')],
]);

describe('podWorkload', () => {
  it.each([
    ['no controller', readyPod('p'), undefined],
    ['Deployment through its ReplicaSet', readyPod('p', { owner: { kind: 'ReplicaSet', name: 'web-abc' } }), { group: 'apps', kind: 'Deployment', name: 'web' }],
    ['Rollout through its ReplicaSet', readyPod('p', { owner: { kind: 'ReplicaSet', name: 'roll-abc' } }), { group: 'argoproj.io', kind: 'Rollout', name: 'roll' }],
    ['ReplicaSet without controller', readyPod('p', { owner: { kind: 'ReplicaSet', name: 'bare' } }), { group: 'apps', kind: 'ReplicaSet', name: 'bare' }],
    ['unknown ReplicaSet', readyPod('p', { owner: { kind: 'ReplicaSet', name: 'gone' } }), undefined],
    ['CloneSet', readyPod('p', { owner: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' } }), { group: 'apps.kruise.io', kind: 'CloneSet', name: 'cs' }],
    ['StatefulSet', readyPod('p', { owner: { kind: 'StatefulSet', name: 'db' } }), { group: 'apps', kind: 'StatefulSet', name: 'db' }],
  ])('%s', (_name, p, want) => {
    expect(podWorkload(p, replicaSets)).toEqual(want);
  });
});

describe('relatedPub', () => {
  const bySelector = pub('by-selector', { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 });
  const byRef = pub('by-ref', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxUnavailable: 1 });
  const otherRef = pub('other-ref', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' }, selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 });
  const empty = pub('empty', { selector: {}, maxUnavailable: 1 });
  const elsewhere = pub('elsewhere', { selector: { matchLabels: { app: 'web' } }, maxUnavailable: 1 }, { ns: 'other' });
  const web = { group: 'apps', kind: 'Deployment', name: 'web' };

  it.each([
    ['targetRef names the workload', [byRef, bySelector], web, 'by-ref'],
    ['list order decides', [bySelector, byRef], web, 'by-selector'],
    ['a targetRef PUB never falls back to its selector when the workload is known', [otherRef], web, undefined],
    ['a targetRef PUB uses its selector when no workload resolves', [otherRef], undefined, 'other-ref'],
    ['selector PUB', [bySelector], undefined, 'by-selector'],
    ['empty selector matches nothing', [empty], undefined, undefined],
    ['other namespace', [elsewhere], undefined, undefined],
  ])('%s', (_name, pubs, workload, want) => {
    expect(relatedPub(readyPod('p'), pubs, workload)?.metadata?.name).toBe(want);
  });
});
