import { describe, expect, it } from 'vitest';
import type { Plan, Write } from '../../reconcile/types.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { planStatefulSetRevisions } from '../revisions.js';
import type { StoredStatefulSet } from '../types.js';
import { decideStatefulSets } from './decide.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const set: StoredStatefulSet = {
  metadata: { name: 'web', namespace: 'ns', uid: 'set-uid', generation: 1, resourceVersion: '5' },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, serviceName: 'web', template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } } } as StoredStatefulSet['spec'],
};

/** The revision the apps/v1 controller left: the same data bytes and name, orphaned when its set was deleted. */
const nativeRevision = (): ControllerRevision => {
  const r = planStatefulSetRevisions(set, [], []).update;
  return { ...r, metadata: { ...r.metadata, uid: 'rev-native', resourceVersion: '1', ownerReferences: [] } };
};

/** A ready pod as the apps/v1 StatefulSet controller left it, orphaned. */
const orphan = (name: string, hash: string, labels: Record<string, string> = { app: 'web' }): Pod => ({
  metadata: { name, namespace: 'ns', uid: `uid-${name}`, resourceVersion: '9', labels: { ...labels, 'statefulset.kubernetes.io/pod-name': name, 'controller-revision-hash': hash } },
  spec: { nodeName: 'n1', hostname: name, subdomain: 'web', containers: [{ name: 'app', image: 'nginx:1' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-31T00:00:00Z' }], containerStatuses: [{ name: 'app', image: 'nginx:1', imageID: 'id', ready: true }] },
});

const podWrites = (plan: Plan): Write[] => plan.writes.filter((w) => ('object' in w ? w.object.kind : w.target.kind) === 'Pod');

describe('Advanced StatefulSet migrated from apps/v1', () => {
  it('adopts its member orphans (not another set’s, not unmatched ones) and neither creates, updates nor deletes a pod', () => {
    const rev = nativeRevision();
    const hash = rev.metadata.name; // a StatefulSet pod's controller-revision-hash is the revision's name
    const orphans = [orphan('web-0', hash), orphan('web-1', hash), orphan('webx-0', hash), orphan('web-2', hash, { app: 'other' })];
    const plan = decideStatefulSets({ sets: [set], podsByOwner: new Map(), orphans, pvcs: new Map(), revisions: [rev], budgets: [] }, NOW);
    const writes = podWrites(plan);
    expect(writes.map((w) => (w.op === 'patch' ? w.target.name : `${w.op}`))).toEqual(['web-0', 'web-1']);
    expect(writes[0]).toMatchObject({ op: 'patch', patch: { metadata: { resourceVersion: '9', ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web', uid: 'set-uid', controller: true, blockOwnerDeletion: true }] } } });
    expect(plan.status.filter((s) => s.target.kind === 'Pod')).toEqual([]);
    expect(plan.status.find((s) => s.target.kind === 'StatefulSet')?.status).toMatchObject({ currentRevision: rev.metadata.name, updateRevision: rev.metadata.name, updatedReplicas: 2, currentReplicas: 2 });
  });

  it('releases a pod of its own relabelled out of its selector', () => {
    const rev = nativeRevision();
    const mine = orphan('web-1', 'x', { app: 'debug' });
    const owned = { ...mine, metadata: { ...mine.metadata, ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web', uid: 'set-uid', controller: true }] } };
    const plan = decideStatefulSets({ sets: [set], podsByOwner: new Map([['set-uid', [owned]]]), orphans: [], pvcs: new Map(), revisions: [rev], budgets: [] }, NOW);
    expect(podWrites(plan).find((w) => w.op === 'patch' && w.target.name === 'web-1')).toMatchObject({ patch: { metadata: { ownerReferences: [] } } });
  });
});
