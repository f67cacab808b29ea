import { describe, expect, it } from 'vitest';
import type { AdmissionInput } from '../admission/types.js';
import type { ClusterState, Snapshot } from '../edge-state/contracts.js';
import { CASCADING_PODS, CASCADING_PVCS, coverageMarker } from './dependents.js';
import { deletionProtectionHandler } from './webhook.js';

const NOW = 100_000;
// The same snapshot stands for both the pods and the PVCs a namespace's deletion reads.
const state = (dependents?: Snapshot): ClusterState => ({
  collection: async <T>(name: string) => (name === CASCADING_PODS || name === CASCADING_PVCS ? (dependents as Snapshot<T>) : undefined),
});
const del = (group: string, resource: string, oldObject: unknown, subResource?: string): AdmissionInput => ({
  uid: 'u', kind: { group, version: 'v1', kind: 'X' }, resource: { group, version: 'v1', resource }, namespace: '', operation: 'DELETE',
  userInfo: {}, dryRun: false, clusterId: 'c', oldObject, ...(subResource ? { subResource } : {}),
});
const labelled = (value: string, extra: Record<string, unknown> = {}) => ({ metadata: { name: 'prod', labels: { 'policy.kruise.io/delete-protection': value } }, ...extra });

describe('deletionProtectionHandler', () => {
  it.each([
    ['Always Service', del('', 'services', labelled('Always')), undefined, false],
    ['Cascading Deployment with replicas', del('apps', 'deployments', labelled('Cascading', { spec: { replicas: 2 } })), undefined, false],
    ['Cascading empty Namespace', del('', 'namespaces', labelled('Cascading')), { items: [coverageMarker('prod')], resourceVersion: '1', observedAt: NOW }, true],
    ['Cascading Namespace with a live pod', del('', 'namespaces', labelled('Cascading')), { items: [coverageMarker('prod'), { kind: 'Pod', metadata: { name: 'p', namespace: 'prod', resourceVersion: 'Running|' }, phase: 'Running' }], resourceVersion: '1', observedAt: NOW }, false],
    ['Cascading Namespace not covered', del('', 'namespaces', labelled('Cascading')), { items: [coverageMarker('other')], resourceVersion: '1', observedAt: NOW }, false],
    ['Cascading Namespace without counts', del('', 'namespaces', labelled('Cascading')), undefined, false],
    ['an unguarded kind', del('', 'configmaps', labelled('Always')), undefined, true],
    ['a subresource', del('', 'services', labelled('Always'), 'status'), undefined, true],
    ['no oldObject', del('', 'services', undefined), undefined, true],
  ])('%s', async (_name, req, counts, allowed) => {
    expect((await deletionProtectionHandler(req, state(counts as Snapshot | undefined), { now: NOW })).allowed).toBe(allowed);
  });
});
