import { describe, expect, it } from 'vitest';
import { persistentPodStateFor, steeredPod, type PodLike } from './affinity.js';
import type { StoredPersistentPodState } from './types.js';
import { validatePersistentPodState } from './validate.js';

const pps = (over: Partial<StoredPersistentPodState['spec']> = {}, podStates: NonNullable<StoredPersistentPodState['status']>['podStates'] = {}): StoredPersistentPodState => ({
  metadata: { name: 'web', namespace: 'ns' },
  spec: { targetRef: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web' }, ...over },
  status: { observedGeneration: 1, podStates },
});
const pod = (name = 'web-0', owner = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'StatefulSet', name: 'web', controller: true }): PodLike => ({ metadata: { name, namespace: 'ns', ownerReferences: [owner] }, spec: {} });
const recorded = { 'web-0': { nodeName: 'n1', nodeTopologyLabels: { zone: 'z1', rack: 'r1' } } };

describe('the pod webhook', () => {
  it('finds the state of the pod\'s StatefulSet, in any version of its group', () => {
    expect(persistentPodStateFor(pod(), 'ns', [pps()])?.metadata.name).toBe('web');
    expect(persistentPodStateFor(pod('web-0', { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', controller: true }), 'ns', [pps()])).toBeUndefined();
    expect(persistentPodStateFor(pod(), 'other', [pps()])).toBeUndefined();
  });

  it('required keys become nodeSelector entries, preferred ones a node affinity term; the pod is annotated', () => {
    const out = steeredPod(pod(), pps({ requiredPersistentTopology: { nodeTopologyKeys: ['zone', 'missing'] }, preferredPersistentTopology: [{ weight: 100, preference: { nodeTopologyKeys: ['rack'] } }] }, recorded));
    expect(out?.metadata?.annotations).toEqual({ 'kruise.io/injected-persistent-pod-state': 'web' });
    expect(out?.spec?.nodeSelector).toEqual({ zone: 'z1' });
    expect(out?.spec?.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution).toEqual([{ weight: 100, preference: { matchExpressions: [{ key: 'rack', operator: 'In', values: ['r1'] }] } }]);
  });

  it('a pod never recorded, or recorded without labels, is left alone', () => {
    expect(steeredPod(pod('web-1'), pps({ requiredPersistentTopology: { nodeTopologyKeys: ['zone'] } }, recorded))).toBeUndefined();
    expect(steeredPod(pod(), pps({ requiredPersistentTopology: { nodeTopologyKeys: ['zone'] } }, { 'web-0': { nodeName: 'n1', nodeTopologyLabels: {} } }))).toBeUndefined();
  });
});

describe('validatePersistentPodState', () => {
  it("OpenKruise's rules", () => {
    expect(validatePersistentPodState(pps({ requiredPersistentTopology: { nodeTopologyKeys: ['zone'] } }), undefined, [])).toBeUndefined();
    expect(validatePersistentPodState(pps(), undefined, [])).toContain('TopologyConstraint and TopologyPreference cannot be empty at the same time');
    expect(validatePersistentPodState(pps({ targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, requiredPersistentTopology: { nodeTopologyKeys: ['zone'] } }), undefined, [])).toContain('TargetReference.Kind must be StatefulSet or in PPS_Watch_Custom_Workload_WhiteList');
    const other = { ...pps(), metadata: { name: 'other', namespace: 'ns' } };
    expect(validatePersistentPodState(pps({ requiredPersistentTopology: { nodeTopologyKeys: ['zone'] } }), undefined, [other])).toContain('targetReference is in conflict with other PersistentPodState other');
    const moved = pps({ targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'x' }, requiredPersistentTopology: { nodeTopologyKeys: ['zone'] } });
    expect(validatePersistentPodState(moved, pps(), [])).toContain('targetRef cannot be modified');
  });
});
