import { describe, expect, it } from 'vitest';
import type { Pod } from '../../workload/pods.js';
import { decideLaunchPriority } from './decide.js';
import type { Barrier } from './barrier.js';

const env = (key: string) => [{ name: 'KRUISE_CONTAINER_BARRIER', valueFrom: { configMapKeyRef: { name: 'p-barrier', key } } }];
const pod = (ready: string[] = [], extra: Partial<Pod['metadata']> = {}, containersReady = false): Pod => ({
  metadata: { name: 'p', namespace: 'ns', uid: 'u', ...extra },
  spec: { containers: [{ name: 'a', image: 'a', env: env('p_0') }, { name: 'b', image: 'b', env: env('p_-1') }, { name: 'c', image: 'c', env: env('p_-2') }] },
  status: { containerStatuses: ['a', 'b', 'c'].map((name) => ({ name, ready: ready.includes(name) })) as NonNullable<Pod['status']>['containerStatuses'], ...(containersReady ? { conditions: [{ type: 'ContainersReady', status: 'True' }] } : {}) },
});
const NOW = new Date('2026-11-29T02:00:00Z');
const plan = (p: Pod, barrier?: Barrier) => decideLaunchPriority({ pods: [{ pod: p, ...(barrier ? { barrier: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p-barrier' }, ...barrier } } : {}) }] }, NOW);
const run = (p: Pod, barrier?: Barrier) => plan(p, barrier).writes;
const createdAgo = (ms: number) => ({ creationTimestamp: new Date(NOW.getTime() - ms).toISOString() });

describe('decideLaunchPriority', () => {
  it('no barrier: creates it, owned by the pod, with the highest priority released', () => {
    expect(run(pod())).toEqual([expect.objectContaining({ op: 'create', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'p-barrier', namespace: 'ns', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u' }] }, data: { p_0: 'true' } } })]);
  });

  it('releases the next priority once the containers above it are ready, and marks the pod completed with the last', () => {
    expect(run(pod(['a']), { data: { p_0: 'true' } })).toEqual([expect.objectContaining({ op: 'patch', patch: { data: { 'p_-1': 'true' } } })]);
    expect(run(pod(['a', 'b']), { data: { p_0: 'true', 'p_-1': 'true' } })).toEqual([
      expect.objectContaining({ op: 'patch', target: expect.objectContaining({ kind: 'ConfigMap' }), patch: { data: { 'p_-2': 'true' } } }),
      expect.objectContaining({ op: 'patch', target: expect.objectContaining({ kind: 'Pod', name: 'p' }), patch: { metadata: { annotations: { 'apps.kruise.io/container-launch-priority-completed': 'true' } } } }),
    ]);
  });

  it('waits while the highest unready priority is released', () => {
    expect(run(pod([]), { data: { p_0: 'true' } })).toEqual([]);
  });

  it('nothing for a completed pod or one whose containers are all ready', () => {
    expect(run(pod([], { annotations: { 'apps.kruise.io/container-launch-priority-completed': 'true' } }))).toEqual([]);
    expect(run(pod(['a', 'b', 'c'], {}, true))).toEqual([]);
  });

  it('asks for a wake-up while a pod created under a minute ago still waits on its containers (nothing sends their readiness to Lambda)', () => {
    expect(plan(pod([], createdAgo(5_000))).requeueAfterMs).toBe(1_000);
    expect(plan(pod([], createdAgo(5_000)), { data: { p_0: 'true' } }).requeueAfterMs).toBe(1_000);
    expect(plan(pod(['a'], createdAgo(5_000)), { data: { p_0: 'true' } }).requeueAfterMs).toBe(1_000);
  });

  it('no wake-up once the pod is completed, nor for a pod older than a minute (left to the scheduled full run), nor without a creation time', () => {
    expect(plan(pod(['a', 'b'], createdAgo(5_000)), { data: { p_0: 'true', 'p_-1': 'true' } }).requeueAfterMs).toBeUndefined();
    expect(plan(pod([], { ...createdAgo(5_000), annotations: { 'apps.kruise.io/container-launch-priority-completed': 'true' } })).requeueAfterMs).toBeUndefined();
    expect(plan(pod(['a', 'b', 'c'], createdAgo(5_000), true)).requeueAfterMs).toBeUndefined();
    expect(plan(pod([], createdAgo(60_000)), { data: { p_0: 'true' } }).requeueAfterMs).toBeUndefined();
    expect(plan(pod([]), { data: { p_0: 'true' } }).requeueAfterMs).toBeUndefined();
  });
});
