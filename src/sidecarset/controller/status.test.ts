import { describe, expect, it } from 'vitest';
import { INJECTED_LIST_ANNOTATION, INPLACE_UPDATE_STATE_ANNOTATION } from '../../workload/sidecar-update-state.js';
import { WORKING_HOTUPGRADE_CONTAINER_ANNOTATION } from '../types.js';
import { matchingPods } from './pod-state.js';
import type { Pod } from '../../workload/pods.js';
import { computeStatus, statusChanged } from './status.js';
import { hotSidecar, injectedPod, sidecarSet, withImages } from './test-builders.js';

const v1 = sidecarSet();
const v2 = withImages(v1, { proxy: 'proxy:2' });
const names = (pods: Pod[]) => pods.map((p) => p.metadata.name);

/** A pod just patched to v2 whose kubelet has not restarted the sidecar yet. */
function midUpdate(name: string): Pod {
  const pod = injectedPod(v2, name);
  pod.status!.containerStatuses![0] = { name: 'proxy', ready: true, image: 'proxy:1', imageID: 'proxy:1@id' };
  pod.metadata.annotations![INPLACE_UPDATE_STATE_ANNOTATION] = JSON.stringify({
    mesh: { revision: 'x', updateTimestamp: '2024-01-01T00:00:00Z', lastContainerStatuses: { proxy: { imageID: 'proxy:1@id' } } },
  });
  return pod;
}

describe('matchingPods', () => {
  const nsLabels = [{ name: 'default', labels: { env: 'prod' } }, { name: 'dev', labels: { env: 'dev' } }];
  it.each<[string, Parameters<typeof sidecarSet>[0], Pod, boolean]>([
    ['injected, selected, active', {}, injectedPod(v1, 'a'), true],
    ['labels not selected', {}, injectedPod(v1, 'a', { labels: { app: 'db' } }), false],
    ['not in the injected list', {}, injectedPod(v1, 'a', { annotations: { [INJECTED_LIST_ANNOTATION]: 'other,mesh2' } }), false],
    ['one of several injected sets', {}, injectedPod(v1, 'a', { annotations: { [INJECTED_LIST_ANNOTATION]: 'logs,mesh' } }), true],
    ['succeeded', {}, injectedPod(v1, 'a', { phase: 'Succeeded' }), false],
    ['being deleted', {}, { ...injectedPod(v1, 'a'), metadata: { ...injectedPod(v1, 'a').metadata, deletionTimestamp: '2024-01-01T00:00:00Z' } }, false],
    ['sidecar container removed', {}, { ...injectedPod(v1, 'a'), spec: { containers: [{ name: 'app', image: 'app:1' }] } }, false],
    ['spec.namespace elsewhere', { spec: { namespace: 'dev' } }, injectedPod(v1, 'a'), false],
    ['namespaceSelector matches', { spec: { namespaceSelector: { matchLabels: { env: 'prod' } } } }, injectedPod(v1, 'a'), true],
    ['namespaceSelector does not match', { spec: { namespaceSelector: { matchLabels: { env: 'dev' } } } }, injectedPod(v1, 'a'), false],
  ])('%s', (_name, o, pod, want) => {
    const got = matchingPods(sidecarSet(o), [pod], nsLabels);
    expect('error' in got ? got : names(got)).toEqual(want ? ['a'] : []);
  });

  it('hot-upgrade sidecars need both containers and a working-container entry', () => {
    const hot = sidecarSet({ containers: [hotSidecar('envoy', 'envoy:1')] });
    const ok = injectedPod(hot, 'ok');
    const noEntry = injectedPod(hot, 'no-entry', { annotations: { [WORKING_HOTUPGRADE_CONTAINER_ANNOTATION]: '{}' } });
    const oneContainer = injectedPod(hot, 'one');
    oneContainer.spec.containers = oneContainer.spec.containers.filter((c) => c.name !== 'envoy-2');
    expect(names(matchingPods(hot, [ok, noEntry, oneContainer], []) as Pod[])).toEqual(['ok']);
  });

  it('an invalid selector is an error', () => {
    const bad = sidecarSet({ spec: { selector: { matchExpressions: [{ key: 'app', operator: 'Near' }] } } });
    expect(matchingPods(bad, [], [])).toHaveProperty('error');
  });
});

describe('computeStatus', () => {
  it.each<[string, Pod[], [number, number, number, number]]>([
    ['no pods', [], [0, 0, 0, 0]],
    ['all on the old version, ready', [injectedPod(v1, 'a'), injectedPod(v1, 'b')], [2, 0, 2, 0]],
    ['updated and ready', [injectedPod(v2, 'a'), injectedPod(v1, 'b')], [2, 1, 2, 1]],
    ['updated, pod not ready', [injectedPod(v2, 'a', { ready: false })], [1, 1, 0, 0]],
    ['updated, Running but Pending phase counts not ready', [injectedPod(v2, 'a', { phase: 'Pending' })], [1, 1, 0, 0]],
    ['updated, sidecar not restarted yet (inconsistent)', [midUpdate('a')], [1, 1, 0, 0]],
    ['fewer statuses than containers', [{ ...injectedPod(v2, 'a'), status: { ...injectedPod(v2, 'a').status, containerStatuses: [] } }], [1, 1, 0, 0]],
  ])('%s', (_name, pods, [matched, updated, ready, updatedReady]) => {
    const s = computeStatus(v2, pods, 'mesh-abc', 0);
    expect([s.matchedPods, s.updatedPods, s.readyPods, s.updatedReadyPods]).toEqual([matched, updated, ready, updatedReady]);
    expect(s).toMatchObject({ observedGeneration: 1, latestRevision: 'mesh-abc', collisionCount: 0 });
  });

  it('a hot-upgrade pod whose idle container is not on the empty image is not ready', () => {
    const hot = sidecarSet({ containers: [hotSidecar('envoy', 'envoy:1')] });
    const pod = injectedPod(hot, 'a');
    pod.spec.containers.find((c) => c.name === 'envoy-2')!.image = 'envoy:0';
    pod.status!.containerStatuses!.find((c) => c.name === 'envoy-2')!.image = 'envoy:0';
    expect(computeStatus(hot, [pod], 'r', 0).readyPods).toBe(0);
    expect(computeStatus(hot, [injectedPod(hot, 'b')], 'r', 0).readyPods).toBe(1);
  });
});

describe('statusChanged', () => {
  const base = { observedGeneration: 1, matchedPods: 2, updatedPods: 1, readyPods: 2, updatedReadyPods: 1, latestRevision: 'r1', collisionCount: 0 };
  it.each<[string, Partial<typeof base> | undefined, boolean]>([
    ['identical', base, false],
    ['no status yet', undefined, true],
    ['older generation observed', { ...base, observedGeneration: 0 }, true],
    ['newer generation observed than computed (never goes back)', { ...base, observedGeneration: 2 }, false],
    ['count differs', { ...base, readyPods: 1 }, true],
    ['revision differs', { ...base, latestRevision: 'r0' }, true],
    ['collisionCount unset', { ...base, collisionCount: undefined }, true],
  ])('%s', (_name, current, want) => {
    const set = sidecarSet(current ? { status: current as never } : {});
    expect(statusChanged(set, base)).toBe(want);
  });
});
