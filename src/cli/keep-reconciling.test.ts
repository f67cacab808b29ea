// The long-running mode's pushes: on their own timer, whatever the reconcilers' queue holds.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { KubeHttp } from '../kube/http.js';
import { keepReconciling } from './reconcile.js';
import { emptyPlan, type Reconciler, type RunReport } from '../reconcile/types.js';

const stuck: Reconciler = { kind: 'Stuck', apiVersion: 'x/v1', observe: async () => ({}), decide: () => emptyPlan() };
const report: RunReport = { reconciler: 'Stuck', acted: true, dryRun: false, plan: emptyPlan(), applied: 0, conflicts: 0, failed: [], apiCalls: 0, durationMs: 0 };

describe('keepReconciling', () => {
  afterEach(() => vi.useRealTimers());

  it('pushes at once and every period while a run never ends, never two at once, and a failed push does not stop the next', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    // The first run holds the queue until the loop stops: every resync and trigger waits behind it.
    const run = () => new Promise<RunReport>((resolve) => stop.signal.addEventListener('abort', () => resolve(report)));
    const pushes: number[] = [];
    let running = 0;
    let most = 0;
    const logs: string[] = [];
    const push = async () => {
      pushes.push(Date.now());
      most = Math.max(most, ++running);
      try {
        // The second push takes longer than the period; the third fails.
        if (pushes.length === 2) await new Promise((r) => setTimeout(r, 2_500));
        if (pushes.length === 3) throw new Error('edge down');
      } finally {
        running -= 1;
      }
    };
    const start = Date.now();
    const done = keepReconciling({ kube: {} as KubeHttp, reconcilers: [stuck], run, resyncEveryMs: 1_000, watch: false, signal: stop.signal, log: (m) => logs.push(m) }, { push });
    await vi.advanceTimersByTimeAsync(5_500);
    stop.abort();
    await done;
    expect(pushes.map((t) => t - start)).toEqual([0, 1_000, 3_500, 4_500, 5_500]);
    expect(most).toBe(1);
    expect(logs).toEqual(['push: Error: edge down']);
  });

  it('pushes again at once when the edge says it lost what it was pushed, not at the end of the period', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const run = () => new Promise<RunReport>((resolve) => stop.signal.addEventListener('abort', () => resolve(report)));
    const pushes: number[] = [];
    let restartedAt = Infinity;
    let pushedSince = false;
    const push = async () => {
      pushes.push(Date.now());
      if (Date.now() >= restartedAt) pushedSince = true;
    };
    // The edge restarts at 5 s (its state lost); an unreachable edge (throws) is not counted as lost.
    const lost = async () => {
      if (Date.now() < 3_000 && Date.now() >= 2_000) throw new Error('unreachable');
      return Date.now() >= restartedAt && !pushedSince;
    };
    const start = Date.now();
    restartedAt = start + 5_000;
    const done = keepReconciling({ kube: {} as KubeHttp, reconcilers: [stuck], run, resyncEveryMs: 30_000, watch: false, signal: stop.signal }, { push, lost });
    await vi.advanceTimersByTimeAsync(40_000);
    stop.abort();
    await done;
    // At once, at the first check after the restart (every 2 s), then the period from there.
    expect(pushes.map((t) => t - start)).toEqual([0, 6_000, 36_000]);
  });

  it('runs every reconciler in full at once when the edge lost its state (its ledgers with it)', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const runs: number[] = [];
    const run = async () => (runs.push(Date.now()), report);
    let restartedAt = Infinity;
    let pushedSince = false;
    const push = async () => {
      if (Date.now() >= restartedAt) pushedSince = true;
    };
    const lost = async () => Date.now() >= restartedAt && !pushedSince;
    const start = Date.now();
    restartedAt = start + 5_000;
    const done = keepReconciling({ kube: {} as KubeHttp, reconcilers: [stuck], run, resyncEveryMs: 30_000, watch: false, signal: stop.signal }, { push, lost });
    await vi.advanceTimersByTimeAsync(10_000);
    stop.abort();
    await done;
    // The first resync, then one at the first check after the restart (not at 30 s), after the
    // loop's 5 ms debounce of triggers.
    expect(runs.map((t) => t - start)).toEqual([0, 6_005]);
  });
});
