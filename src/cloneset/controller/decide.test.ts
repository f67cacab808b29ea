import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../kube/http.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import type { CloneSetStatus } from '../../api/apps/cloneset.js';
import type { StoredCloneSet } from '../types.js';
import { decideCloneSets } from './decide.js';
import { newInstanceIds } from './instance-id.js';
import { chooseUpdateRevision } from './revision-choice.js';
import { FEATURE_GATE_DEFAULTS } from '../../reconcile/feature-gates.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const NO_PODS: CloneSetStatus = { replicas: 0, readyReplicas: 0, availableReplicas: 0, updatedReplicas: 0, updatedReadyReplicas: 0 };
const cloneSet = (spec: Partial<StoredCloneSet['spec']> = {}, status?: Partial<CloneSetStatus>): StoredCloneSet => ({
  metadata: { name: 'web', namespace: 'ns', uid: 'uid-1', generation: 2, resourceVersion: '7' },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } }, ...spec },
  ...(status ? { status: { ...NO_PODS, ...status } } : {}),
});
const pod = (cs: StoredCloneSet, id: string, revision: string, over: { ready?: boolean; labels?: Record<string, string>; phase?: string; node?: string } = {}): Pod => ({
  metadata: {
    name: `web-${id}`, namespace: 'ns', uid: `pod-${id}`, creationTimestamp: '2025-12-31T00:00:00Z',
    labels: { app: 'web', 'apps.kruise.io/cloneset-instance-id': id, 'controller-revision-hash': revision, 'pod-template-hash': revision.slice(revision.lastIndexOf('-') + 1), ...over.labels },
    ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: cs.metadata.uid, controller: true }],
  },
  spec: { containers: [{ name: 'app', image: 'nginx:1' }], ...(over.node === '' ? {} : { nodeName: over.node ?? 'n1' }) },
  status: { phase: over.phase ?? 'Running', conditions: [{ type: 'Ready', status: over.ready === false ? 'False' : 'True', lastTransitionTime: '2025-12-31T00:00:00Z' }] },
});
const observed = (cs: StoredCloneSet, pods: Pod[], revisions: ControllerRevision[] = []) => ({ cloneSets: [cs], podsByOwner: new Map([[cs.metadata.uid!, pods]]), revisions });
const creates = (writes: { op: string; object?: KubeObject }[], kind: string) => writes.filter((w) => w.op === 'create' && w.object?.kind === kind).map((w) => w.object!);

describe('decideCloneSets', () => {
  it('a new CloneSet: its first revision, then replicas pods named <cs>-<id> with the revision labels and an owner', () => {
    const cs = cloneSet();
    const plan = decideCloneSets(observed(cs, []), NOW);
    const [revision] = creates(plan.writes, 'ControllerRevision') as (KubeObject & { metadata: { name: string; labels: Record<string, string> } })[];
    expect(revision!.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    const pods = creates(plan.writes, 'Pod') as (KubeObject & { metadata: { name: string; labels: Record<string, string>; ownerReferences: unknown[] }; spec: { containers: { imagePullPolicy: string }[] } })[];
    expect(pods).toHaveLength(3);
    for (const p of pods) {
      const id = p.metadata.labels['apps.kruise.io/cloneset-instance-id']!;
      expect(p.metadata.name).toBe(`web-${id}`);
      expect(id).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(p.metadata.labels).toMatchObject({ app: 'web', 'controller-revision-hash': revision!.metadata.name, 'pod-template-hash': revision!.metadata.labels['controller.kubernetes.io/hash'] });
      expect(p.metadata.ownerReferences).toEqual([{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: 'uid-1', controller: true, blockOwnerDeletion: true }]);
      expect(p.spec.containers[0]!.imagePullPolicy).toBe('Always');
    }
    expect(new Set(pods.map((p) => p.metadata.name)).size).toBe(3);
    // Each create carries its Event: told only once the pod is created.
    expect(plan.events).toEqual([]);
    expect(plan.writes.filter((w) => w.op === 'create' && w.object.kind === 'Pod').map((w) => w.event?.reason)).toEqual(['SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulCreate']);
    expect(plan.requeueAfterMs).toBe(3_000);
  });

  it('the same observation plans the same names (a repeated or racing run collides instead of doubling)', () => {
    const names = (p: ReturnType<typeof decideCloneSets>) => creates(p.writes, 'Pod').map((o) => o.metadata?.name);
    expect(names(decideCloneSets(observed(cloneSet(), []), NOW))).toEqual(names(decideCloneSets(observed(cloneSet(), []), NOW)));
  });

  it('a settled CloneSet: no writes, a status that says so, no wake-up', () => {
    const cs = cloneSet();
    const revision = chooseUpdateRevision(cs, []);
    const rev = { ...revision.create!, metadata: { ...revision.create!.metadata, uid: 'r' } };
    const pods = newInstanceIds('uid-1', new Set(), 3).map((id) => pod(cs, id, revision.name));
    const plan = decideCloneSets(observed(cs, pods, [rev]), NOW);
    expect(plan.writes).toEqual([]);
    expect(plan.status[0]!.status).toEqual({
      observedGeneration: 2, replicas: 3, readyReplicas: 3, availableReplicas: 3, updatedReplicas: 3, updatedReadyReplicas: 3, updatedAvailableReplicas: 3,
      expectedUpdatedReplicas: 3, updateRevision: revision.name, currentRevision: revision.name, collisionCount: 0, labelSelector: 'app=web',
    });
    expect(plan.requeueAfterMs).toBeUndefined();
    // Once written, the next run writes nothing.
    const again = decideCloneSets(observed(cloneSet({}, plan.status[0]!.status as StoredCloneSet['status']), pods, [rev]), NOW);
    expect(again.status).toEqual([]);
  });

  it('a pod relabelled out of the selector no longer counts, and its instance id is not given to its replacement', () => {
    const cs = cloneSet({ replicas: 2 });
    const revision = chooseUpdateRevision(cs, []).name;
    const pods = [pod(cs, 'aaaaa', revision), pod(cs, 'bbbbb', revision, { labels: { app: 'debug' } })];
    const created = creates(decideCloneSets(observed(cs, pods), NOW).writes, 'Pod');
    expect(created).toHaveLength(1);
    expect(created[0]!.metadata?.name).not.toBe('web-bbbbb');
    expect(decideCloneSets(observed(cs, pods), NOW).writes.filter((w) => w.op === 'delete')).toEqual([]);
  });

  it('scale in: unassigned, then not-ready pods go first; a named pod goes (within maxUnavailable) and is replaced next', () => {
    const cs = cloneSet({ replicas: 2 });
    const revision = chooseUpdateRevision(cs, []).name;
    const pods = [pod(cs, 'aaaaa', revision), pod(cs, 'bbbbb', revision, { ready: false }), pod(cs, 'ccccc', revision, { node: '', phase: 'Pending', ready: false })];
    const deleted = (p: ReturnType<typeof decideCloneSets>) => p.writes.filter((w) => w.op === 'delete').map((w) => (w as { target: { name: string } }).target.name);
    expect(deleted(decideCloneSets(observed(cs, pods), NOW))).toEqual(['web-ccccc']);
    const named = cloneSet({ replicas: 3, scaleStrategy: { podsToDelete: ['web-aaaaa'] } });
    // Two pods unavailable already, maxUnavailable 1: the ready pod asked for stays for now.
    expect(deleted(decideCloneSets(observed(named, pods), NOW))).toEqual([]);
    const ready = [pod(cs, 'aaaaa', revision), pod(cs, 'bbbbb', revision), pod(cs, 'ccccc', revision)];
    const plan = decideCloneSets(observed(named, ready), NOW);
    expect(deleted(plan)).toEqual(['web-aaaaa']);
    expect(creates(plan.writes, 'Pod')).toHaveLength(0);
    expect(creates(decideCloneSets(observed(named, ready.slice(1)), NOW).writes, 'Pod')).toHaveLength(1);
  });

  it('scaleStrategy.maxUnavailable throttles scale-up while new pods are unavailable', () => {
    const cs = cloneSet({ replicas: 5, scaleStrategy: { maxUnavailable: 1 } });
    const revision = chooseUpdateRevision(cs, []).name;
    expect(creates(decideCloneSets(observed(cs, []), NOW).writes, 'Pod')).toHaveLength(1);
    expect(creates(decideCloneSets(observed(cs, [pod(cs, 'aaaaa', revision, { ready: false })]), NOW).writes, 'Pod')).toHaveLength(0);
    expect(creates(decideCloneSets(observed(cs, [pod(cs, 'aaaaa', revision)]), NOW).writes, 'Pod')).toHaveLength(1);
  });

  it('a changed template is a new revision; pods of the old one count as not updated, and the current revision stays', () => {
    const cs = cloneSet();
    const old = chooseUpdateRevision(cs, []);
    const oldRev = { ...old.create!, metadata: { ...old.create!.metadata } };
    const changed = cloneSet({ template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } }, { currentRevision: old.name });
    const next = chooseUpdateRevision(changed, [oldRev]);
    expect(next.name).not.toBe(old.name);
    expect(next.create?.revision).toBe(2);
    const pods = ['aaaaa', 'bbbbb', 'ccccc'].map((id) => pod(cs, id, old.name));
    const plan = decideCloneSets(observed(changed, pods, [oldRev]), NOW);
    expect(plan.status[0]!.status).toMatchObject({ updatedReplicas: 0, updateRevision: next.name, currentRevision: old.name });
    // Back to the old template: the old revision is reused, not a new one.
    expect(chooseUpdateRevision(cs, [oldRev, next.create!]).create).toBeUndefined();
  });

  it('a revision name taken by other data is a collision: the count goes up', () => {
    const cs = cloneSet();
    const first = chooseUpdateRevision(cs, []);
    const squatter = { ...first.create!, data: { other: true } };
    const choice = chooseUpdateRevision(cs, [squatter]);
    expect(choice.collisionCount).toBe(1);
    expect(choice.name).not.toBe(first.name);
  });
});

describe('updates', () => {
  const v1 = cloneSet();
  const rev1 = chooseUpdateRevision(v1, []).create!;
  const podsAt = (n: number) => ['aaaaa', 'bbbbb', 'ccccc', 'ddddd', 'eeeee'].slice(0, n).map((id) => pod(v1, id, rev1.metadata.name));
  const v2 = (strategy: NonNullable<StoredCloneSet['spec']['updateStrategy']>, replicas = 3) =>
    cloneSet({ replicas, updateStrategy: strategy, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } }, { currentRevision: rev1.metadata.name });
  const podWrites = (plan: ReturnType<typeof decideCloneSets>) => plan.writes.filter((w) => w.op !== 'create' || w.object.kind !== 'ControllerRevision');

  it('InPlaceIfPossible: an image change updates one pod in place (maxUnavailable 20% of 3, rounded up), keeping its name', () => {
    const plan = decideCloneSets(observed(v2({ type: 'InPlaceIfPossible' }), podsAt(3), [rev1]), NOW);
    const writes = podWrites(plan);
    expect(writes).toHaveLength(1);
    const w = writes[0]! as unknown as { op: string; object: Pod };
    expect(w.op).toBe('update');
    expect(w.object.metadata.name).toBe('web-aaaaa');
    expect(w.object.spec.containers[0]!.image).toBe('nginx:2');
    expect(w.object.metadata.annotations?.['apps.kruise.io/inplace-update-state']).toContain('"revision"');
    expect(w.object.metadata.labels?.['controller-revision-hash']).not.toBe(rev1.metadata.name);
  });

  it('ReCreate marks the pod for deletion instead (scaling replaces it); a non-image change does too under InPlaceIfPossible', () => {
    const marked = (plan: ReturnType<typeof decideCloneSets>) => podWrites(plan).map((w) => (w.op === 'update' ? (w.object as unknown as Pod).metadata.labels?.['apps.kruise.io/specified-delete'] : w.op));
    expect(marked(decideCloneSets(observed(v2({ type: 'ReCreate' }), podsAt(3), [rev1]), NOW))).toEqual(['true']);
    const env = cloneSet({ updateStrategy: { type: 'InPlaceIfPossible' }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1', env: [{ name: 'A', value: 'b' }] }] } } });
    expect(marked(decideCloneSets(observed(env, podsAt(3), [rev1]), NOW))).toEqual(['true']);
    // The marked pod is deleted by scaling next, within maxUnavailable.
    const pods = podsAt(3);
    pods[1] = pod(v1, 'bbbbb', rev1.metadata.name, { labels: { 'apps.kruise.io/specified-delete': 'true' } });
    expect(podWrites(decideCloneSets(observed(v2({ type: 'ReCreate' }), pods, [rev1]), NOW)).map((w) => w.op)).toEqual(['delete']);
  });

  it('partition keeps that many pods old; paused updates none; maxUnavailable 2 updates two at once', () => {
    expect(podWrites(decideCloneSets(observed(v2({ type: 'ReCreate', partition: 3 }), podsAt(3), [rev1]), NOW))).toEqual([]);
    expect(podWrites(decideCloneSets(observed(v2({ type: 'ReCreate', paused: true }), podsAt(3), [rev1]), NOW))).toEqual([]);
    expect(podWrites(decideCloneSets(observed(v2({ type: 'ReCreate', maxUnavailable: 2 }), podsAt(3), [rev1]), NOW))).toHaveLength(2);
    expect(podWrites(decideCloneSets(observed(v2({ type: 'ReCreate', maxUnavailable: 5, partition: 1 }), podsAt(3), [rev1]), NOW))).toHaveLength(2);
  });

  it('no update while a pod is unavailable and the budget is spent; an unavailable old pod goes first', () => {
    const pods = podsAt(3);
    pods[0] = pod(v1, 'aaaaa', rev1.metadata.name, { ready: false });
    const writes = podWrites(decideCloneSets(observed(v2({ type: 'ReCreate', maxUnavailable: 1 }), pods, [rev1]), NOW));
    expect(writes.map((w) => (w as unknown as { object: Pod }).object.metadata.name)).toEqual(['web-aaaaa']);
  });
});

describe('in-place updates in as few writes and runs as possible', () => {
  const v1 = cloneSet();
  const rev1 = chooseUpdateRevision(v1, []).create!;
  const v2 = cloneSet({ replicas: 3, updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } }, { currentRevision: rev1.metadata.name });
  const rev2 = chooseUpdateRevision(v2, [rev1]).create!;
  const gated = (p: Pod, inPlaceReady: 'True' | 'False' = 'True'): Pod => ({
    ...p,
    metadata: { ...p.metadata, resourceVersion: `rv-${p.metadata.name}`, labels: { ...p.metadata.labels, 'lifecycle.apps.kruise.io/state': 'Normal' } },
    spec: { ...p.spec, readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } as Pod['spec'],
    status: { ...p.status, conditions: [...(p.status?.conditions ?? []), { type: 'InPlaceUpdateReady', status: inPlaceReady, lastTransitionTime: '2025-12-31T00:00:00Z' }] },
  });
  const podsAt = () => ['aaaaa', 'bbbbb', 'ccccc'].map((id) => gated(pod(v1, id, rev1.metadata.name)));

  it('takes the pod out of service and updates its images in one run: the update is chained on the status write; one Event', () => {
    const plan = decideCloneSets(observed(v2, podsAt(), [rev1, rev2]), NOW);
    const podStatus = plan.status.filter((s) => s.target.kind === 'Pod');
    expect(podStatus.map((s) => s.target.name)).toEqual(['web-aaaaa', 'web-bbbbb']);
    for (const s of podStatus) {
      expect(s.status.conditions).toContainEqual(expect.objectContaining({ type: 'InPlaceUpdateReady', status: 'False', reason: 'StartInPlaceUpdate' }));
      const next = s.then!.object as unknown as Pod;
      expect(next.spec.containers[0]!.image).toBe('nginx:2');
      expect(next.metadata.labels).toMatchObject({ 'lifecycle.apps.kruise.io/state': 'Updating', 'controller-revision-hash': rev2.metadata.name });
    }
    expect(plan.writes.filter((w) => w.op === 'update')).toEqual([]);
    expect(plan.events).toEqual([expect.objectContaining({ reason: 'SuccessfulUpdatePodInPlace', message: `successfully update pods web-aaaaa, web-bbbbb in-place(revision ${rev2.metadata.name})` })]);
  });

  it('the write that completes an update also moves the lifecycle on, and other pods are updated in the same run', () => {
    const pods = podsAt();
    // web-aaaaa: updated, its new image running (imageID changed), InPlaceUpdateReady still False.
    // Both writes as the first run made them (the condition and the update in the same second).
    const started = decideCloneSets(observed(v2, pods, [rev1, rev2]), NOW).status.find((s) => s.target.name === 'web-aaaaa')!;
    pods[0] = {
      ...(started.then!.object as unknown as Pod),
      status: {
        ...pods[0]!.status,
        conditions: started.status.conditions as NonNullable<Pod['status']>['conditions'],
        containerStatuses: [{ name: 'app', ready: true, restartCount: 0, image: 'nginx:2', imageID: 'docker://new' }],
      },
    } as Pod;
    const plan = decideCloneSets(observed(v2, pods, [rev1, rev2]), NOW);
    const done = plan.status.find((s) => s.target.name === 'web-aaaaa')!;
    expect(done.status.conditions).toContainEqual(expect.objectContaining({ type: 'InPlaceUpdateReady', status: 'True' }));
    expect(done.metadata?.labels).toEqual({ 'lifecycle.apps.kruise.io/state': 'Normal' });
    expect(done.then).toBeUndefined();
    // web-aaaaa is still unavailable as observed: one more pod fits in maxUnavailable 2 at once;
    // the room its write frees goes to one more, sent only once that write has landed.
    const starts = plan.status.filter((s) => s.then);
    expect(starts.map((s) => [s.target.name, s.afterStatus ?? false])).toEqual([['web-bbbbb', false], ['web-ccccc', true]]);
    expect(plan.requeueAfterMs).not.toBe(0);
  });

  describe('RecreatePodWhenChangeVCTInCloneSetGate', () => {
    const claim = (request: string) => [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: request } } } }];
    const withImage = (image: string, request: string, type: 'InPlaceIfPossible' | 'InPlaceOnly', status?: StoredCloneSet['status']) =>
      cloneSet({ volumeClaimTemplates: claim(request), updateStrategy: { type, maxUnavailable: 3 }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image }] } } } as Partial<StoredCloneSet['spec']>, status);
    /** Pods of revision 1 (1Gi), the CloneSet moved to nginx:2 with `request`; what each pod gets. */
    const updateOf = (request: string, gate: boolean, type: 'InPlaceIfPossible' | 'InPlaceOnly' = 'InPlaceIfPossible') => {
      const v1 = withImage('nginx:1', '1Gi', type);
      const r1 = { ...chooseUpdateRevision(v1, []).create!, metadata: { ...chooseUpdateRevision(v1, []).create!.metadata, uid: 'r1', resourceVersion: '1' } };
      const v2 = withImage('nginx:2', request, type, { currentRevision: r1.metadata.name } as StoredCloneSet['status']);
      const pods = ['aaaaa', 'bbbbb', 'ccccc'].map((id) => pod(v1, id, r1.metadata.name));
      const pvcs = ['aaaaa', 'bbbbb', 'ccccc'].map((id) => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: `data-web-${id}`, namespace: 'ns', labels: { 'apps.kruise.io/cloneset-instance-id': id } } }));
      const o = { ...observed(v2, pods, [r1]), pvcsByOwner: new Map([[v2.metadata.uid!, pvcs]]) };
      const plan = decideCloneSets(o, NOW, { gates: { ...FEATURE_GATE_DEFAULTS, RecreatePodWhenChangeVCTInCloneSetGate: gate } });
      return plan.writes.flatMap((w) => {
        if (w.op !== 'update') return [];
        const next = w.object as unknown as Pod;
        if (next.metadata.labels?.['apps.kruise.io/specified-delete'] === 'true') return ['recreate'];
        return next.spec.containers[0]!.image === 'nginx:2' ? ['in-place'] : ['other'];
      });
    };

    it('off (the default): an image change with a new claim size updates in place', () => {
      expect(updateOf('5Gi', false)).toEqual(['in-place', 'in-place', 'in-place']);
    });

    it('on: the same change recreates the pods; the same claims still update in place', () => {
      expect(updateOf('5Gi', true)).toEqual(['recreate', 'recreate', 'recreate']);
      expect(updateOf('1Gi', true)).toEqual(['in-place', 'in-place', 'in-place']);
    });

    it('on, with InPlaceOnly: the hash is ignored (IgnoreVolumeClaimTemplatesHashDiff)', () => {
      expect(updateOf('5Gi', true, 'InPlaceOnly')).toEqual(['in-place', 'in-place', 'in-place']);
    });
  });
});
