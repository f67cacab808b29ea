import { describe, expect, it } from 'vitest';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { daemonSetRevisionData } from '../revisions.js';
import type { StoredDaemonSet as DaemonSet } from '../types.js';
import { decideDaemonSets } from './decide.js';
import { newDaemonPod } from './new-pod.js';

const NOW = new Date('2026-01-01T00:00:10Z');
const EARLIER = '2026-01-01T00:00:00Z';
const NATIVE_HASH = '6d5f8b7c9';

const node = (name: string): Node => ({ metadata: { name, labels: { 'kubernetes.io/hostname': name } }, spec: {} });

const ds: DaemonSet = {
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'ns', uid: 'uid-1', generation: 1, resourceVersion: '5' },
  spec: {
    selector: { matchLabels: { app: 'agent' } },
    template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'main', image: 'app:1' }] } },
    updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
  },
};

/** The revision the native DaemonSet controller left (its name and hash, the same data bytes), orphaned. */
const nativeRevision: ControllerRevision = {
  apiVersion: 'apps/v1', kind: 'ControllerRevision',
  metadata: { name: `agent-${NATIVE_HASH}`, namespace: 'ns', uid: 'rev-native', resourceVersion: '2', labels: { app: 'agent', 'controller-revision-hash': NATIVE_HASH } },
  data: JSON.parse(daemonSetRevisionData(ds)) as unknown,
  revision: 1,
};

/** A ready pod as the native controller left it once its DaemonSet was deleted with propagationPolicy Orphan. */
function orphan(nodeName: string, labels: Record<string, string> = { app: 'agent' }): Pod {
  const pod = newDaemonPod(ds, nodeName, NATIVE_HASH, `agent-${nodeName}`);
  return {
    ...pod,
    metadata: { ...pod.metadata, labels: { ...labels, 'controller-revision-hash': NATIVE_HASH, 'pod-template-generation': '1' }, ownerReferences: [], uid: `uid-${nodeName}`, resourceVersion: '7', creationTimestamp: EARLIER },
    spec: { ...pod.spec, nodeName },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: EARLIER }], containerStatuses: [{ name: 'main', image: 'app:1', imageID: 'id', ready: true }] },
  };
}

const kindOf = (w: ReturnType<typeof decideDaemonSets>['writes'][number]) => ('object' in w ? w.object.kind : w.target.kind);
const podWrites = (plan: ReturnType<typeof decideDaemonSets>) => plan.writes.filter((w) => kindOf(w) === 'Pod');

describe('Advanced DaemonSet migrated from apps/v1', () => {
  it('adopts the orphans its selector matches and the native revision, and neither creates nor deletes a pod', () => {
    const nodes = [node('a'), node('b')];
    const plan = decideDaemonSets({ daemonSets: [ds], nodes, podsByOwner: new Map(), orphans: [orphan('a'), orphan('b')], revisions: [nativeRevision] }, NOW);
    const writes = podWrites(plan);
    expect(writes.map((w) => w.op)).toEqual(['patch', 'patch']);
    expect(writes.map((w) => (w.op === 'patch' ? w.patch : undefined))).toEqual(['a', 'b'].map(() => ({
      metadata: { resourceVersion: '7', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', name: 'agent', uid: 'uid-1', controller: true, blockOwnerDeletion: true }] },
    })));
    const revisionWrites = plan.writes.filter((w) => w.op !== 'create' && kindOf(w) === 'ControllerRevision');
    expect(revisionWrites).toHaveLength(1);
    expect(plan.writes.some((w) => w.op === 'create')).toBe(false);
    expect(plan.status[0]!.status).toMatchObject({ daemonSetHash: NATIVE_HASH, updatedNumberScheduled: 2, currentNumberScheduled: 2 });
  });

  it('leaves alone orphans it does not select and pods another controller owns; releases its pods relabelled out', () => {
    const mine = (p: Pod): Pod => ({ ...p, metadata: { ...p.metadata, ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', name: 'agent', uid: 'uid-1', controller: true }] } });
    const relabelled = mine(orphan('b', { app: 'debug' }));
    const plan = decideDaemonSets({ daemonSets: [ds], nodes: [node('a'), node('b')], podsByOwner: new Map([['uid-1', [relabelled]]]), orphans: [orphan('c', { app: 'other' })], revisions: [nativeRevision] }, NOW);
    const patches = podWrites(plan).filter((w) => w.op === 'patch');
    expect(patches).toHaveLength(1);
    expect(patches[0]).toMatchObject({ target: { name: 'agent-b' }, patch: { metadata: { ownerReferences: [] } } });
  });
});
