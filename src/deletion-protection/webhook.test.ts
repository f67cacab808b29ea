import { describe, expect, it } from 'vitest';
import type { AdmissionInput, ClusterState, Snapshot } from '../admission/types.js';
import { COUNTS_COLLECTION } from './counts.js';
import { deletionProtectionHandler } from './webhook.js';

const NOW = 100_000;
const state = (counts?: Snapshot): ClusterState => ({ collection: async <T>(name: string) => (name === COUNTS_COLLECTION ? (counts as Snapshot<T>) : undefined) });
const del = (group: string, resource: string, oldObject: unknown, subResource?: string): AdmissionInput => ({
  uid: 'u', kind: { group, version: 'v1', kind: 'X' }, resource: { group, version: 'v1', resource }, namespace: '', operation: 'DELETE',
  userInfo: {}, dryRun: false, clusterId: 'c', oldObject, ...(subResource ? { subResource } : {}),
});
const labelled = (value: string, extra: Record<string, unknown> = {}) => ({ metadata: { name: 'prod', labels: { 'policy.kruise.io/delete-protection': value } }, ...extra });

describe('deletionProtectionHandler', () => {
  it.each([
    ['Always Service', del('', 'services', labelled('Always')), undefined, false],
    ['Cascading Deployment with replicas', del('apps', 'deployments', labelled('Cascading', { spec: { replicas: 2 } })), undefined, false],
    ['Cascading empty Namespace', del('', 'namespaces', labelled('Cascading')), { items: [{ metadata: { name: 'ns.prod', resourceVersion: '1' }, activePods: 0, boundPVCs: 0 }], resourceVersion: '1', observedAt: NOW }, true],
    ['Cascading Namespace without counts', del('', 'namespaces', labelled('Cascading')), undefined, false],
    ['an unguarded kind', del('', 'configmaps', labelled('Always')), undefined, true],
    ['a subresource', del('', 'services', labelled('Always'), 'status'), undefined, true],
    ['no oldObject', del('', 'services', undefined), undefined, true],
  ])('%s', async (_name, req, counts, allowed) => {
    expect((await deletionProtectionHandler(req, state(counts as Snapshot | undefined), { now: NOW })).allowed).toBe(allowed);
  });
});
