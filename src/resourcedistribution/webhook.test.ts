import { describe, expect, it } from 'vitest';
import type { AdmissionInput, Operation } from '../admission/types.js';
import type { ClusterState } from '../edge-state/contracts.js';
import type { ResourceDistribution } from './types.js';
import { validateResourceDistributionHandler } from './webhook.js';

const state: ClusterState = { collection: async () => undefined };
const rd = (resource: Record<string, unknown>, name = 'sample') =>
  ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', metadata: { name }, spec: { resource, targets: { allNamespaces: true } } }) as unknown as ResourceDistribution;
const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo' }, data: { a: 'b' } };

function input(operation: Operation, object?: ResourceDistribution, oldObject?: ResourceDistribution): AdmissionInput<ResourceDistribution> {
  return {
    uid: 'u', kind: { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'ResourceDistribution' },
    resource: { group: 'apps.kruise.io', version: 'v1alpha1', resource: 'resourcedistributions' },
    namespace: '', operation, userInfo: {}, dryRun: false, clusterId: 'c', name: 'sample',
    ...(object ? { object } : {}), ...(oldObject ? { oldObject } : {}),
  };
}

describe('validateResourceDistributionHandler', () => {
  it.each<[string, AdmissionInput<ResourceDistribution>, unknown]>([
    ['allows a valid object', input('CREATE', rd(cm)), { allowed: true }],
    ['allows with a warning when the resource names a namespace', input('CREATE', rd({ ...cm, metadata: { name: 'game-demo', namespace: 'x' } })),
      { allowed: true, warnings: ['spec.resource.metadata.namespace "x" is ignored: each copy goes into its target namespace'] }],
    ['denies with 422 and the field errors, as OpenKruise', input('CREATE', rd({ ...cm, kind: 'Pod' })),
      { allowed: false, code: 422, message: 'resourcedistribution "sample": spec.resource.kind: Invalid value: "Pod": only Secret and ConfigMap can be distributed' }],
    ['denies a rename on UPDATE', input('UPDATE', rd({ ...cm, metadata: { name: 'new' } }), rd(cm)),
      { allowed: false, code: 422, message: expect.stringMatching(/spec\.resource\.metadata\.name: Invalid value: "new": is immutable/) }],
    ['ignores the old object on CREATE', input('CREATE', rd({ ...cm, metadata: { name: 'new' } }), rd(cm)), { allowed: true }],
    ['several errors in brackets', input('CREATE', rd({ ...cm, kind: 'Pod' }, '')),
      { allowed: false, code: 422, message: 'resourcedistribution "": [metadata.name: Required value: a name is required, spec.resource.kind: Invalid value: "Pod": only Secret and ConfigMap can be distributed]' }],
    ['400 without an object', input('CREATE'), { allowed: false, code: 400, message: expect.stringMatching(/no ResourceDistribution/) }],
  ])('%s', async (_name, req, want) => {
    expect(await validateResourceDistributionHandler(req, state, { now: 0 })).toEqual(want);
  });
});
