import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kube/http.js';
import type { Plan, Write } from '../../reconcile/types.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { planStatefulSetRevisions } from '../revisions.js';
import type { StatefulSetStatus } from '../../api/apps/statefulset.js';
import type { StoredStatefulSet } from '../types.js';
import { decideStatefulSets } from './decide.js';
import type { StatefulSetObserved } from './observe.js';

const NOW = new Date('2026-01-01T00:00:00Z');
type Spec = Partial<StoredStatefulSet['spec']>;
const template = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'app', image }] } });
const NO_PODS: StatefulSetStatus = { replicas: 0, readyReplicas: 0, availableReplicas: 0, currentReplicas: 0, updatedReplicas: 0 };
const sts = (spec: Spec = {}, image = 'nginx:1'): StoredStatefulSet => ({
  metadata: { name: 'web', namespace: 'ns', uid: 'set-uid', generation: 1, resourceVersion: '5' },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, serviceName: 'web', template: template(image), ...spec } as StoredStatefulSet['spec'],
});
/** The set's revision for its template, stored (with a uid) as a previous run would have created it. */
const revisionOf = (set: StoredStatefulSet, revisions: ControllerRevision[] = []): ControllerRevision => {
  const r = planStatefulSetRevisions(set, revisions, []).update;
  return { ...r, metadata: { ...r.metadata, uid: `rev-${r.metadata.name}`, resourceVersion: '1' } };
};
type PodOpts = { ready?: boolean; phase?: string; terminating?: boolean; labels?: Record<string, string>; image?: string };
const pod = (ordinal: number, revision: string, o: PodOpts = {}): Pod => ({
  metadata: {
    name: `web-${ordinal}`, namespace: 'ns', uid: `pod-${ordinal}`, resourceVersion: '9',
    labels: { app: 'web', 'statefulset.kubernetes.io/pod-name': `web-${ordinal}`, 'apps.kubernetes.io/pod-index': String(ordinal), 'controller-revision-hash': revision, ...o.labels },
    ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', name: 'web', uid: 'set-uid', controller: true }],
    ...(o.terminating ? { deletionTimestamp: '2025-12-31T23:59:00Z' } : {}),
  },
  spec: {
    nodeName: 'n1', hostname: `web-${ordinal}`, subdomain: 'web',
    containers: [{ name: 'app', image: o.image ?? 'nginx:1' }],
    readinessGates: [{ conditionType: 'InPlaceUpdateReady' }, { conditionType: 'KruisePodReady' }],
  },
  status: {
    phase: o.phase ?? 'Running',
    conditions: [
      { type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: '2025-12-31T00:00:00Z' },
      { type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: '2025-12-31T00:00:00Z' },
      { type: 'KruisePodReady', status: 'True', lastTransitionTime: '2025-12-31T00:00:00Z' },
    ],
    containerStatuses: [{ name: 'app', image: o.image ?? 'nginx:1', imageID: `id-${o.image ?? 'nginx:1'}`, ready: o.ready !== false }],
  },
});
const observed = (set: StoredStatefulSet, pods: Pod[], revisions: ControllerRevision[], pvcs: StatefulSetObserved['pvcs'] = new Map()): StatefulSetObserved => ({
  sets: [set], podsByOwner: new Map([['set-uid', pods]]), pvcs, revisions, budgets: [],
});
const created = (plan: Plan, kind = 'Pod') => plan.writes.filter((w): w is Extract<Write, { op: 'create' }> => w.op === 'create' && w.object.kind === kind).map((w) => w.object.metadata?.name);
const deleted = (plan: Plan) => plan.writes.filter((w): w is Extract<Write, { op: 'delete' }> => w.op === 'delete' && w.target.kind === 'Pod').map((w) => w.target.name);
/** Pods whose images this plan changes in place (the update chained on the InPlaceUpdateReady=False write). */
const inPlace = (plan: Plan) => plan.status.filter((s) => s.then).map((s) => s.target.name);
const podCreate = (plan: Plan, name: string) =>
  plan.writes.find((w): w is Extract<Write, { op: 'create' }> => w.op === 'create' && w.object.metadata?.name === name)!.object as KubeObject & { metadata: { labels: Record<string, string> }; spec: Record<string, unknown> };

/** A set at image `to`, with pods 0..n-1 at the revision of image `from` (both revisions stored). */
function rollout(spec: Spec, n: number, from = 'nginx:1', to = 'nginx:2', podOpts: (o: number) => PodOpts = () => ({})) {
  const old = revisionOf(sts(spec, from));
  const next = revisionOf(sts(spec, to), [old]);
  const set = { ...sts(spec, to), status: { ...NO_PODS, currentRevision: old.metadata.name } };
  const pods = Array.from({ length: n }, (_, o) => pod(o, old.metadata.name, podOpts(o)));
  return { set, pods, old, next, o: observed(set, pods, [old, next]) };
}

describe('Advanced StatefulSet: a drop-in for apps/v1', () => {
  it('OrderedReady creates one pod at a time, in order, with its identity', () => {
    const set = sts();
    const rev = revisionOf(set);
    const first = decideStatefulSets(observed(set, [], []), NOW);
    expect(created(first, 'ControllerRevision')).toEqual([rev.metadata.name]);
    expect(created(first)).toEqual(['web-0']);
    const p = podCreate(first, 'web-0');
    expect(p.metadata.labels).toMatchObject({ app: 'web', 'statefulset.kubernetes.io/pod-name': 'web-0', 'apps.kubernetes.io/pod-index': '0', 'controller-revision-hash': rev.metadata.name });
    expect(p.spec).toMatchObject({ hostname: 'web-0', subdomain: 'web' });
    // web-0 not ready yet: wait; ready: web-1 next.
    expect(created(decideStatefulSets(observed(set, [pod(0, rev.metadata.name, { ready: false })], [rev]), NOW))).toEqual([]);
    expect(created(decideStatefulSets(observed(set, [pod(0, rev.metadata.name)], [rev]), NOW))).toEqual(['web-1']);
  });

  it('Parallel creates every missing pod in one run (slow-start batches)', () => {
    const plan = decideStatefulSets(observed(sts({ podManagementPolicy: 'Parallel' }), [], []), NOW);
    expect(created(plan)).toEqual(['web-0', 'web-1', 'web-2']);
    expect(plan.writes.filter((w) => w.op === 'create' && w.object.kind === 'Pod').every((w) => w.slowStart?.group === 'create-pods')).toBe(true);
  });

  it('OrderedReady scale-down deletes the highest ordinal first, one at a time', () => {
    const set = sts({ replicas: 1 });
    const rev = revisionOf(set);
    const plan = decideStatefulSets(observed(set, [0, 1, 2].map((o) => pod(o, rev.metadata.name)), [rev]), NOW);
    expect(deleted(plan)).toEqual(['web-2']);
    expect(deleted(decideStatefulSets(observed(set, [pod(0, rev.metadata.name), pod(1, rev.metadata.name), pod(2, rev.metadata.name, { terminating: true })], [rev]), NOW))).toEqual([]);
  });

  it('volumeClaimTemplates: the PVC `<vct>-<set>-<ordinal>` is created before its pod and mounted', () => {
    const set = sts({ volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] as never, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' } });
    const plan = decideStatefulSets(observed(set, [], []), NOW);
    const kinds = plan.writes.filter((w) => w.op === 'create' && w.object.kind !== 'ControllerRevision').map((w) => `${(w as { object: KubeObject }).object.kind}/${(w as { object: KubeObject }).object.metadata?.name}`);
    expect(kinds).toEqual(['PersistentVolumeClaim/data-web-0', 'Pod/web-0']);
    expect((podCreate(plan, 'web-0').spec.volumes as unknown[])[0]).toEqual({ name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } });
    expect(podCreate(plan, 'data-web-0').metadata).toMatchObject({ labels: { app: 'web' }, ownerReferences: [{ kind: 'StatefulSet', name: 'web', uid: 'set-uid' }] });
  });

  it('a failed pod is deleted to be recreated', () => {
    const set = sts();
    const rev = revisionOf(set);
    expect(deleted(decideStatefulSets(observed(set, [pod(0, rev.metadata.name), pod(1, rev.metadata.name, { phase: 'Failed', ready: false }), pod(2, rev.metadata.name)], [rev]), NOW))).toEqual(['web-1']);
  });

  it('settled: status like the native one, no writes, no wake-up', () => {
    const set = sts();
    const rev = revisionOf(set);
    const pods = [0, 1, 2].map((o) => pod(o, rev.metadata.name));
    const plan = decideStatefulSets(observed(set, pods, [rev]), NOW);
    expect(plan.writes).toEqual([]);
    expect(plan.status[0]!.status).toEqual({
      observedGeneration: 1, replicas: 3, readyReplicas: 3, availableReplicas: 3, currentReplicas: 3, updatedReplicas: 3, updatedReadyReplicas: 3, updatedAvailableReplicas: 3,
      currentRevision: rev.metadata.name, updateRevision: rev.metadata.name, collisionCount: 0, labelSelector: 'app=web',
    });
    expect(plan.requeueAfterMs).toBeUndefined();
    const again = decideStatefulSets(observed({ ...set, status: plan.status[0]!.status as StatefulSetStatus }, pods, [rev]), NOW);
    expect(again.status).toEqual([]);
  });
});

describe('reserveOrdinals (seed 000 §3.2.3, seed 002)', () => {
  it('replicas 4 with [1] runs 0, 2, 3, 4', () => {
    expect(created(decideStatefulSets(observed(sts({ replicas: 4, reserveOrdinals: [1], podManagementPolicy: 'Parallel' }), [], []), NOW))).toEqual(['web-0', 'web-2', 'web-3', 'web-4']);
  });
  it('reserving 3 as well deletes web-3 and creates web-5', () => {
    const set = sts({ replicas: 4, reserveOrdinals: [1, 3], podManagementPolicy: 'Parallel' });
    const rev = revisionOf(set);
    const plan = decideStatefulSets(observed(set, [0, 2, 3, 4].map((o) => pod(o, rev.metadata.name)), [rev]), NOW);
    expect(created(plan)).toEqual(['web-5']);
    expect(deleted(plan)).toEqual(['web-3']);
  });
});

describe('rolling update', () => {
  it('ReCreate, OrderedReady: the highest ordinal is deleted first, one at a time', () => {
    const { o } = rollout({}, 3);
    expect(deleted(decideStatefulSets(o, NOW))).toEqual(['web-2']);
  });

  it('Parallel + maxUnavailable 3 in place (seed 002): web-4, web-3 and web-2 update together', () => {
    const { o, next } = rollout({ replicas: 5, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { maxUnavailable: 3, podUpdatePolicy: 'InPlaceIfPossible' } } }, 5);
    const plan = decideStatefulSets(o, NOW);
    expect(inPlace(plan)).toEqual(['web-4', 'web-3', 'web-2']);
    expect(deleted(plan)).toEqual([]);
    const update = plan.status.find((s) => s.target.name === 'web-4')!.then!.object as unknown as Pod;
    expect(update.spec.containers[0]!.image).toBe('nginx:2');
    expect(update.metadata.labels!['controller-revision-hash']).toBe(next.metadata.name);
    expect(plan.events.map((e) => e.message)).toEqual([`successfully update pods web-4, web-3, web-2 in-place(revision ${next.metadata.name})`]);
  });

  it('the room a pod made available again frees goes to the next pod, sent after that write (afterStatus)', () => {
    const { set, pods, old, next } = rollout({ replicas: 5, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { maxUnavailable: 1, podUpdatePolicy: 'InPlaceIfPossible' } } }, 5);
    // web-4 finished its update: new revision, new imageID reported, InPlaceUpdateReady still False.
    const state = { revision: next.metadata.name, updateTimestamp: '2025-12-31T23:59:00Z', lastContainerStatuses: { app: { imageID: 'id-nginx:1' } }, updateImages: true };
    const done = pod(4, next.metadata.name, { image: 'nginx:2' });
    pods[4] = {
      ...done,
      metadata: { ...done.metadata, annotations: { 'apps.kruise.io/inplace-update-state': JSON.stringify(state) } },
      status: { ...done.status, conditions: [
        { type: 'Ready', status: 'False', lastTransitionTime: '2025-12-31T23:59:00Z' },
        { type: 'ContainersReady', status: 'True', lastTransitionTime: '2025-12-31T23:59:00Z' },
        { type: 'InPlaceUpdateReady', status: 'False', lastTransitionTime: '2025-12-31T23:59:00Z' },
        { type: 'KruisePodReady', status: 'True', lastTransitionTime: '2025-12-31T00:00:00Z' },
      ] },
    };
    const plan = decideStatefulSets(observed(set, pods, [old, next]), NOW);
    const byPod = new Map(plan.status.filter((w) => w.target.kind === 'Pod').map((w) => [w.target.name, w]));
    expect(byPod.get('web-4')?.afterStatus).toBeUndefined();
    expect((byPod.get('web-4')?.status['conditions'] as { type: string; status: string }[]).find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(byPod.get('web-3')?.afterStatus).toBe(true);
    expect(inPlace(plan)).toEqual(['web-3']);
    // With minReadySeconds the pod is not available at once: nothing else starts.
    const slow = { ...set, spec: { ...set.spec, updateStrategy: { rollingUpdate: { ...set.spec.updateStrategy!.rollingUpdate, minReadySeconds: 5 } } } } as StoredStatefulSet;
    expect(inPlace(decideStatefulSets(observed(slow, pods, [old, next]), NOW))).toEqual([]);
  });

  it('maxUnavailable as a percentage rounds down, at least 1', () => {
    const { o } = rollout({ replicas: 5, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { maxUnavailable: '50%', podUpdatePolicy: 'InPlaceIfPossible' } } }, 5);
    expect(inPlace(decideStatefulSets(o, NOW))).toEqual(['web-4', 'web-3']);
    const { o: tiny } = rollout({ replicas: 5, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { maxUnavailable: '10%', podUpdatePolicy: 'InPlaceIfPossible' } } }, 5);
    expect(inPlace(decideStatefulSets(tiny, NOW))).toEqual(['web-4']);
  });

  it('maxUnavailable counts an unavailable pod anywhere in the order (kruise PR#1480)', () => {
    const { o } = rollout({ replicas: 5, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { maxUnavailable: 2, podUpdatePolicy: 'InPlaceIfPossible' } } }, 5, 'nginx:1', 'nginx:2', (ord) => (ord === 0 ? { ready: false } : {}));
    expect(inPlace(decideStatefulSets(o, NOW))).toEqual(['web-4']);
  });

  it('partition: that many pods stay old (seed 002, partition 4 of 5 updates web-4 only)', () => {
    const { o } = rollout({ replicas: 5, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { partition: 4, maxUnavailable: 5, podUpdatePolicy: 'InPlaceIfPossible' } } }, 5);
    expect(inPlace(decideStatefulSets(o, NOW))).toEqual(['web-4']);
    const { o: all } = rollout({ replicas: 5, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { partition: 0, maxUnavailable: 5, podUpdatePolicy: 'InPlaceIfPossible' } } }, 5);
    expect(inPlace(decideStatefulSets(all, NOW))).toEqual(['web-4', 'web-3', 'web-2', 'web-1', 'web-0']);
  });

  it('a pod missing below the partition is recreated at the current revision', () => {
    const { set, pods, old, next } = rollout({ replicas: 3, updateStrategy: { rollingUpdate: { partition: 2 } } }, 3);
    const plan = decideStatefulSets(observed(set, [pods[0]!, pod(2, next.metadata.name)], [old, next]), NOW);
    expect(podCreate(plan, 'web-1').metadata.labels['controller-revision-hash']).toBe(old.metadata.name);
    expect((podCreate(plan, 'web-1').spec.containers as { image: string }[])[0]!.image).toBe('nginx:1');
  });

  it('paused: no pod is updated, but scaling still happens', () => {
    const { set, pods, old, next } = rollout({ replicas: 4, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { paused: true, podUpdatePolicy: 'InPlaceIfPossible' } } }, 3);
    const plan = decideStatefulSets(observed(set, pods, [old, next]), NOW);
    expect(created(plan)).toEqual(['web-3']);
    expect(inPlace(plan)).toEqual([]);
    expect(deleted(plan)).toEqual([]);
  });

  it('a template change beyond images recreates under InPlaceIfPossible', () => {
    const { set, old } = rollout({ replicas: 2, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { podUpdatePolicy: 'InPlaceIfPossible' } } }, 2);
    const changed = { ...set, spec: { ...set.spec, template: { ...template('nginx:2'), spec: { readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'app', image: 'nginx:2', args: ['-v'] }] } } } } as StoredStatefulSet;
    const next = revisionOf(changed, [old]);
    expect(deleted(decideStatefulSets(observed(changed, [pod(0, old.metadata.name), pod(1, old.metadata.name)], [old, next]), NOW))).toEqual(['web-1']);
  });

  it('unorderedUpdate.priorityStrategy picks the heaviest pods first', () => {
    const spec: Spec = {
      replicas: 3, podManagementPolicy: 'Parallel',
      updateStrategy: { rollingUpdate: { maxUnavailable: 1, podUpdatePolicy: 'InPlaceIfPossible', unorderedUpdate: { priorityStrategy: { weightPriority: [{ weight: 50, matchSelector: { matchLabels: { first: 'yes' } } }] } } } },
    };
    const { o } = rollout(spec, 3, 'nginx:1', 'nginx:2', (ord) => (ord === 0 ? { labels: { first: 'yes' } } : {}));
    expect(inPlace(decideStatefulSets(o, NOW))).toEqual(['web-0']);
  });

  it('a pod stuck terminating does not halt the other ordinals under Parallel (kruise PR#2109)', () => {
    const { o } = rollout({ replicas: 3, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { maxUnavailable: 2, podUpdatePolicy: 'InPlaceIfPossible' } } }, 3, 'nginx:1', 'nginx:2', (ord) => (ord === 0 ? { terminating: true } : {}));
    expect(inPlace(decideStatefulSets(o, NOW))).toEqual(['web-2']);
  });

  it('specified-delete deletes the pod within maxUnavailable, partition or not', () => {
    const set = sts({ replicas: 3, podManagementPolicy: 'Parallel', updateStrategy: { rollingUpdate: { partition: 3 } } });
    const rev = revisionOf(set);
    const pods = [pod(0, rev.metadata.name, { labels: { 'apps.kruise.io/specified-delete': 'true' } }), pod(1, rev.metadata.name), pod(2, rev.metadata.name)];
    expect(deleted(decideStatefulSets(observed(set, pods, [rev]), NOW))).toEqual(['web-0']);
  });
});

describe('scaleStrategy.maxUnavailable (Parallel)', () => {
  it('scale-up creates pods only while fewer than that many are unavailable', () => {
    const plan = decideStatefulSets(observed(sts({ replicas: 5, podManagementPolicy: 'Parallel', scaleStrategy: { maxUnavailable: 2 } }), [], []), NOW);
    expect(created(plan)).toEqual(['web-0', 'web-1']);
  });
});

describe('a spec the webhook would refuse', () => {
  it('is not acted on: a Warning Event once per generation, the status still written', () => {
    const set = sts({ podManagementPolicy: 'OrderedReady', updateStrategy: { rollingUpdate: { maxUnavailable: 3 } } });
    const plan = decideStatefulSets(observed(set, [], []), NOW);
    expect(plan.writes).toEqual([]);
    expect(plan.events.map((e) => `${e.type} ${e.reason}`)).toEqual(['Warning InvalidSpec']);
    expect(plan.events[0]!.message).toContain('maxUnavailable');
    const again = decideStatefulSets(observed({ ...set, status: plan.status[0]!.status as StatefulSetStatus }, [], []), NOW);
    expect(again.events).toEqual([]);
  });
});

describe('lifecycle preDelete hook', () => {
  it('a hooked pod goes to PreparingDelete instead of being deleted', () => {
    const set = sts({ replicas: 1, podManagementPolicy: 'Parallel', lifecycle: { preDelete: { labelsHandler: { hold: 'true' } } } });
    const rev = revisionOf(set);
    const plan = decideStatefulSets(observed(set, [pod(0, rev.metadata.name), pod(1, rev.metadata.name, { labels: { hold: 'true' } })], [rev]), NOW);
    expect(deleted(plan)).toEqual([]);
    const update = plan.writes.find((w) => w.op === 'update')!;
    expect((update as unknown as { object: Pod }).object.metadata.labels!['lifecycle.apps.kruise.io/state']).toBe('PreparingDelete');
  });
});
