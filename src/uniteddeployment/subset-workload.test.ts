import { describe, expect, it } from 'vitest';
import { desiredWorkload, subsetPrefix, subsetWorkloadName, updateReason, updatedWorkload } from './subset-workload.js';
import type { UnitedDeploymentLike } from './types.js';

const ud: UnitedDeploymentLike = {
  metadata: { name: 'sample-ud', namespace: 'ns', uid: 'u-1' },
  spec: {
    replicas: 6,
    selector: { matchLabels: { app: 'sample' } },
    template: { statefulSetTemplate: { metadata: { labels: { app: 'sample' } }, spec: { serviceName: 's', template: { metadata: { labels: { app: 'sample' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } } } } },
    topology: { subsets: [{ name: 'subset-a', nodeSelectorTerm: { matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-a'] }] }, tolerations: [{ key: 't', operator: 'Exists' }], patch: { metadata: { labels: { x: 'y' } } } }] },
  },
};
const subset = ud.spec.topology!.subsets![0]!;

describe('subset workload names', () => {
  it('is deterministic per UnitedDeployment uid and subset, under the generateName prefix', () => {
    const n = subsetWorkloadName(ud, 'subset-a');
    expect(n).toMatch(/^sample-ud-subset-a-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(subsetWorkloadName(ud, 'subset-a')).toBe(n);
    expect(subsetWorkloadName({ ...ud, metadata: { ...ud.metadata, uid: 'u-2' } }, 'subset-a')).not.toBe(n);
  });
  it('falls back to <ud>- when <ud>-<subset>- cannot prefix a name', () => {
    expect(subsetPrefix('a'.repeat(200), 'b'.repeat(60))).toBe(`${'a'.repeat(200)}-`);
  });
});

describe('desiredWorkload', () => {
  const w = desiredWorkload(ud, 'statefulSetTemplate', subset, 'sample-ud-abc', { replicas: 3, partition: 1, patch: JSON.stringify(subset.patch) });
  it('labels, selects and owns as OpenKruise does', () => {
    expect(w).toMatchObject({ apiVersion: 'apps/v1', kind: 'StatefulSet' });
    expect(w.metadata.generateName).toBe('sample-ud-subset-a-');
    expect(w.metadata.labels).toEqual({ app: 'sample', 'apps.kruise.io/controller-revision-hash': 'sample-ud-abc', 'apps.kruise.io/subset-name': 'subset-a' });
    expect(w.metadata.annotations).toEqual({ 'apps.kruise.io/subset-patch': '{"metadata":{"labels":{"x":"y"}}}' });
    expect(w.metadata.ownerReferences).toEqual([{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment', name: 'sample-ud', uid: 'u-1', controller: true, blockOwnerDeletion: true }]);
    expect(w.spec.selector).toEqual({ matchLabels: { app: 'sample', 'apps.kruise.io/subset-name': 'subset-a' } });
    expect(w.spec.replicas).toBe(3);
    expect(w.spec.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 1 } });
  });
  it('places the pod template in the subset: affinity term, tolerations, patch', () => {
    const t = w.spec.template as { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> };
    expect(t.metadata.labels).toEqual({ app: 'sample', x: 'y', 'apps.kruise.io/subset-name': 'subset-a', 'apps.kruise.io/controller-revision-hash': 'sample-ud-abc' });
    expect(t.spec.affinity).toEqual({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'node', operator: 'In', values: ['zone-a'] }] }] } } });
    expect(t.spec.tolerations).toEqual([{ key: 't', operator: 'Exists' }]);
  });
  it('gives CloneSets updateStrategy.partition and Deployments none', () => {
    const cs = desiredWorkload({ ...ud, spec: { ...ud.spec, template: { cloneSetTemplate: ud.spec.template!.statefulSetTemplate! } } }, 'cloneSetTemplate', subset, 'r', { replicas: 2, partition: 1, patch: '' });
    expect(cs.spec.updateStrategy).toEqual({ partition: 1 });
    const dep = desiredWorkload({ ...ud, spec: { ...ud.spec, template: { deploymentTemplate: ud.spec.template!.statefulSetTemplate! } } }, 'deploymentTemplate', subset, 'r', { replicas: 2, partition: 1, patch: '' });
    expect(dep.spec.updateStrategy).toBeUndefined();
  });
  it('asks for an update on a new revision, replicas, partition or patch, and keeps the stored selector', () => {
    const update = { replicas: 3, partition: 1, patch: JSON.stringify(subset.patch) };
    const stored = { ...w, metadata: { ...w.metadata, resourceVersion: '7' }, spec: { ...w.spec, podManagementPolicy: 'OrderedReady' } };
    expect(updateReason('statefulSetTemplate', stored, 'sample-ud-abc', update)).toBeUndefined();
    expect(updateReason('statefulSetTemplate', stored, 'sample-ud-new', update)).toBe('revision sample-ud-abc → sample-ud-new');
    expect(updateReason('statefulSetTemplate', stored, 'sample-ud-abc', { ...update, replicas: 4 })).toBe('replicas 3 → 4');
    expect(updateReason('statefulSetTemplate', stored, 'sample-ud-abc', { ...update, partition: 0 })).toBe('partition 1 → 0');
    expect(updateReason('statefulSetTemplate', stored, 'sample-ud-abc', { ...update, patch: '' })).toBe('patch changed');
    const next = updatedWorkload(stored, desiredWorkload(ud, 'statefulSetTemplate', subset, 'sample-ud-new', update));
    expect(next.metadata.resourceVersion).toBe('7');
    expect(next.spec.podManagementPolicy).toBe('OrderedReady');
    expect(next.metadata.labels!['apps.kruise.io/controller-revision-hash']).toBe('sample-ud-new');
  });
});
