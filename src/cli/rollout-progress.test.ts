import { describe, expect, it } from 'vitest';
import type { CloneSet, CloneSetStatus, CloneSetUpdateStrategy } from '../api/apps/cloneset.js';
import type { Lifecycle } from '../api/apps/pub.js';
import type { Pod } from '../workload/pods.js';
import { cloneSetProgress, podsOf, type Waiting } from './rollout-progress.js';

const UID = 'uid-web';
const NOW = Date.parse('2025-01-01T00:00:00Z');

type Opts = { replicas?: number; generation?: number; status?: Partial<CloneSetStatus>; strategy?: CloneSetUpdateStrategy; lifecycle?: Lifecycle; noStatus?: boolean };

/** A CloneSet of 3 (by default) whose status says every pod is updated and available. */
function cs(o: Opts = {}): CloneSet {
  const replicas = o.replicas ?? 3;
  const generation = o.generation ?? 2;
  const status: CloneSetStatus = {
    observedGeneration: generation, replicas, readyReplicas: replicas, availableReplicas: replicas, updatedReplicas: replicas,
    updatedReadyReplicas: replicas, updatedAvailableReplicas: replicas, expectedUpdatedReplicas: replicas, updateRevision: 'web-new', ...o.status,
  };
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'ns', uid: UID, generation },
    spec: { replicas, selector: { matchLabels: { app: 'web' } }, template: {}, updateStrategy: { maxUnavailable: 1, ...o.strategy }, ...(o.lifecycle ? { lifecycle: o.lifecycle } : {}) },
    ...(o.noStatus ? {} : { status }),
  };
}

type PodOpts = { ready?: boolean; state?: string; labels?: Record<string, string>; finalizers?: string[]; owner?: string; terminating?: boolean };
function pod(name: string, o: PodOpts = {}): Pod {
  const labels = { app: 'web', ...(o.state ? { 'lifecycle.apps.kruise.io/state': o.state } : {}), ...o.labels };
  return {
    metadata: {
      name, namespace: 'ns', labels, ...(o.finalizers ? { finalizers: o.finalizers } : {}), ...(o.terminating ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}),
      ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'web', uid: o.owner ?? UID, controller: true }],
    },
    spec: { containers: [{ name: 'main', image: 'app:1' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True', lastTransitionTime: '2024-12-31T00:00:00Z' }] },
  };
}
const readyPods = (...names: string[]) => names.map((n) => pod(n));

describe('cloneSetProgress', () => {
  it.each<[string, CloneSet, Pod[], 'complete' | 'partitioned' | false, Waiting[]]>([
    ['complete: observed, every pod updated and available', cs(), readyPods('web-a', 'web-b', 'web-c'), 'complete', []],
    ['not observed: status is of an older generation', cs({ generation: 3, status: { observedGeneration: 2 } }), readyPods('web-a', 'web-b', 'web-c'), false,
      [{ on: 'observed', generation: 3, observedGeneration: 2 }]],
    ['not observed: no status yet', cs({ generation: 1, noStatus: true }), [], false, [{ on: 'observed', generation: 1, observedGeneration: 0 }]],
    ['partitioned complete: the pods above the partition are updated and available',
      cs({ strategy: { partition: 2 }, status: { updatedReplicas: 1, updatedReadyReplicas: 1, updatedAvailableReplicas: 1, expectedUpdatedReplicas: 1 } }),
      readyPods('web-a', 'web-b', 'web-c'), 'partitioned', [{ on: 'partition', partition: 2 }]],
    ['partition reached but the updated pod is not ready yet',
      cs({ strategy: { partition: 2 }, status: { readyReplicas: 2, updatedReplicas: 1, updatedReadyReplicas: 0, updatedAvailableReplicas: 0, expectedUpdatedReplicas: 1 } }),
      [pod('web-a', { ready: false }), pod('web-b'), pod('web-c')], false, [{ on: 'not-ready', pods: ['web-a'] }]],
    ['paused with pods left to update', cs({ strategy: { paused: true }, status: { updatedReplicas: 0, updatedReadyReplicas: 0, updatedAvailableReplicas: 0 } }),
      readyPods('web-a', 'web-b', 'web-c'), false, [{ on: 'paused' }]],
    ['paused, but every pod is updated: complete all the same', cs({ strategy: { paused: true } }), readyPods('web-a', 'web-b', 'web-c'), 'complete', []],
    ['budget: maxUnavailable 1 and one pod unavailable',
      cs({ status: { readyReplicas: 2, updatedReplicas: 1, updatedReadyReplicas: 0, updatedAvailableReplicas: 0 } }),
      [pod('web-a', { ready: false }), pod('web-b'), pod('web-c')], false,
      [{ on: 'budget', maxUnavailable: 1, unavailable: 1 }, { on: 'not-ready', pods: ['web-a'] }]],
    ['budget: a missing pod counts as unavailable (ReCreate deleted it)',
      cs({ status: { replicas: 2, readyReplicas: 2, updatedReplicas: 0, updatedReadyReplicas: 0, updatedAvailableReplicas: 0 } }),
      readyPods('web-b', 'web-c'), false, [{ on: 'budget', maxUnavailable: 1, unavailable: 1 }, { on: 'pod-count', have: 2, want: 3 }]],
    ['within budget: maxUnavailable 2 and one pod unavailable names the pod only',
      cs({ strategy: { maxUnavailable: 2 }, status: { readyReplicas: 2, updatedReplicas: 1, updatedReadyReplicas: 0, updatedAvailableReplicas: 0 } }),
      [pod('web-a', { ready: false }), pod('web-b'), pod('web-c')], false, [{ on: 'not-ready', pods: ['web-a'] }]],
    ['hook: PreparingUpdate held by the inPlaceUpdate label still on the pod',
      cs({ lifecycle: { inPlaceUpdate: { labelsHandler: { 'example.com/hold': 'true' }, finalizersHandler: ['example.com/drain'] } }, status: { updatedReplicas: 0, updatedReadyReplicas: 0, updatedAvailableReplicas: 0, availableReplicas: 2 } }),
      [pod('web-a', { state: 'PreparingUpdate', labels: { 'example.com/hold': 'true' } }), pod('web-b'), pod('web-c')], false,
      [{ on: 'hook', pods: [{ name: 'web-a', state: 'PreparingUpdate', hook: 'inPlaceUpdate', waitsFor: 'removal', handlers: ['label example.com/hold=true'] }] },
        { on: 'budget', maxUnavailable: 1, unavailable: 1 }]],
    ['hook: PreparingDelete held by the preDelete finalizer',
      cs({ lifecycle: { preDelete: { finalizersHandler: ['example.com/drain'] } }, status: { replicas: 4, updatedReplicas: 3 } }),
      [pod('web-a', { state: 'PreparingDelete', finalizers: ['example.com/drain'] }), ...readyPods('web-b', 'web-c', 'web-d')], false,
      [{ on: 'hook', pods: [{ name: 'web-a', state: 'PreparingDelete', hook: 'preDelete', waitsFor: 'removal', handlers: ['finalizer example.com/drain'] }] },
        { on: 'pod-count', have: 4, want: 3 }]],
    ['hook: PreparingNormal until the preNormal label is added',
      cs({ lifecycle: { preNormal: { labelsHandler: { 'example.com/warm': 'yes' } } }, status: { readyReplicas: 3, updatedAvailableReplicas: 2, availableReplicas: 2 } }),
      [pod('web-a', { state: 'PreparingNormal' }), pod('web-b'), pod('web-c')], false,
      [{ on: 'hook', pods: [{ name: 'web-a', state: 'PreparingNormal', hook: 'preNormal', waitsFor: 'addition', handlers: ['label example.com/warm=yes'] }] }]],
    ['a PreparingUpdate pod whose hook is gone is not held: it waits on the controller',
      cs({ lifecycle: { inPlaceUpdate: { labelsHandler: { 'example.com/hold': 'true' } } }, strategy: { maxUnavailable: 2 }, status: { updatedReplicas: 0, updatedReadyReplicas: 0, updatedAvailableReplicas: 0 } }),
      [pod('web-a', { state: 'PreparingUpdate' }), pod('web-b'), pod('web-c')], false, [{ on: 'not-ready', pods: ['web-a'] }]],
    ['nothing visible blocks: waiting on the controller',
      cs({ status: { updatedReplicas: 1, updatedReadyReplicas: 1, updatedAvailableReplicas: 1 } }), readyPods('web-a', 'web-b', 'web-c'), false, [{ on: 'controller' }]],
  ])('%s', (_name, c, pods, done, waiting) => {
    const got = cloneSetProgress(c, pods, NOW);
    expect(got.done).toBe(done);
    expect(got.waiting).toEqual(waiting);
  });

  it('counts updated/ready/total from status (ready as kubectl-kruise: readyReplicas), and the target from the partition', () => {
    const got = cloneSetProgress(cs({ replicas: 4, strategy: { partition: '50%' }, status: { updatedReplicas: 1, readyReplicas: 3, updatedAvailableReplicas: 1, expectedUpdatedReplicas: undefined } }), [], NOW);
    expect(got).toMatchObject({ updated: 1, ready: 3, total: 4, target: 2, updatedAvailable: 1, revision: 'web-new' });
  });

  it('falls back to updatedReadyReplicas when updatedAvailableReplicas is absent', () => {
    expect(cloneSetProgress(cs({ status: { updatedAvailableReplicas: undefined, updatedReadyReplicas: 3 } }), [], NOW).done).toBe('complete');
    expect(cloneSetProgress(cs({ status: { updatedAvailableReplicas: undefined, updatedReadyReplicas: 2 } }), [], NOW).done).toBe(false);
  });

  it('a pod Ready for less than minReadySeconds is not yet available', () => {
    const c = { ...cs({ status: { updatedAvailableReplicas: 2, availableReplicas: 2 } }), spec: { ...cs().spec, minReadySeconds: 3600 * 48 } };
    expect(cloneSetProgress(c, readyPods('web-a'), NOW).waiting).toContainEqual({ on: 'not-ready', pods: ['web-a'] });
  });
});

describe('podsOf', () => {
  it('keeps the pods the CloneSet controls and that are not terminating, by name', () => {
    const pods = [pod('web-c'), pod('other-a', { owner: 'uid-other' }), pod('web-b', { terminating: true }), pod('web-a')];
    expect(podsOf(cs(), pods).map((p) => p.metadata.name)).toEqual(['web-a', 'web-c']);
  });
});
