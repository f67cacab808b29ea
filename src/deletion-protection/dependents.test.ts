import { describe, expect, it } from 'vitest';
import type { Lister } from '../edge-state/contracts.js';
import { admittedWrites, type AdmittedRequest } from '../edge-state/admitted.js';
import { cascadingPods, cascadingPvcs, coverageMarker, namespaceDependents, type DependentItem } from './dependents.js';

const LABEL = 'policy.kruise.io/delete-protection';
const specs = [cascadingPods, cascadingPvcs];
const req = (over: Partial<AdmittedRequest>): AdmittedRequest => ({ namespace: 'prod', group: '', kind: 'Pod', operation: 'CREATE', dryRun: false, endpoint: 'observe-protected', ...over });
const writes = (r: AdmittedRequest) => admittedWrites(specs, r, 5).map((w) => `${w.collection} ${w.item ? `put ${JSON.stringify(w.item)}` : 'delete'} ${w.key}${w.baseVersion ? ` from ${w.baseVersion}` : ''}`);
const pod = (phase: string, extra: Record<string, unknown> = {}) => ({ metadata: { name: 'p', namespace: 'prod', ...extra }, status: { phase } });

describe('what the observe-protected observer writes through', () => {
  it('a namespace created Cascading is covered at once, in both collections; one created otherwise or relabelled is not', () => {
    const ns = (value: string) => ({ metadata: { name: 'prod', labels: { [LABEL]: value } } });
    expect(writes(req({ kind: 'Namespace', namespace: '', object: ns('Cascading') }))).toEqual([
      'cascading-pods put {"kind":"Namespace","metadata":{"name":"prod","resourceVersion":"covered"}} prod',
      'cascading-pvcs put {"kind":"Namespace","metadata":{"name":"prod","resourceVersion":"covered"}} prod',
    ]);
    expect(writes(req({ kind: 'Namespace', namespace: '', object: ns('Always') }))).toEqual([]);
    expect(writes(req({ kind: 'Namespace', namespace: '', operation: 'UPDATE', object: ns('Cascading'), oldObject: ns('Always') }))).toEqual([]);
  });

  it('a pod: created, its phase through pods/status, an update that changes nothing read, and its deletion', () => {
    expect(writes(req({ object: pod('Pending') }))).toEqual(['cascading-pods put {"kind":"Pod","metadata":{"name":"p","namespace":"prod","resourceVersion":"Pending|"},"phase":"Pending"} prod/p']);
    expect(writes(req({ operation: 'UPDATE', subResource: 'status', object: pod('Succeeded'), oldObject: pod('Running') })))
      .toEqual(['cascading-pods put {"kind":"Pod","metadata":{"name":"p","namespace":"prod","resourceVersion":"Succeeded|"},"phase":"Succeeded"} prod/p from Running|']);
    expect(writes(req({ operation: 'UPDATE', subResource: 'status', object: pod('Running', { labels: { a: 'b' } }), oldObject: pod('Running') }))).toEqual([]);
    expect(writes(req({ operation: 'DELETE', oldObject: pod('Running') }))).toEqual(['cascading-pods delete prod/p from Running|']);
  });

  it('a PVC goes only to the PVC collection', () => {
    expect(writes(req({ kind: 'PersistentVolumeClaim', object: { metadata: { name: 'data' }, status: { phase: 'Bound' } } })))
      .toEqual(['cascading-pvcs put {"kind":"PersistentVolumeClaim","metadata":{"name":"data","namespace":"prod","resourceVersion":"Bound|"},"phase":"Bound"} prod/data']);
  });

  it('writes nothing from other endpoints (observe-pod sees every pod in the cluster) nor for a dry run', () => {
    expect(writes(req({ endpoint: 'observe-pod', object: pod('Pending') }))).toEqual([]);
    expect(writes(req({ dryRun: true, object: pod('Pending') }))).toEqual([]);
  });
});

describe('namespaceDependents', () => {
  const item = (kind: DependentItem['kind'], name: string, phase: string, deleting = false): DependentItem =>
    ({ kind, metadata: { name, namespace: 'prod', resourceVersion: '' }, phase, ...(deleting ? { deleting: true as const } : {}) });

  it('counts active pods and Bound PVCs as OpenKruise does, in that namespace only', () => {
    const pods = [coverageMarker('prod'), item('Pod', 'a', 'Running'), item('Pod', 'b', 'Succeeded'), item('Pod', 'c', 'Running', true), item('Pod', 'd', 'Failed'), item('Pod', 'e', 'Pending'),
      { ...item('Pod', 'x', 'Running'), metadata: { name: 'x', namespace: 'other', resourceVersion: '' } }];
    const pvcs = [coverageMarker('prod'), item('PersistentVolumeClaim', 'v', 'Bound'), item('PersistentVolumeClaim', 'w', 'Pending'), item('PersistentVolumeClaim', 'z', 'Bound', true)];
    expect(namespaceDependents('prod', pods, pvcs)).toEqual({ activePods: 2, boundPVCs: 1 });
  });

  it('is unknown unless both collections cover the namespace, and passes a failed LIST on', () => {
    expect(namespaceDependents('prod', [coverageMarker('prod')], [])).toBeUndefined();
    expect(namespaceDependents('prod', [coverageMarker('prod', 'forbidden')], [coverageMarker('prod')])).toEqual({ listError: { what: 'pods', message: 'forbidden' } });
  });
});

describe('the pushed items', () => {
  it('cover every Cascading namespace with its pods, and mark one whose LIST failed', async () => {
    const lister: Lister = async (_v, kind, opts) => {
      if (kind === 'Namespace') {
        expect(opts?.labelSelector).toBe(`${LABEL}=Cascading`);
        return { items: [{ metadata: { name: 'prod' } }, { metadata: { name: 'locked' } }], resourceVersion: '9' };
      }
      if (opts?.namespace === 'locked') throw new Error('forbidden');
      return { items: [pod('Running')], resourceVersion: '10' };
    };
    expect((await cascadingPods.compute!(lister)).items).toEqual([
      coverageMarker('prod'),
      { kind: 'Pod', metadata: { name: 'p', namespace: 'prod', resourceVersion: 'Running|' }, phase: 'Running' },
      coverageMarker('locked', 'forbidden'),
    ]);
  });
});
