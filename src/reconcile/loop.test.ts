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
});
