import { describe, expect, it } from 'vitest';
import type { AdmittedRequest } from './admitted.js';
import type { WorkloadPods } from './contracts.js';
import { controllingWorkload, workloadPodEvent, workloadPodSelectors } from './workload-pods.js';

const CLONESET: WorkloadPods = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', podLabel: 'apps.kruise.io/cloneset-instance-id' };
const ASTS: WorkloadPods = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', podLabel: 'statefulset.kubernetes.io/pod-name' };
const WORKLOADS = [CLONESET, ASTS];

type Ref = { apiVersion: string; kind: string; name: string; controller?: boolean };
const owner = (kind: string, name: string, apiVersion = 'apps.kruise.io/v1alpha1', controller = true): Ref => ({ apiVersion, kind, name, controller });
const pod = (refs: Ref[], ready = 'True') => ({
  metadata: { name: 'web-abc', namespace: 'prod', ownerReferences: refs },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready }] },
});

describe('workloadPodSelectors', () => {
  it('one entry per distinct pod label, named after the first kind declaring it', () => {
    const other: WorkloadPods = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', podLabel: CLONESET.podLabel };
    expect(workloadPodSelectors([CLONESET, ASTS, other], 'observe-pod-status.kruise-serverless.io')).toEqual([
      { name: 'cloneset.observe-pod-status.kruise-serverless.io', objectSelector: { matchExpressions: [{ key: CLONESET.podLabel, operator: 'Exists' }] } },
      { name: 'statefulset.observe-pod-status.kruise-serverless.io', objectSelector: { matchExpressions: [{ key: ASTS.podLabel, operator: 'Exists' }] } },
    ]);
  });

  it('none without declared workloads', () => {
    expect(workloadPodSelectors([], 'x.io')).toEqual([]);
  });
});

describe('controllingWorkload', () => {
  it.each([
    ['a CloneSet controller', [owner('CloneSet', 'web')], { apiVersion: CLONESET.apiVersion, kind: 'CloneSet', name: 'web' }],
    ['another version of the group: the declared apiVersion', [owner('StatefulSet', 'db', 'apps.kruise.io/v1alpha1')], { apiVersion: ASTS.apiVersion, kind: 'StatefulSet', name: 'db' }],
    ['the controller among several owners', [owner('CloneSet', 'not-me', undefined, false), owner('CloneSet', 'web')], { apiVersion: CLONESET.apiVersion, kind: 'CloneSet', name: 'web' }],
    ['an owner that is not the controller', [owner('CloneSet', 'web', undefined, false)], undefined],
    ["Kubernetes' own StatefulSet", [owner('StatefulSet', 'db', 'apps/v1')], undefined],
    ['an undeclared kind', [owner('BroadcastJob', 'job')], undefined],
    ['no owner', [], undefined],
  ])('%s', (_name, refs, want) => {
    expect(controllingWorkload(pod(refs), WORKLOADS)).toEqual(want);
  });

  it('reads malformed owner references without throwing', () => {
    expect(controllingWorkload({ metadata: { ownerReferences: [null, 'x', { controller: true, kind: 1 }] } }, WORKLOADS)).toBeUndefined();
    expect(controllingWorkload({ metadata: { ownerReferences: {} } }, WORKLOADS)).toBeUndefined();
  });
});

describe('workloadPodEvent', () => {
  const refs = [owner('CloneSet', 'web')];
  const statusUpdate = (over: Partial<AdmittedRequest> & { allowed?: boolean } = {}): AdmittedRequest & { allowed?: boolean } => ({
    namespace: 'prod', group: '', kind: 'Pod', subResource: 'status', operation: 'UPDATE', dryRun: false, allowed: true,
    oldObject: pod(refs, 'False'), object: pod(refs, 'True'), ...over,
  });

  it('a pod becoming ready runs its CloneSet', () => {
    expect(workloadPodEvent('c1', statusUpdate(), WORKLOADS)).toEqual({ clusterId: 'c1', apiVersion: CLONESET.apiVersion, kind: 'CloneSet', namespace: 'prod', name: 'web', reason: 'pod-status' });
  });

  it.each([
    ['nothing watched changed', statusUpdate({ oldObject: pod(refs, 'True') })],
    ['a dry run', statusUpdate({ dryRun: true })],
    ['a denied request', statusUpdate({ allowed: false })],
    ['the pod itself, not its status', statusUpdate({ subResource: undefined })],
    ['a create', statusUpdate({ operation: 'CREATE' })],
    ['another kind', statusUpdate({ kind: 'PersistentVolumeClaim' })],
    ['a pod no declared workload controls', statusUpdate({ oldObject: pod([], 'False'), object: pod([], 'True') })],
  ])('nothing for %s', (_name, req) => {
    expect(workloadPodEvent('c1', req, WORKLOADS)).toBeUndefined();
  });
});
