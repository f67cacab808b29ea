import { describe, expect, it } from 'vitest';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { ChangeLatency } from './probes.js';

const obj = (generation: number, observedGeneration?: number): KubeObject => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet',
  metadata: { uid: 'u1', namespace: 'ns', name: 'web', generation },
  ...(observedGeneration === undefined ? {} : { status: { observedGeneration } }),
});
const probe = () => new ChangeLatency({} as KubeHttp, 'soak=true');

describe('ChangeLatency', () => {
  it('times a change until the status observes its generation', () => {
    const p = probe();
    p.changed(obj(2, 1), 1000);
    p.seen(obj(2, 1), 1500);
    expect(p.samples).toEqual([]);
    p.seen(obj(2, 2), 1800);
    expect(p.samples).toEqual([800]);
    expect(p.slowest[0]).toEqual({ what: 'CloneSet ns/web generation 2', ms: 800 });
    expect(p.unobserved()).toBe(0);
  });

  it('does not time a change that left the generation already observed', () => {
    const p = probe();
    p.changed(obj(3, 3), 1000);
    p.seen(obj(3, 3), 60_000);
    expect(p.samples).toEqual([]);
    expect(p.unobserved()).toBe(0);
  });

  it('times a generation once, from its first change', () => {
    const p = probe();
    p.changed(obj(4, 3), 1000);
    p.changed(obj(4, 3), 1400);
    p.seen(obj(4, 4), 2000);
    expect(p.samples).toEqual([1000]);
  });
});
