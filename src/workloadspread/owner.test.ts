import { describe, expect, it } from 'vitest';
import { matchWorkloadSpread, notFoundMessage, type OwnerLookup } from './owner.js';
import { pod, workloadSpread } from './test-builders.js';
import type { WorkloadSpread } from './types.js';
import type { CustomWorkloadWhitelist } from './workloads.js';

const deployment = (name: string) => ({ apiVersion: 'apps/v1', kind: 'Deployment', name });
const rsOwnedBy = (owner: { apiVersion: string; kind: string; name: string }) => ({ metadata: { ownerReferences: [{ ...owner, controller: true }] } });

const objects: Record<string, { metadata?: { ownerReferences?: { apiVersion: string; kind: string; name: string; controller: boolean }[] } }> = {
  'apps/ReplicaSet/web-abc': rsOwnedBy(deployment('web')),
  'apps/ReplicaSet/api-abc': rsOwnedBy(deployment('api')),
  'apps/Deployment/api': { metadata: {} },
  'apps/Deployment/web': rsOwnedBy({ apiVersion: 'example.com/v1', kind: 'Rollout', name: 'r1' }),
};
const lookup: OwnerLookup = (group, kind, name) => {
  const o = objects[`${group}/${kind}/${name}`];
  if (o) return { state: 'found', object: o };
  return kind === 'ReplicaSet' || kind === 'Deployment' ? { state: 'absent' } : { state: 'unavailable', reason: `no state for ${kind}` };
};
const whitelist: CustomWorkloadWhitelist = { workloads: [{ group: 'example.com', version: 'v1', kind: 'Rollout', subResources: [], replicasPath: 'spec.replicas' }] };
const ctx = { lookup, whitelist };

const ws = (name: string, targetRef: WorkloadSpread['spec']['targetRef'], extra: Partial<WorkloadSpread['spec']> = {}) =>
  workloadSpread({ name, targetRef, spec: extra });

describe('matchWorkloadSpread', () => {
  it.each<[string, ReturnType<typeof pod>, WorkloadSpread[], string]>([
    ['Deployment through its ReplicaSet', pod(), [ws('s1', deployment('api')), ws('s2', deployment('web'))], 's2'],
    ['ReplicaSet targeted directly', pod(), [ws('s', { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-abc' })], 's'],
    ['version of the targetRef ignored', pod(), [ws('s', { apiVersion: 'apps/v1beta2', kind: 'Deployment', name: 'web' })], 's'],
    ['other group does not match', pod({ owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'api-abc' } }), [ws('s', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'Deployment', name: 'api' })], 'none'],
    ['an owner whose kind has no pushed state: cannot tell', pod(), [ws('s', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'Deployment', name: 'web' })], 'unknown'],
    ['whitelisted custom kind above the Deployment', pod(), [ws('s', { apiVersion: 'example.com/v1', kind: 'Rollout', name: 'r1' })], 's'],
    ['CloneSet owner directly', pod({ owner: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' } }), [ws('s', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'cs' })], 's'],
    ['unhandled owner kind', pod({ owner: { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc' } }), [ws('s', deployment('web'))], 'none'],
    ['no controller', pod({ owner: null as never }), [ws('s', deployment('web'))], 'none'],
    ['targetFilter selects', pod(), [ws('s', deployment('web'), { targetFilter: { selector: { matchLabels: { app: 'web' } } } })], 's'],
    ['targetFilter excludes', pod(), [ws('s', deployment('web'), { targetFilter: { selector: { matchLabels: { app: 'db' } } } })], 'none'],
    ['targetFilter without selector selects nothing (§8)', pod(), [ws('s', deployment('web'), { targetFilter: {} })], 'none'],
    ['ReplicaSet not pushed yet: Deployment inferred from pod-template-hash', pod({ owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'new-xyz' }, labels: { 'pod-template-hash': 'xyz' } }),
      [ws('s', deployment('new'))], 's'],
    ['ReplicaSet absent and name does not end in the hash: NotFound, as OpenKruise', pod({ owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'odd' } }), [ws('s', deployment('new'))], 'owner-not-found'],
    ['inferred Deployment absent: NotFound', pod({ owner: { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone-xyz' }, labels: { 'pod-template-hash': 'xyz' } }), [ws('s', deployment('new'))], 'owner-not-found'],
    ['deleting WorkloadSpread skipped', pod(), [{ ...ws('s', deployment('web')), metadata: { name: 's', deletionTimestamp: '1970-01-01T00:00:00Z' } } as WorkloadSpread], 'none'],
  ])('%s', (_name, p, spreads, want) => {
    const m = matchWorkloadSpread(p, spreads, ctx);
    expect(m.kind === 'matched' ? m.ws.metadata?.name : m.kind).toBe(want);
  });

  it("says which owner is missing in the API server's words", () => {
    const owner = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web-canary' };
    const absent: OwnerLookup = () => ({ state: 'absent' });
    const m = matchWorkloadSpread(pod({ owner }), [ws('s', { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' })], { lookup: absent, whitelist });
    expect(m).toEqual({ kind: 'owner-not-found', message: 'clonesets.apps.kruise.io "web-canary" not found' });
    expect(notFoundMessage('apps', 'ReplicaSet', 'web-abc')).toBe('replicasets.apps "web-abc" not found');
  });
});
