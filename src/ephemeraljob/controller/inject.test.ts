import { describe, expect, it } from 'vitest';
import type { V1Pod } from '@kubernetes/client-node';
import { legacyJsonPatch, podPatch, podsToInject } from './inject.js';

const job = (spec: Record<string, unknown> = {}, running = 0) => ({
  metadata: { uid: 'u1' },
  spec: { selector: {}, template: { ephemeralContainers: [{ name: 'debug', image: 'busybox', env: [{ name: 'A', value: 'b' }] }] }, ...spec },
  status: { running },
});
const pod = (name: string, ephemeralUid?: string): V1Pod => ({
  metadata: { name },
  spec: { containers: [], ...(ephemeralUid ? { ephemeralContainers: [{ name: 'debug', env: [{ name: 'KRUISE_EJOB_ID', value: ephemeralUid }] }] } : {}) },
});

describe('EphemeralJob injection plan', () => {
  it('skips pods that already have the job’s containers, and injects parallelism minus running at a time', () => {
    const pods = [pod('a', 'u1'), pod('b', 'other-job'), pod('c'), pod('d')];
    expect(podsToInject(job({ parallelism: 2 }), pods).map((p) => p.metadata?.name)).toEqual(['b', 'c']);
    expect(podsToInject(job({ parallelism: 2 }, 1), pods).map((p) => p.metadata?.name)).toEqual(['b']);
    expect(podsToInject(job(), pods).map((p) => p.metadata?.name)).toEqual(['b']);
    expect(podsToInject(job({ parallelism: 3 }, 5), pods)).toEqual([]);
  });
  it('marks each container with KRUISE_EJOB_ID for both API forms', () => {
    const env = [{ name: 'A', value: 'b' }, { name: 'KRUISE_EJOB_ID', value: 'u1' }];
    expect(podPatch(job())).toEqual({ spec: { ephemeralContainers: [{ name: 'debug', image: 'busybox', env }] } });
    expect(legacyJsonPatch(job())).toEqual([{ op: 'add', path: '/ephemeralContainers/-', value: { name: 'debug', image: 'busybox', env } }]);
  });
});
