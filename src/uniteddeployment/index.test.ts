import { describe, expect, it } from 'vitest';
import type { AdmittedRequest } from '../edge-state/admitted.js';
import { webhookEndpoints } from '../registry.js';
import { owningUnitedDeployment } from './controller/reconciler.js';
import { owningUnitedDeploymentOf, unitedDeploymentFeature } from './index.js';

const owned = (kind = 'UnitedDeployment', apiVersion = 'apps.kruise.io/v1alpha1', controller = true) => ({
  metadata: { name: 'ud-a-x2b4c', namespace: 'ns', labels: { 'apps.kruise.io/subset-name': 'a' }, ownerReferences: [{ apiVersion, kind, name: 'ud', uid: 'u', controller }] },
});
const admitted = (group: string, kind: string, object: unknown): AdmittedRequest => ({ namespace: 'ns', group, kind, subResource: 'status', operation: 'UPDATE', object, dryRun: false });

describe('a subset workload → its UnitedDeployment (Lambda path)', () => {
  it.each([
    ['a StatefulSet it controls', admitted('apps', 'StatefulSet', owned()), ['ud']],
    ['a Deployment it controls', admitted('apps', 'Deployment', owned()), ['ud']],
    ['a CloneSet it controls', admitted('apps.kruise.io', 'CloneSet', owned()), ['ud']],
    ['an Advanced StatefulSet it controls', admitted('apps.kruise.io', 'StatefulSet', owned()), ['ud']],
    ['a Deployment another controller owns', admitted('apps', 'Deployment', owned('Rollout', 'rollouts.kruise.io/v1')), []],
    ['not the controller', admitted('apps', 'StatefulSet', owned('UnitedDeployment', 'apps.kruise.io/v1alpha1', false)), []],
    ['a pod', admitted('', 'Pod', owned()), []],
  ])('%s', (_n, a, want) => {
    expect(owningUnitedDeploymentOf(a).map((o) => o.name)).toEqual(want);
  });

  it('the Node loop trigger maps the same way', () => {
    expect(owningUnitedDeployment({ apiVersion: 'apps/v1', kind: 'StatefulSet', ...owned() })).toEqual([{ namespace: 'ns', name: 'ud' }]);
  });

  it('registers its webhooks and the subset status observer, sent only workloads with a subset label', () => {
    const endpoints = webhookEndpoints([unitedDeploymentFeature]);
    expect(endpoints.map((e) => e.path)).toEqual(expect.arrayContaining(['mutate-uniteddeployment', 'validate-kruise', 'observe-subset-status']));
    expect(endpoints.find((e) => e.path === 'observe-subset-status')!.objectSelector).toEqual({ matchExpressions: [{ key: 'apps.kruise.io/subset-name', operator: 'Exists' }] });
  });
});
