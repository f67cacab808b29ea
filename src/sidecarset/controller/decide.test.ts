import { describe, expect, it } from 'vitest';
import { formatPlan } from '../../reconcile/plan-format.js';
import type { Plan } from '../../reconcile/types.js';
import { INJECTED_LIST_ANNOTATION, INPLACE_UPDATE_STATE_ANNOTATION } from '../../workload/sidecar-update-state.js';
import { type SidecarSet } from '../types.js';
import { ROLLOUT_REQUEUE_MS, decideSidecarSets } from './decide.js';
import type { DisruptionBudgetSource } from '../../workload/disruption.js';
import type { SidecarSetObserved } from './observe.js';
import type { Pod } from '../../workload/pods.js';
import { controllerRevisionName, hashControllerRevision, revisionDataJson, type ControllerRevision } from '../../workload/revisions.js';
import { revisionData } from './revisions.js';
import { computeStatus } from './status.js';
import { applyPodPatch, hotSidecar, injectedPod, restarted, sidecar, sidecarSet, withImages } from './test-builders.js';
import { podPatch, upgradePod } from './update.js';

const NOW = new Date('2024-03-01T10:00:00Z');
const v1 = sidecarSet();
const v2 = withImages(v1, { proxy: 'proxy:2' });

function revisionOf(set: SidecarSet, revision = 1): ControllerRevision {
  const json = revisionDataJson(revisionData(set));
  const name = controllerRevisionName(set.metadata.name ?? '', hashControllerRevision(json, 0));
  return { metadata: { name, namespace: 'kruise-system', uid: `u-${name}`, labels: { 'kruise.io/sidecarset-name': set.metadata.name ?? '' } }, data: JSON.parse(json), revision };
}

/** The set with the status the controller would have written for these pods (so no status write is due). */
function settled(set: SidecarSet, pods: Pod[]): SidecarSet {
  const rev = revisionOf(set).metadata.name;
  return { ...set, status: computeStatus(set, pods, rev, 0) };
}

function observed(sets: SidecarSet[], pods: Pod[], revisions: ControllerRevision[] = sets.map((s) => revisionOf(s))): SidecarSetObserved {
  return { kruiseNamespace: 'kruise-system', sets, pods, revisions, namespaces: [{ name: 'default', labels: {} }], budgets: [] };
}

const lines = (plan: Plan) => formatPlan(plan).split('\n');
const podWrites = (plan: Plan) => plan.writes.filter((w) => w.op === 'patch' && w.target.kind === 'Pod').map((w) => (w.op === 'patch' ? w.target.name : ''));

describe('decideSidecarSets', () => {
  const old = ['a', 'b', 'c'].map((n) => injectedPod(v1, n));

  it('a new set: its first revision and its status; pods already current need nothing', () => {
    const plan = decideSidecarSets(observed([v1], old, []), NOW);
    expect(lines(plan)).toEqual([
      `create ControllerRevision kruise-system/${revisionOf(v1).metadata.name} — SidecarSet mesh has a new spec: revision 1`,
      `status SidecarSet mesh {collisionCount, latestRevision, matchedPods, observedGeneration, readyPods, updatedPods, updatedReadyPods} — 3 matched, 3 updated, 3 ready, 3 updated and ready; latest revision ${revisionOf(v1).metadata.name}`,
    ]);
    expect(plan.requeueAfterMs).toBeUndefined();
  });

  it('an image change: the revision, the status, and one pod (maxUnavailable 1), then look again soon', () => {
    const plan = decideSidecarSets(observed([v2], old, [revisionOf(v1, 1)]), NOW);
    expect(plan.writes.map((w) => w.op)).toEqual(['create', 'patch']);
    expect(podWrites(plan)).toEqual(['a']);
    expect(plan.status[0]!.status).toMatchObject({ matchedPods: 3, updatedPods: 0, readyPods: 3, latestRevision: revisionOf(v2).metadata.name });
    expect(plan.requeueAfterMs).toBe(ROLLOUT_REQUEUE_MS);
  });

  it('waits while the updated pod is unavailable, then moves on', () => {
    const patched = applyPodPatch(old[0]!, (decideSidecarSets(observed([v2], old), NOW).writes.find((w) => w.op === 'patch') as { patch: unknown }).patch);
    expect(podWrites(decideSidecarSets(observed([v2], [patched, old[1]!, old[2]!]), NOW))).toEqual([]);
    expect(podWrites(decideSidecarSets(observed([v2], [restarted(patched), old[1]!, old[2]!]), NOW))).toEqual(['b']);
  });

  it.each<[string, SidecarSet['spec']['updateStrategy']]>([
    ['paused', { paused: true }],
    ['NotUpdate', { type: 'NotUpdate' }],
  ])('%s: status only', (_name, us) => {
    const set = { ...v2, spec: { ...v2.spec, updateStrategy: { ...v2.spec.updateStrategy, ...us } } };
    const plan = decideSidecarSets(observed([set], old), NOW);
    expect(podWrites(plan)).toEqual([]);
    expect(plan.status).toHaveLength(1);
  });

  it('nothing to do when the status is current and every pod is updated', () => {
    const pods = ['a', 'b'].map((n) => injectedPod(v2, n));
    expect(formatPlan(decideSidecarSets(observed([settled(v2, pods)], pods), NOW))).toBe('no changes');
  });

  it('sidecars changed beyond images: pods are marked not upgradable and reported, never patched', () => {
    const changed = sidecarSet({ containers: [sidecar('proxy', 'proxy:2', { command: ['run'] })], withoutImage: 'w:changed' });
    const plan = decideSidecarSets(observed([settled(changed, old)], old), NOW);
    expect(podWrites(plan)).toEqual([]);
    expect(plan.status.map((s) => `${s.target.kind} ${s.target.name}`)).toEqual(['Pod a', 'Pod b', 'Pod c']);
    expect(plan.status[0]).toMatchObject({
      resourceVersion: 'rv-a',
      status: { conditions: [{ type: 'Ready' }, { type: 'SidecarSetUpgradable', status: 'False', reason: 'UpdateImmutableField', message: '{"mesh":false}' }] },
    });
    expect(plan.events).toEqual([
      expect.objectContaining({ reason: 'NotUpgradablePods', message: 'SidecarSet in-place update detected 3 not upgradable pod(s) in this round, will skip them.' }),
    ]);
  });

  it('a pod updated in place gets SidecarSetUpgradable=True on the next run', () => {
    const updated = restarted(applyPodPatch(old[0]!, (decideSidecarSets(observed([v2], old), NOW).writes.find((w) => w.op === 'patch') as { patch: unknown }).patch));
    expect(updated.metadata.annotations![INPLACE_UPDATE_STATE_ANNOTATION]).toBeDefined();
    const plan = decideSidecarSets(observed([v2], [updated, old[1]!, old[2]!]), NOW);
    expect(plan.status.find((s) => s.target.name === 'a')?.status).toMatchObject({
      conditions: [{ type: 'Ready' }, { type: 'SidecarSetUpgradable', status: 'True', reason: 'AllSidecarsetUpgradable', message: '{"mesh":true}' }],
    });
    expect(podWrites(plan)).toEqual(['b']);
  });

  it('hot upgrade: pods whose new container is up are flipped first, and nothing else rolls this round', () => {
    const h1 = sidecarSet({ containers: [hotSidecar('envoy', 'envoy:1')], updateStrategy: { maxUnavailable: 5 } });
    const h2 = withImages(h1, { envoy: 'envoy:2' });
    const a = injectedPod(h1, 'a');
    const swapped = upgradePod(h2, a, 'rev', NOW);
    if ('error' in swapped) throw new Error(swapped.error);
    const up = restarted(applyPodPatch(a, (podPatch(a, swapped.draft, '') as { patch: unknown }).patch));
    const plan = decideSidecarSets(observed([h2], [up, injectedPod(h1, 'b')]), NOW);
    expect(podWrites(plan)).toEqual(['a']);
    expect(plan.writes.find((w) => w.op === 'patch')).toMatchObject({ patch: { spec: { containers: [{ name: 'envoy-1', image: 'empty:1' }] } } });
    expect(plan.events).toEqual([expect.objectContaining({ regarding: expect.objectContaining({ kind: 'Pod', name: 'a' }), reason: 'ResetContainerSucceed' })]);
    expect(plan.requeueAfterMs).toBe(ROLLOUT_REQUEUE_MS);
  });

  it('pods the disruption budget refuses are skipped and reported', () => {
    const budgets: DisruptionBudgetSource = () => ({ requestUpdate: (p) => (p.metadata.name === 'a' ? { allowed: false, reason: 'no budget' } : { allowed: true }) });
    const plan = decideSidecarSets(observed([v2], old), NOW, { budgets });
    expect(podWrites(plan)).toEqual(['b']);
    expect(plan.events).toEqual([expect.objectContaining({ reason: 'PodUnavailableBudgetBlocked', message: expect.stringContaining('default/a') })]);
  });

  it('two sets never patch the same pod in one plan', () => {
    const logs1 = sidecarSet({ name: 'logs', containers: [sidecar('fluent', 'fluent:1')] });
    const logs2 = withImages(logs1, { fluent: 'fluent:2' });
    const both = (n: string) => {
      const meshPod = injectedPod(v1, n);
      const logsPod = injectedPod(logs1, n);
      return {
        ...meshPod,
        metadata: {
          ...meshPod.metadata,
          annotations: {
            ...meshPod.metadata.annotations,
            [INJECTED_LIST_ANNOTATION]: 'logs,mesh',
            'kruise.io/sidecarset-hash': JSON.stringify({ ...JSON.parse(logsPod.metadata.annotations!['kruise.io/sidecarset-hash']!), ...JSON.parse(meshPod.metadata.annotations!['kruise.io/sidecarset-hash']!) }),
            'kruise.io/sidecarset-hash-without-image': JSON.stringify({ ...JSON.parse(logsPod.metadata.annotations!['kruise.io/sidecarset-hash-without-image']!), ...JSON.parse(meshPod.metadata.annotations!['kruise.io/sidecarset-hash-without-image']!) }),
          },
        },
        spec: { ...meshPod.spec, containers: [logsPod.spec.containers[0]!, ...meshPod.spec.containers] },
        status: { ...meshPod.status, containerStatuses: [logsPod.status!.containerStatuses![0]!, ...meshPod.status!.containerStatuses!] },
      } as Pod;
    };
    const plan = decideSidecarSets(observed([v2, logs2], [both('a')]), NOW);
    expect(podWrites(plan)).toEqual(['a']);
    expect(plan.writes.find((w) => w.op === 'patch' && w.target.kind === 'Pod')).toMatchObject({ reason: expect.stringContaining('SidecarSet logs') });
  });

  it('a set being deleted is left alone', () => {
    const deleting = { ...v2, metadata: { ...v2.metadata, deletionTimestamp: '2024-03-01T00:00:00Z' } };
    expect(formatPlan(decideSidecarSets(observed([deleting], old), NOW))).toBe('no changes');
  });
});
