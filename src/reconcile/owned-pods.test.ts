import { describe, expect, it } from 'vitest';
import { ownedPods } from './owned-pods.js';

const pod = (ownerReferences: unknown[]) => ({ metadata: { name: 'web-abcde', namespace: 'ns', ownerReferences } });

describe('ownedPods', () => {
  const of = ownedPods('apps.kruise.io/v1alpha1', 'CloneSet').objectsOf!;

  it('names the controlling workload of the kind, in the pod’s namespace, whatever its version', () => {
    expect(of(pod([{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', name: 'web', controller: true }]))).toEqual([{ namespace: 'ns', name: 'web' }]);
  });

  it('ignores owners that do not control the pod, and controllers of another kind or group', () => {
    expect(of(pod([{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web' }]))).toEqual([]);
    expect(of(pod([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', controller: true }]))).toEqual([]);
    expect(of(pod([{ apiVersion: 'apps/v1', kind: 'CloneSet', name: 'web', controller: true }]))).toEqual([]);
    expect(of({ metadata: { name: 'bare' } })).toEqual([]);
  });
});
