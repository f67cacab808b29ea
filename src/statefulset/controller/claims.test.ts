import { describe, expect, it } from 'vitest';
import type { Pod } from '../../workload/pods.js';
import type { StoredStatefulSet } from '../types.js';
import { claimWithPolicyOwners, hasStaleClaim, missingClaims } from './claims.js';
import type { Pvc } from './observe.js';

type P = 'Retain' | 'Delete';
const set = (whenDeleted: P = 'Retain', whenScaled: P = 'Retain'): StoredStatefulSet => ({
  metadata: { name: 'web', namespace: 'ns', uid: 'set-uid' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: {},
    volumeClaimTemplates: [{ metadata: { name: 'data', labels: { tier: 'db' } }, spec: { accessModes: ['ReadWriteOnce'] } }] as never,
    persistentVolumeClaimRetentionPolicy: { whenDeleted, whenScaled },
  },
});
const pod: Pod = { metadata: { name: 'web-2', namespace: 'ns', uid: 'pod-uid' }, spec: { containers: [] } };
const claim = (owners: { uid: string; kind?: string; name?: string }[] = []): Pvc =>
  ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data-web-2', namespace: 'ns', ...(owners.length ? { ownerReferences: owners.map((o) => ({ apiVersion: 'v1', kind: o.kind ?? 'Pod', name: o.name ?? 'x', uid: o.uid })) } : {}) } }) as Pvc;
const owners = (c: Pvc | undefined) => (c ? (c.metadata.ownerReferences ?? []).map((r) => r.uid) : 'unchanged');

describe('PVC retention policy', () => {
  it('new claims are `<template>-<set>-<ordinal>` with the selector labels; whenDeleted Delete owns them by the set', () => {
    const [c] = missingClaims(set('Delete'), 2, new Map());
    expect(c!.metadata.name).toBe('data-web-2');
    expect(c!.metadata.labels).toEqual({ tier: 'db', app: 'web' });
    expect(c!.metadata.ownerReferences).toEqual([{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web', uid: 'set-uid' }]);
    expect(missingClaims(set(), 2, new Map())[0]!.metadata.ownerReferences).toBeUndefined();
  });
  it('an existing claim is not created again', () => {
    expect(missingClaims(set(), 2, new Map([['ns/data-web-2', claim()]]))).toEqual([]);
  });
  it('Retain/Retain removes our refs and keeps others', () => {
    expect(owners(claimWithPolicyOwners(set(), claim([{ uid: 'set-uid' }, { uid: 'other' }]), pod, false))).toEqual(['other']);
    expect(owners(claimWithPolicyOwners(set(), claim(), pod, false))).toBe('unchanged');
  });
  it('whenScaled Delete: a scaled-down pod owns its claim, an in-range one does not', () => {
    expect(owners(claimWithPolicyOwners(set('Retain', 'Delete'), claim(), pod, true))).toEqual(['pod-uid']);
    expect(owners(claimWithPolicyOwners(set('Retain', 'Delete'), claim([{ uid: 'pod-uid' }]), pod, false))).toEqual([]);
  });
  it('Delete/Delete: the set in range, the pod once scaled down', () => {
    expect(owners(claimWithPolicyOwners(set('Delete', 'Delete'), claim(), pod, false))).toEqual(['set-uid']);
    expect(owners(claimWithPolicyOwners(set('Delete', 'Delete'), claim([{ uid: 'set-uid' }]), pod, true))).toEqual(['pod-uid']);
  });
  it('a claim still owned by an earlier pod of the name is stale under whenScaled Delete', () => {
    const c = claim([{ uid: 'old', kind: 'Pod', name: 'web-2' }]);
    expect(hasStaleClaim(set('Retain', 'Delete'), 'web-2', undefined, [c])).toBe(true);
    expect(hasStaleClaim(set('Retain', 'Delete'), 'web-2', 'old', [c])).toBe(false);
    expect(hasStaleClaim(set(), 'web-2', undefined, [c])).toBe(false);
  });
});
