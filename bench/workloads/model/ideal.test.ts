import { describe, expect, it } from 'vitest';
import { KubeletModel } from '../../../test/cluster/kubelet-model.js';
import { idealDeployment, idealInPlace, idealOrderedReady, idealRecreateWindow, slidingWindow } from './ideal.js';
import { percentile, readyToNextWrite } from './ready-to-write.js';

const model = (prePulled = true) => new KubeletModel({ seed: 3, app: 'light', coldEni: false, prePulled });
const pods = (n: number) => Array.from({ length: n }, (_, i) => ({ key: `ns/p-${i}`, node: `n${i % Math.ceil(n / 2)}` }));

describe('the kubelet-bound ideal', () => {
  it('starts an item when one of the window ends', () => {
    expect(slidingWindow(4, 2, (_i, at) => at + 10)).toBe(20);
    expect(slidingWindow(3, 2, (i, at) => at + [10, 1, 1][i]!)).toBe(10);
    expect(slidingWindow(5, 1, (_i, at) => at + 3)).toBe(15);
  });

  it('replays the fake kubelet: an in-place rollout of one window is its slowest restart', () => {
    const p = pods(4);
    const slowest = Math.max(...p.map((x) => model().restart(x.node, ['a:2'], `${x.key}/main/1`, 0).readyAt));
    expect(idealInPlace(model(), p, 'a:2', 4)).toBe(slowest);
    expect(idealInPlace(model(), p, 'a:2', 1)).toBeGreaterThan(slowest);
  });

  it('a StatefulSet rolls one pod at a time: slower than a DaemonSet-style window over the same pods', () => {
    const p = pods(6);
    expect(idealOrderedReady(model(), p, 'a:2')).toBeGreaterThan(idealRecreateWindow(model(), p, 'a:2', 3));
    expect(idealOrderedReady(model(), p, 'a:2')).toBeGreaterThan(6 * 3_000);
  });

  it('a Deployment with surge finishes before one without, and cold images cost pulls', () => {
    const p = pods(20);
    expect(idealDeployment(model(), p, 'a:2', 5, 5)).toBeLessThan(idealDeployment(model(), p, 'a:2', 0, 5));
    expect(idealDeployment(model(false), p, 'a:2', 0, 5)).toBeGreaterThan(idealDeployment(model(), p, 'a:2', 0, 5) + 5_000);
    expect(() => idealDeployment(model(), p, 'a:2', 0, 0)).toThrow(/stuck/);
  });
});

describe('Ready → next write', () => {
  it('pairs the k-th Ready with the first step of the (window + k)-th pod', () => {
    const marks = { a: { first: 0, Ready: 100 }, b: { first: 0, Ready: 300 }, c: { first: 150, Ready: 400 }, d: { first: 320, Ready: 500 } };
    expect(readyToNextWrite(marks, 'first', 'Ready', 2)).toEqual([50, 20]);
    expect(percentile([5, 1, 3, 2, 4], 0.5)).toBe(3);
    expect(percentile([], 0.5)).toBeUndefined();
  });
});
