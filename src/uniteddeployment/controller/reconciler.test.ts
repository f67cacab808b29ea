import { describe, expect, it } from 'vitest';
import { owningUnitedDeployment, unitedDeploymentOfPod } from './reconciler.js';

describe('UnitedDeployment triggers', () => {
  it('maps a subset workload to the UnitedDeployment that controls it', () => {
    const w = { metadata: { namespace: 'ns', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'UnitedDeployment', name: 'ud', controller: true }] } };
    expect(owningUnitedDeployment(w)).toEqual([{ namespace: 'ns', name: 'ud' }]);
    expect(owningUnitedDeployment({ metadata: { ownerReferences: [{ kind: 'Deployment', name: 'x', controller: true }] } })).toEqual([]);
  });
  it("maps a subset's unschedulable pod to its UnitedDeployment through its controller's name", () => {
    const unschedulable = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }] };
    const pod = (owner: string, status: unknown = unschedulable) => ({ metadata: { namespace: 'ns', labels: { 'apps.kruise.io/subset-name': 'subset-a' }, ownerReferences: [{ kind: 'StatefulSet', name: owner, controller: true }] }, status });
    expect(unitedDeploymentOfPod(pod('sample-ud-subset-a-x2b4c'))).toEqual([{ namespace: 'ns', name: 'sample-ud' }]);
    expect(unitedDeploymentOfPod(pod('my-subset-a-ud-subset-a-x2b4c-7d9f8c6b5'))).toEqual([{ namespace: 'ns', name: 'my-subset-a-ud' }]);
    expect(unitedDeploymentOfPod({ metadata: { ownerReferences: [{ name: 'x', controller: true }] }, status: unschedulable })).toEqual([]);
    // Other pod changes reach it through the workload's status.
    expect(unitedDeploymentOfPod(pod('sample-ud-subset-a-x2b4c', { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] }))).toEqual([]);
    expect(unitedDeploymentOfPod(pod('sample-ud-subset-a-x2b4c', { phase: 'Pending' }))).toEqual([]);
  });
});
