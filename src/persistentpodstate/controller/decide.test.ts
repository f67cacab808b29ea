import { describe, expect, it } from 'vitest';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import type { StoredPersistentPodState } from '../types.js';
import { decidePersistentPodStates } from './decide.js';
import type { StatefulSetLike } from './generate.js';
import { inReplicas } from './record.js';

const sts = (annotations: Record<string, string> = {}, replicas = 2): StatefulSetLike => ({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web', namespace: 'ns', uid: 's1', annotations }, spec: { replicas } });
const pps = (podStates: NonNullable<StoredPersistentPodState['status']>['podStates'] = {}): StoredPersistentPodState => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PersistentPodState',
  metadata: { name: 'web', namespace: 'ns', generation: 1, resourceVersion: '3' },
  spec: { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web' }, requiredPersistentTopology: { nodeTopologyKeys: ['zone'] } },
  status: { observedGeneration: 1, podStates },
});
const pod = (name: string, node: string, ready = true): Pod => ({ metadata: { name, namespace: 'ns' }, spec: { nodeName: node, containers: [] }, status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
const nodes = new Map<string, Node>([['n1', { metadata: { name: 'n1', labels: { zone: 'z1', other: 'x' } } } as unknown as Node]]);

describe('decidePersistentPodStates', () => {
  it('records the zone of each ready pod\'s node', () => {
    const plan = decidePersistentPodStates({ states: [pps()], workloads: [sts()], podsByState: new Map([['ns/web', [pod('web-0', 'n1'), pod('web-1', 'n1', false)]]]), nodes });
    expect(plan.status[0]?.status).toEqual({ observedGeneration: 1, podStates: { 'web-0': { nodeName: 'n1', nodeTopologyLabels: { zone: 'z1' }, annotations: {} } } });
  });

  it('forgets a pod scaled away once it is gone, keeps a recreated one', () => {
    const recorded = { 'web-0': { nodeName: 'n1', nodeTopologyLabels: { zone: 'z1' }, annotations: {} }, 'web-2': { nodeName: 'n1', nodeTopologyLabels: { zone: 'z1' }, annotations: {} } };
    const plan = decidePersistentPodStates({ states: [pps(recorded)], workloads: [sts()], podsByState: new Map([['ns/web', []]]), nodes });
    expect(plan.status[0]?.status).toEqual({ observedGeneration: 1, podStates: { 'web-0': recorded['web-0'], 'web-2': null } });
  });

  it('auto-generates a PersistentPodState from the annotations, and deletes it once they go', () => {
    const asks = sts({ 'kruise.io/auto-generate-persistent-pod-state': 'true', 'kruise.io/preferred-persistent-topology': 'zone,rack', 'kruise.io/persistent-pod-annotations': 'ip' });
    const plan = decidePersistentPodStates({ states: [], workloads: [asks], podsByState: new Map(), nodes });
    expect(plan.writes[0]).toMatchObject({ op: 'create', object: { metadata: { name: 'web', ownerReferences: [{ kind: 'StatefulSet', name: 'web', uid: 's1', controller: true }] }, spec: { targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web' }, preferredPersistentTopology: [{ weight: 100, preference: { nodeTopologyKeys: ['zone', 'rack'] } }], persistentPodAnnotations: [{ key: 'ip' }] } } });
    const generated = { ...pps(), metadata: { ...pps().metadata, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', uid: 's1', controller: true }] } };
    expect(decidePersistentPodStates({ states: [generated], workloads: [sts()], podsByState: new Map(), nodes }).writes).toEqual([expect.objectContaining({ op: 'delete', target: expect.objectContaining({ name: 'web' }) })]);
    expect(decidePersistentPodStates({ states: [pps()], workloads: [sts()], podsByState: new Map([['ns/web', []]]), nodes }).writes).toEqual([]);
  });

  it('reserved ordinals are skipped when counting replicas', () => {
    expect([0, 1, 2, 3].map((i) => inReplicas(i, { replicas: 2, reserveOrdinals: new Set([1]), deleting: false }))).toEqual([true, false, true, false]);
  });
});
