import { describe, expect, it } from 'vitest';
import { KubeletModel, SANDBOX_SIGMA, hashUniform } from './kubelet-model.js';

const N = 20_000;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.floor(q * (xs.length - 1))]!;
const light = (over: Partial<ConstructorParameters<typeof KubeletModel>[0]> = {}) => new KubeletModel({ seed: 7, app: 'light', coldEni: false, prePulled: false, ...over });

describe('the kubelet model', () => {
  it('draws uniforms evenly from its keys', () => {
    const us = Array.from({ length: N }, (_, i) => hashUniform(`k/${i}`));
    expect(us.every((u) => u >= 0 && u < 1)).toBe(true);
    expect(quantile(us, 0.5)).toBeCloseTo(0.5, 1);
    expect(quantile(us, 0.9)).toBeCloseTo(0.9, 1);
  });

  it('draws the sandbox from a lognormal with median 0.5 s and p99 about 2.5 s', () => {
    const m = light();
    const xs = Array.from({ length: N }, (_, i) => m.sample('sandbox', `pod-${i}`));
    expect(SANDBOX_SIGMA).toBeCloseTo(0.692, 3);
    expect(quantile(xs, 0.5)).toBeGreaterThan(0.47);
    expect(quantile(xs, 0.5)).toBeLessThan(0.53);
    expect(quantile(xs, 0.99)).toBeGreaterThan(2.2);
    expect(quantile(xs, 0.99)).toBeLessThan(2.8);
  });

  it('adds 0–10 s to the sandbox on a cold ENI', () => {
    const warm = light();
    const cold = light({ coldEni: true });
    const extra = Array.from({ length: N }, (_, i) => cold.sample('sandbox', `p${i}`) - warm.sample('sandbox', `p${i}`));
    expect(Math.min(...extra)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...extra)).toBeLessThanOrEqual(10);
    expect(quantile(extra, 0.5)).toBeCloseTo(5, 0);
  });

  it('is calibrated: a light pod with its image cached is Ready at p50 ≈ 4.0 s and p99 ≈ 6.8 s', () => {
    const m = light({ prePulled: true });
    const ready = Array.from({ length: N }, (_, i) => m.newPod(`node-${i}`, ['app:1'], `pod-${i}`, 0).readyAt / 1000);
    expect(quantile(ready, 0.5)).toBeGreaterThan(3.85);
    expect(quantile(ready, 0.5)).toBeLessThan(4.15);
    expect(quantile(ready, 0.99)).toBeGreaterThan(6.5);
    expect(quantile(ready, 0.99)).toBeLessThan(7.1);
  });

  it('makes a heavy pod Ready about 8 s after a light one', () => {
    const l = light({ prePulled: true });
    const h = light({ prePulled: true, app: 'heavy' });
    const gap = Array.from({ length: 2_000 }, (_, i) => (h.newPod('n', ['a'], `p${i}`, 0).readyAt - l.newPod('n', ['a'], `p${i}`, 0).readyAt) / 1000);
    expect(quantile(gap, 0.5)).toBeGreaterThan(7);
    expect(quantile(gap, 0.5)).toBeLessThan(9);
  });

  it('pulls a cold image in about 7 s, once per node, one pull at a time', () => {
    const m = light();
    const first = m.newPod('n1', ['app:2'], 'a', 0);
    const cached = m.newPod('n1', ['app:2'], 'b', 20_000);
    const other = m.newPod('n1', ['sidecar:1'], 'c', 0);
    const elsewhere = m.newPod('n2', ['sidecar:1'], 'c', 0);
    const infra = (key: string) => 1000 * (m.sample('volumes', key) + m.sample('sandbox', key) + m.sample('start', key) + m.sample('pleg', key));
    const pullA = first.runningAt - infra('a');
    expect(pullA).toBeGreaterThan(6_300);
    expect(pullA).toBeLessThan(7_700);
    expect(cached.runningAt - 20_000).toBeCloseTo(infra('b'), 6);
    // n1's one pull slot was busy with app:2: sidecar:1 waits for it there, not on n2.
    expect(other.runningAt).toBeGreaterThan(elsewhere.runningAt + 5_000);
  });

  it('restarts in place without sandbox or volumes, and terminates with exit plus teardown', () => {
    const m = light({ prePulled: true, preStopS: 2 });
    const r = m.restart('n', ['app:1'], 'p/1', 1_000);
    const expected = 1_000 + 1000 * (2.5 + 0.3 + m.sample('pleg', 'p/1'));
    expect(r.runningAt).toBeCloseTo(expected, 6);
    expect(r.readyAt - r.runningAt).toBeCloseTo(1000 * m.sample('app', 'p/1'), 6);
    expect(m.terminate('p', 0)).toBeCloseTo(2_800, 6);
  });

  it('repeats with its seed and differs with another', () => {
    const a = light().newPod('n', ['x'], 'p', 0);
    expect(light().newPod('n', ['x'], 'p', 0)).toEqual(a);
    expect(light({ seed: 8 }).newPod('n', ['x'], 'p', 0)).not.toEqual(a);
  });

  it('prints itself with its sources', () => {
    const text = light({ coldEni: true }).describe();
    for (const source of ['kwok', 'containerd#6111', 'cilium#48392', 'kubernetes#42000', 'kubernetes#86217', 'serializeImagePulls']) expect(text).toContain(source);
  });
});
