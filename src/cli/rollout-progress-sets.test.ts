import { describe, expect, it } from 'vitest';
import type { StoredDaemonSet as DaemonSet } from '../daemonset/types.js';
import type { StoredStatefulSet } from '../statefulset/types.js';
import type { Pod } from '../workload/pods.js';
import { daemonSetProgress, statefulSetProgress } from './rollout-progress-sets.js';

const sts = (spec: Record<string, unknown>, status: Record<string, unknown> | undefined, generation = 2): StoredStatefulSet =>
  ({ metadata: { name: 'db', namespace: 'ns', uid: 'u1', generation }, spec: { replicas: 3, ...spec }, ...(status ? { status } : {}) }) as unknown as StoredStatefulSet;
const ds = (spec: Record<string, unknown>, status: Record<string, unknown>): DaemonSet =>
  ({ metadata: { name: 'agent', namespace: 'ns', uid: 'u2', generation: 1 }, spec: { template: {}, ...spec }, status: { observedGeneration: 1, ...status } }) as unknown as DaemonSet;
const pod = (name: string, ready: boolean, owner = 'u1'): Pod =>
  ({ metadata: { name, ownerReferences: [{ uid: owner, controller: true }] }, status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } }) as unknown as Pod;

describe('statefulSetProgress', () => {
  it('waits for the controller to observe the generation', () => {
    expect(statefulSetProgress(sts({}, { observedGeneration: 1 }), [])).toMatchObject({ done: false, waiting: [{ on: 'observed', generation: 2, observedGeneration: 1 }] });
  });
  it('complete when every replica is updated and available', () => {
    expect(statefulSetProgress(sts({}, { observedGeneration: 2, replicas: 3, updatedReplicas: 3, updatedAvailableReplicas: 3, readyReplicas: 3, updateRevision: 'db-2' }), []))
      .toMatchObject({ done: 'complete', updated: 3, total: 3, revision: 'db-2' });
  });
  it('partitioned once the pods above the partition are updated', () => {
    const set = sts({ updateStrategy: { rollingUpdate: { partition: 2 } } }, { observedGeneration: 2, replicas: 3, updatedReplicas: 1, updatedReadyReplicas: 1, readyReplicas: 3 });
    expect(statefulSetProgress(set, [])).toMatchObject({ done: 'partitioned', target: 1, waiting: [{ on: 'partition', partition: 2 }] });
  });
  it('names a pause and the pods not ready', () => {
    const set = sts({ updateStrategy: { rollingUpdate: { paused: true } } }, { observedGeneration: 2, replicas: 3, updatedReplicas: 0, readyReplicas: 2 });
    expect(statefulSetProgress(set, [pod('db-0', true), pod('db-1', false), pod('other', false, 'u9')]).waiting).toEqual([{ on: 'paused', field: 'spec.updateStrategy.rollingUpdate.paused' }, { on: 'not-ready', pods: ['db-1'] }]);
  });
});

describe('daemonSetProgress', () => {
  it('complete when every scheduled node runs an updated, available pod', () => {
    expect(daemonSetProgress(ds({}, { desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 2, numberAvailable: 2, numberReady: 2 }), [])).toMatchObject({ done: 'complete', total: 2 });
  });
  it('not done while pods are updated but not all available', () => {
    const p = daemonSetProgress(ds({}, { desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 2, numberAvailable: 1 }), [pod('a', true, 'u2'), pod('b', false, 'u2')]);
    expect(p).toMatchObject({ done: false, updatedAvailable: 1, waiting: [{ on: 'not-ready', pods: ['b'] }] });
  });
  it('partitioned, and paused', () => {
    expect(daemonSetProgress(ds({ updateStrategy: { rollingUpdate: { partition: 1 } } }, { desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 1, numberAvailable: 2 }), []))
      .toMatchObject({ done: 'partitioned', target: 1 });
    expect(daemonSetProgress(ds({ updateStrategy: { rollingUpdate: { paused: true } } }, { desiredNumberScheduled: 2, currentNumberScheduled: 2, updatedNumberScheduled: 0, numberAvailable: 2 }), []).waiting)
      .toEqual([{ on: 'paused', field: 'spec.updateStrategy.rollingUpdate.paused' }]);
  });
});
