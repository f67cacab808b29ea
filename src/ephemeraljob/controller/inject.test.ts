import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { injectWrite, legacyPatch, podPatch, podsToInject, shapeFor } from './inject.js';

const job = (spec: Record<string, unknown> = {}) => ({
  metadata: { uid: 'u1', name: 'ej', namespace: 'ns' },
  spec: { selector: {}, template: { ephemeralContainers: [{ name: 'debug', image: 'busybox', env: [{ name: 'A', value: 'b' }] }] }, ...spec },
});
const mine = { name: 'debug', image: 'busybox', env: [{ name: 'KRUISE_EJOB_ID', value: 'u1' }] };
const pod = (name: string, opts: { by?: string; state?: 'running' | 'done' } = {}): V1Pod => ({
  metadata: { name, namespace: 'ns', resourceVersion: '7' },
  spec: { containers: [], ...(opts.by ? { ephemeralContainers: [{ ...mine, env: [{ name: 'KRUISE_EJOB_ID', value: opts.by }] }] } : {}) },
  ...(opts.state ? { status: { ephemeralContainerStatuses: [{ name: 'debug', image: 'busybox', imageID: '', ready: false, restartCount: 0, state: opts.state === 'running' ? { running: {} } : { terminated: { exitCode: 0, finishedAt: new Date() } } }] } } : {}),
});

describe('EphemeralJob injection plan', () => {
  it('injects parallelism less the pods whose containers have not ended', () => {
    const fresh = [pod('c'), pod('d'), pod('e')];
    expect(podsToInject(job({ parallelism: 2 }), fresh).map((p) => p.metadata?.name)).toEqual(['c', 'd']);
    expect(podsToInject(job(), fresh).map((p) => p.metadata?.name)).toEqual(['c']);
    expect(podsToInject(job({ parallelism: 2 }), [pod('a', { by: 'u1', state: 'running' }), ...fresh]).map((p) => p.metadata?.name)).toEqual(['c']);
    // Injected, not reported yet: it holds its slot, so a run right after an injection adds none.
    expect(podsToInject(job(), [pod('a', { by: 'u1' }), ...fresh])).toEqual([]);
    expect(podsToInject(job(), [pod('a', { by: 'u1', state: 'done' }), ...fresh]).map((p) => p.metadata?.name)).toEqual(['c']);
    // Not OpenKruise's (it caps parallelism by the pods left before taking the running ones off, and injects none here).
    expect(podsToInject(job({ parallelism: 2 }), [pod('a', { by: 'u1', state: 'running' }), pod('c')]).map((p) => p.metadata?.name)).toEqual(['c']);
    expect(podsToInject(job({ parallelism: 2 }), [pod('a', { by: 'u1', state: 'running' }), pod('b', { by: 'u1' }), pod('c')])).toEqual([]);
  });
  it('marks each container with KRUISE_EJOB_ID for both API shapes', () => {
    const env = [{ name: 'A', value: 'b' }, { name: 'KRUISE_EJOB_ID', value: 'u1' }];
    expect(podPatch(job())).toEqual({ spec: { ephemeralContainers: [{ name: 'debug', image: 'busybox', env }] } });
    const other = { name: 'x', image: 'y' };
    const withOther: V1Pod = { metadata: { name: 'p', resourceVersion: '9' }, spec: { containers: [], ephemeralContainers: [other] } };
    expect(legacyPatch(job(), withOther)).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '9' },
      { op: 'add', path: '/ephemeralContainers', value: [other, { name: 'debug', image: 'busybox', env }] },
    ]);
  });
  it('picks the shape by server version: the EphemeralContainers kind before 1.22, the Pod after', () => {
    expect(shapeFor({ major: '1', minor: '20' })).toBe('legacy');
    expect(shapeFor({ major: '1', minor: '21+' })).toBe('legacy');
    expect(shapeFor({ major: '1', minor: '22' })).toBe('pod');
    expect(shapeFor({ major: '1', minor: '30' })).toBe('pod');
    expect(shapeFor({})).toBe('pod');
    expect(shapeFor(undefined)).toBe('pod');
  });
  it('writes to pods/<name>/ephemeralcontainers: a strategic patch of the Pod, or a JSON patch of the whole list on the pod’s resourceVersion', () => {
    const target = { apiVersion: 'v1', kind: 'Pod', name: 'c', namespace: 'ns' };
    expect(injectWrite(job(), pod('c'), 'pod')).toMatchObject({ op: 'patch', target, subresource: 'ephemeralcontainers', patchType: 'strategic', patch: { spec: { ephemeralContainers: [{ name: 'debug' }] } } });
    expect(injectWrite(job(), pod('c'), 'legacy')).toMatchObject({ op: 'patch', target, subresource: 'ephemeralcontainers', patchType: 'json', patch: [{ op: 'test', value: '7' }, { op: 'add', value: [{ name: 'debug' }] }] });
  });
});
