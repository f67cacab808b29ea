import { describe, expect, it } from 'vitest';
import { HASH_ANNOTATION, type SidecarSet } from '../types.js';
import { INPLACE_UPDATE_STATE_ANNOTATION } from '../../workload/sidecar-update-state.js';
import type { DisruptionBudget } from '../../workload/disruption.js';
import { isPodSidecarUpdated } from './pod-state.js';
import type { Pod } from '../../workload/pods.js';
import { maxUnavailableOf, podPatch, selectPodsToUpgrade, upgradePod } from './update.js';
import { partitionReplicas } from '../../kube/intstr.js';
import { applyPodPatch, injectedPod, sidecar, sidecarSet, withImages } from './test-builders.js';

const v1 = sidecarSet({ containers: [sidecar('proxy', 'proxy:1'), sidecar('log', 'log:1')] });
const v2 = withImages(v1, { proxy: 'proxy:2' });
const allow: DisruptionBudget = { requestUpdate: () => ({ allowed: true }) };
const names = (pods: Pod[]) => pods.map((p) => p.metadata.name);
const strategy = (s: SidecarSet, us: SidecarSet['spec']['updateStrategy']): SidecarSet => ({ ...s, spec: { ...s.spec, updateStrategy: { ...s.spec.updateStrategy, ...us } } });
const NOW = new Date('2024-03-01T10:00:00.123Z');

describe('partition and maxUnavailable', () => {
  it.each<[string | number | undefined, number, number]>([
    [undefined, 10, 0],
    [3, 10, 3],
    [20, 10, 10],
    ['30%', 10, 3],
    ['25%', 10, 3],
    ['99%', 3, 2],
    ['100%', 3, 3],
    ['50%', 1, 1],
    ['3', 10, 0],
  ])('partition %j of %i pods keeps %i', (p, total, want) => expect(partitionReplicas(p, total)).toBe(want));

  it.each<[string | number | undefined, number, number]>([
    [undefined, 10, 1],
    [2, 10, 2],
    ['50%', 3, 2],
    ['5%', 5, 1],
    ['oops', 5, 0],
  ])('maxUnavailable %j of %i pods is %i', (m, total, want) => {
    const set = strategy(v2, m === undefined ? {} : { maxUnavailable: m });
    if (m === undefined) delete set.spec.updateStrategy!.maxUnavailable;
    expect(maxUnavailableOf(set, total)).toBe(want);
  });
});

describe('selectPodsToUpgrade', () => {
  const ready = (n: string, labels?: Record<string, string>) => injectedPod(v1, n, labels ? { labels } : {});
  const notReady = (n: string) => injectedPod(v1, n, { ready: false });
  const updatedNotReady = (n: string) => injectedPod(v2, n, { ready: false });

  it.each<[string, SidecarSet['spec']['updateStrategy'], Pod[], string[]]>([
    ['maxUnavailable 1: one pod at a time', {}, [ready('a'), ready('b'), ready('c')], ['a']],
    ['maxUnavailable 2', { maxUnavailable: 2 }, [ready('a'), ready('b'), ready('c')], ['a', 'b']],
    ['an updated pod not yet ready uses a slot', { maxUnavailable: 2 }, [updatedNotReady('u'), ready('a'), ready('b')], ['a']],
    ['slots all used: nothing', {}, [updatedNotReady('u'), ready('a')], []],
    ['not-ready pods go first and cost nothing', {}, [ready('a'), notReady('b'), ready('c'), notReady('d')], ['b', 'd', 'a']],
    ['partition keeps the last in order', { maxUnavailable: 10, partition: 2 }, [ready('a'), ready('b'), ready('c'), ready('d')], ['a', 'b']],
    ['partition covering all waiting pods: nothing', { maxUnavailable: 10, partition: '100%' }, [ready('a'), ready('b')], []],
    ['selector: only the selected pods', { maxUnavailable: 10, selector: { matchLabels: { canary: 'true' } } }, [ready('a'), ready('b', { app: 'web', canary: 'true' })], ['b']],
    ['percent maxUnavailable rounds up', { maxUnavailable: '10%' }, [ready('a'), ready('b'), ready('c')], ['a']],
  ])('%s', (_name, us, pods, want) => {
    const { upgrade } = selectPodsToUpgrade(strategy(v2, us), pods, allow);
    expect(names(upgrade)).toEqual(want);
  });

  it('pods whose sidecars changed beyond images are not upgradable in place', () => {
    const changed = sidecarSet({ containers: [sidecar('proxy', 'proxy:2'), sidecar('log', 'log:1')], withoutImage: 'w:other' });
    const got = selectPodsToUpgrade(changed, [ready('a'), ready('b')], allow);
    expect(names(got.upgrade)).toEqual([]);
    expect(names(got.notUpgradable)).toEqual(['a', 'b']);
  });

  it('a pod whose earlier update has not completed waits, without being "not upgradable"', () => {
    const pod = injectedPod(v1, 'a');
    // Spec already shows log:0 → log:1 pending: the kubelet still runs the recorded imageID.
    pod.spec.containers.find((c) => c.name === 'log')!.image = 'log:1';
    pod.status!.containerStatuses!.find((c) => c.name === 'log')!.image = 'log:0';
    pod.status!.containerStatuses!.find((c) => c.name === 'log')!.imageID = 'log:0@id';
    pod.metadata.annotations![INPLACE_UPDATE_STATE_ANNOTATION] = JSON.stringify({ mesh: { revision: 'r', updateTimestamp: null, lastContainerStatuses: { log: { imageID: 'log:0@id' } } } });
    const got = selectPodsToUpgrade(v2, [pod, ready('b')], allow);
    expect([names(got.upgrade), names(got.notUpgradable)]).toEqual([['b'], []]);
  });

  it('a pod the disruption budget refuses is skipped and does not take the slot', () => {
    const budget: DisruptionBudget = { requestUpdate: (p) => (p.metadata.name === 'a' ? { allowed: false, reason: 'pub web: 0 unavailable allowed' } : { allowed: true }) };
    const got = selectPodsToUpgrade(v2, [ready('a'), ready('b'), ready('c')], budget);
    expect(names(got.upgrade)).toEqual(['b']);
    expect(got.blocked.map((b) => [b.pod.metadata.name, b.reason])).toEqual([['a', 'pub web: 0 unavailable allowed']]);
  });

  it('the budget is asked only for pods that would be updated', () => {
    const asked: string[] = [];
    selectPodsToUpgrade(v2, [ready('a'), ready('b'), ready('c')], { requestUpdate: (p) => (asked.push(p.metadata.name), { allowed: true }) });
    expect(asked).toEqual(['a']);
  });
});

describe('upgradePod and podPatch', () => {
  const latest = 'mesh-5f6d7c8b9';
  const pod = injectedPod(v1, 'a');

  it('changes only the changed images and records hash, revision and previous imageIDs', () => {
    const result = upgradePod(v2, pod, latest, NOW);
    if ('error' in result) throw new Error(result.error);
    expect(result.changed).toEqual(['proxy']);
    const write = podPatch(pod, result.draft, 'why');
    expect(write).toMatchObject({ op: 'patch', patchType: 'strategic', target: { apiVersion: 'v1', kind: 'Pod', name: 'a', namespace: 'default' } });
    const patch = (write as { patch: { metadata: { resourceVersion: string; annotations: Record<string, string> }; spec: unknown } }).patch;
    expect(patch.metadata.resourceVersion).toBe('rv-a');
    expect(patch.spec).toEqual({ containers: [{ name: 'proxy', image: 'proxy:2' }] });
    expect(patch.metadata.annotations[HASH_ANNOTATION]).toBe(
      `{"mesh":{"updateTimestamp":"2024-03-01T10:00:00Z","hash":"${v2.metadata.annotations![HASH_ANNOTATION]}","sidecarSetName":"mesh","sidecarList":["log","proxy"],"controllerRevision":"${latest}"}}`,
    );
    expect(patch.metadata.annotations[INPLACE_UPDATE_STATE_ANNOTATION]).toBe(
      `{"mesh":{"revision":"${v2.metadata.annotations![HASH_ANNOTATION]}","updateTimestamp":"2024-03-01T10:00:00Z","lastContainerStatuses":{"proxy":{"imageID":"proxy:1@id"}}}}`,
    );
    expect(isPodSidecarUpdated(v2, applyPodPatch(pod, patch))).toBe(true);
  });

  it('re-applies patchPodMetadata', () => {
    const set = { ...v2, spec: { ...v2.spec, patchPodMetadata: [{ annotations: { 'mesh/config': '{"b":1}' }, patchPolicy: 'MergePatchJson' as const }] } };
    const withConfig = injectedPod(v1, 'a', { annotations: { 'mesh/config': '{"z":0,"a":2}' } });
    const result = upgradePod(set, withConfig, latest, NOW);
    if ('error' in result) throw new Error(result.error);
    expect(result.draft.metadata.annotations!['mesh/config']).toBe('{"a":2,"b":1,"z":0}');
  });

  it('an unparsable MergePatchJson target is an error, not a write', () => {
    const set = { ...v2, spec: { ...v2.spec, patchPodMetadata: [{ annotations: { k: '{"b":1}' }, patchPolicy: 'MergePatchJson' as const }] } };
    expect(upgradePod(set, injectedPod(v1, 'a', { annotations: { k: 'not json' } }), latest, NOW)).toHaveProperty('error');
  });
});
