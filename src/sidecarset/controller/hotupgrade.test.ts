import { describe, expect, it } from 'vitest';
import { WORKING_HOTUPGRADE_CONTAINER_ANNOTATION } from '../types.js';
import { applyFlip, containerToHotUpgrade, isPodInHotUpgrading, isReadyToFlip } from './hotupgrade.js';
import { isPodReadyForSet, isPodSidecarUpdated } from './pod-state.js';
import type { Pod } from '../../workload/pods.js';
import { computeStatus } from './status.js';
import { EMPTY_IMAGE, applyPodPatch, hotSidecar, injectedPod, restarted, sidecarSet, withImages } from './test-builders.js';
import { podPatch, upgradePod } from './update.js';

const v1 = sidecarSet({ containers: [hotSidecar('envoy', 'envoy:1')] });
const v2 = withImages(v1, { envoy: 'envoy:2' });
const v3 = withImages(v1, { envoy: 'envoy:3' });
const NOW = new Date('2024-03-01T10:00:00Z');

const image = (pod: Pod, name: string) => pod.spec.containers.find((c) => c.name === name)?.image;
const annotation = (pod: Pod, key: string) => pod.metadata.annotations?.[key];

function upgrade(set: typeof v1, pod: Pod): Pod {
  const result = upgradePod(set, pod, 'rev', NOW);
  if ('error' in result) throw new Error(result.error);
  const write = podPatch(pod, result.draft, 'test');
  return applyPodPatch(pod, (write as { patch: unknown }).patch);
}

function flip(set: typeof v1, pod: Pod): Pod {
  const draft = structuredClone(pod);
  applyFlip(set, draft, NOW);
  return applyPodPatch(pod, (podPatch(pod, draft, 'test') as { patch: unknown }).patch);
}

describe('hot upgrade, step by step', () => {
  const injected = injectedPod(v1, 'a');

  it('1. swap: the idle container takes the new image and becomes the working one', () => {
    const pod = upgrade(v2, injected);
    expect([image(pod, 'envoy-1'), image(pod, 'envoy-2')]).toEqual(['envoy:1', 'envoy:2']);
    expect(annotation(pod, WORKING_HOTUPGRADE_CONTAINER_ANNOTATION)).toBe('{"envoy":"envoy-2"}');
    expect([
      annotation(pod, 'version.sidecarset.kruise.io/envoy-2'),
      annotation(pod, 'versionalt.sidecarset.kruise.io/envoy-2'),
      annotation(pod, 'versionalt.sidecarset.kruise.io/envoy-1'),
      annotation(pod, 'version.sidecarset.kruise.io/envoy-1'),
    ]).toEqual(['100', '1', '100', '1']);
    expect(isPodSidecarUpdated(v2, pod)).toBe(true);
  });

  it('2. until the new container runs and is ready, the pod is unavailable and not flipped', () => {
    const pod = upgrade(v2, injected);
    expect(isPodInHotUpgrading(v2, pod)).toBe(true);
    expect(isReadyToFlip(v2, pod)).toBe(false);
    expect(isPodReadyForSet(v2, pod)).toBe(false);
    expect(isReadyToFlip(v2, restarted(pod, false))).toBe(false);
  });

  it('3. flip: once it is up, the old container is reset to the empty image', () => {
    const up = restarted(upgrade(v2, injected));
    expect(isReadyToFlip(v2, up)).toBe(true);
    const pod = flip(v2, up);
    expect([image(pod, 'envoy-1'), image(pod, 'envoy-2')]).toEqual([EMPTY_IMAGE, 'envoy:2']);
    expect([annotation(pod, 'version.sidecarset.kruise.io/envoy-1'), annotation(pod, 'versionalt.sidecarset.kruise.io/envoy-2')]).toEqual(['0', '0']);
    expect(annotation(pod, WORKING_HOTUPGRADE_CONTAINER_ANNOTATION)).toBe('{"envoy":"envoy-2"}');
  });

  it('4. done: ready, updated, nothing to flip; the next version goes to envoy-1', () => {
    const done = restarted(flip(v2, restarted(upgrade(v2, injected))));
    expect(isPodInHotUpgrading(v2, done)).toBe(false);
    expect(computeStatus(v2, [done], 'rev', 0)).toMatchObject({ updatedPods: 1, readyPods: 1, updatedReadyPods: 1 });
    const next = upgrade(v3, done);
    expect([image(next, 'envoy-1'), image(next, 'envoy-2')]).toEqual(['envoy:3', 'envoy:2']);
    expect(annotation(next, WORKING_HOTUPGRADE_CONTAINER_ANNOTATION)).toBe('{"envoy":"envoy-1"}');
  });

  it('no image change for a sidecar already running the image: only the hash moves', () => {
    const result = upgradePod(v1, injected, 'rev', NOW);
    expect('error' in result ? result : result.changed).toEqual([]);
  });
});

describe('containerToHotUpgrade', () => {
  const both = (statuses: Record<string, { ready: boolean }>) => {
    const pod = injectedPod(v1, 'a', { statuses });
    pod.spec.containers.find((c) => c.name === 'envoy-2')!.image = 'envoy:0';
    return pod;
  };
  it.each<[string, Pod, string]>([
    ['the container on the empty image', injectedPod(v1, 'a'), 'envoy-2'],
    ['else the one not ready', both({ 'envoy-1': { ready: false }, 'envoy-2': { ready: true } }), 'envoy-1'],
    ['else the one not working', both({}), 'envoy-2'],
  ])('%s', (_name, pod, want) => {
    expect(containerToHotUpgrade(v2, v2.spec.containers![0]!, pod).target).toBe(want);
  });
});
