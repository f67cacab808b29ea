import { describe, expect, it } from 'vitest';
import type { KubeHttp } from '../kube/http.js';
import { runLoop } from './loop.js';
import { emptyPlan, type Reconciler, type RunReport } from './types.js';

describe('runLoop', () => {
  it('stopped while its first resync runs, it still returns (the abort event has fired already)', async () => {
    const stop = new AbortController();
    const reconciler = { apiVersion: 'v1', kind: 'Thing' } as unknown as Reconciler;
    const report: RunReport = { reconciler: 'Thing', acted: true, dryRun: false, plan: emptyPlan(), applied: 0, conflicts: 0, failed: [], apiCalls: 0, durationMs: 0 };
    const run = async () => {
      stop.abort();
      return report;
    };
    const loop = runLoop({ kube: {} as KubeHttp, reconcilers: [reconciler], run, resyncEveryMs: 3_600_000, watch: false, signal: stop.signal });
    // Hung, it fails by the test's timeout.
    await loop;
    expect(stop.signal.aborted).toBe(true);
  });

  it('one kind\'s run never holds up another kind\'s: each reconciler has its own queue', async () => {
    const stop = new AbortController();
    const slow = { apiVersion: 'v1', kind: 'Slow' } as unknown as Reconciler;
    const quick = { apiVersion: 'v1', kind: 'Quick' } as unknown as Reconciler;
    const ran: string[] = [];
    const run = async (r: Reconciler) => {
      ran.push(r.kind);
      // Slow's full resync lasts until the loop stops; Quick's run stops the loop.
      if (r.kind === 'Slow') await new Promise((resolve) => stop.signal.addEventListener('abort', resolve));
      else stop.abort();
      return { reconciler: r.kind, acted: true, dryRun: false, plan: emptyPlan(), applied: 0, conflicts: 0, failed: [], apiCalls: 0, durationMs: 0 } as RunReport;
    };
    await runLoop({ kube: {} as KubeHttp, reconcilers: [slow, quick], run, resyncEveryMs: 3_600_000, watch: false, signal: stop.signal });
    expect(ran).toEqual(['Slow', 'Quick']);
  });
});
