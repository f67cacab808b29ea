import { describe, expect, it } from 'vitest';
import type { Pod } from '../../workload/pods.js';
import type { StoredCloneSet } from '../types.js';
import { decideCloneSets } from './decide.js';
import type { Pvc } from './observe.js';
import { chooseUpdateRevision } from './revision-choice.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const ID = 'apps.kruise.io/cloneset-instance-id';
const cloneSet = (replicas: number): StoredCloneSet => ({
  metadata: { name: 'web', namespace: 'ns', uid: 'uid-1', generation: 1, resourceVersion: '7' },
  spec: {
    replicas, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } },
    volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
  },
});
const owner = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'uid-1', controller: true };
const pod = (id: string, revision: string, terminating = false): Pod => ({
  metadata: {
    name: `web-${id}`, namespace: 'ns', uid: `pod-${id}`, creationTimestamp: '2025-12-31T00:00:00Z', labels: { app: 'web', [ID]: id, 'controller-revision-hash': revision },
    ownerReferences: [owner], ...(terminating ? { deletionTimestamp: '2025-12-31T23:59:00Z' } : {}),
  },
  spec: { containers: [{ name: 'app', image: 'nginx:1' }], nodeName: 'n1' },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-31T00:00:00Z' }] },
});
const pvc = (id: string): Pvc => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: `data-web-${id}`, namespace: 'ns', uid: `pvc-${id}`, labels: { app: 'web', [ID]: id } } });

function plan(replicas: number, pods: (revision: string) => Pod[], pvcs: Pvc[]) {
  const cs = cloneSet(replicas);
  const revision = chooseUpdateRevision(cs, []).create!;
  return decideCloneSets({ cloneSets: [cs], podsByOwner: new Map([['uid-1', pods(revision.metadata.name)]]), pvcsByOwner: new Map([['uid-1', pvcs]]), revisions: [revision] }, NOW);
}
const deletedPvcs = (p: ReturnType<typeof decideCloneSets>) => p.writes.flatMap((w) => (w.op === 'delete' && w.target.kind === 'PersistentVolumeClaim' ? [w.target.name] : []));
const createdPods = (p: ReturnType<typeof decideCloneSets>) => p.writes.flatMap((w) => (w.op === 'create' && w.object.kind === 'Pod' ? [w.object.metadata?.name] : []));

describe('PVCs without a pod', () => {
  it('are deleted once no pod is to be created (a run stopped between deleting a pod and its PVC)', () => {
    expect(deletedPvcs(plan(2, (r) => [pod('aaaaa', r), pod('bbbbb', r)], [pvc('aaaaa'), pvc('bbbbb'), pvc('ccccc')]))).toEqual(['data-web-ccccc']);
  });

  it('are kept while their pod is still terminating, and reused when a pod is to be created', () => {
    expect(deletedPvcs(plan(2, (r) => [pod('aaaaa', r), pod('bbbbb', r), pod('ccccc', r, true)], [pvc('aaaaa'), pvc('bbbbb'), pvc('ccccc')]))).toEqual([]);
    const scaleOut = plan(3, (r) => [pod('aaaaa', r), pod('bbbbb', r)], [pvc('aaaaa'), pvc('bbbbb'), pvc('ccccc')]);
    expect(deletedPvcs(scaleOut)).toEqual([]);
    expect(createdPods(scaleOut)).toEqual(['web-ccccc']);
  });
});

describe('a pod without its PVC', () => {
  it('gets the PVC created (its create failed while the pod’s went through), and nothing else happens that run', () => {
    const p = plan(2, (r) => [pod('aaaaa', r), pod('bbbbb', r)], [pvc('aaaaa')]);
    expect(p.writes.map((w) => `${w.op} ${w.op === 'create' ? w.object.metadata?.name : ''}`)).toEqual(['create data-web-bbbbb']);
  });
});
