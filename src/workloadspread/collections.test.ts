import { describe, expect, it } from 'vitest';
import { STATUS_WRITER_FIELD } from '../kube/managed-fields.js';
import { recordedAccounts } from './choose.js';
import { workloadSpreadsCollection } from './collections.js';
import type { WorkloadSpread } from './types.js';

const managedFields = (statusManager: string) => [
  { manager: 'kubectl', time: '2026-11-28T10:00:00Z', fieldsV1: { 'f:spec': {} } },
  { manager: statusManager, time: '2026-11-28T10:00:05Z', fieldsV1: { 'f:status': { 'f:versionedSubsetStatuses': {} } } },
];
const object = (statusManager: string) => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread',
  metadata: { name: 'ws', namespace: 'ns', uid: 'u', resourceVersion: '12', managedFields: managedFields(statusManager) },
  spec: { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, subsets: [{ name: 'a', maxReplicas: 2 }, { name: 'b' }] },
  status: { versionedSubsetStatuses: { v: [{ name: 'a', replicas: 2, missingReplicas: 0 }, { name: 'b', replicas: 0, missingReplicas: -1 }] } },
});

describe('workloadSpreadsCollection', () => {
  it('is LISTed with managedFields, notes who last wrote the status, and drops managedFields', () => {
    expect(workloadSpreadsCollection.select?.managedFields).toBe('keep');
    const projected = workloadSpreadsCollection.project!(object('kubectl-patch'));
    expect(projected[STATUS_WRITER_FIELD]).toBe('kubectl-patch');
    expect((projected.metadata as Record<string, unknown>).managedFields).toBeUndefined();
  });

  it('a status another writer recorded is offered to the ledger; one our controllers wrote is not', () => {
    const theirs = workloadSpreadsCollection.project!(object('kruise-manager')) as unknown as WorkloadSpread;
    expect(recordedAccounts(theirs, 'v')).toEqual({ resourceVersion: '12', accounts: [
      { name: 'a', maxReplicas: 2, replicas: 2, creatingPods: {}, deletingPods: {} },
      { name: 'b', maxReplicas: null, replicas: 0, creatingPods: {}, deletingPods: {} },
    ] });
    expect(recordedAccounts(theirs, 'other')).toBeUndefined();
    const ours = workloadSpreadsCollection.project!(object('kruise-serverless')) as unknown as WorkloadSpread;
    expect(recordedAccounts(ours, 'v')).toBeUndefined();
  });
});
