// A RunReport for tests: an acting, non-dry run of the CloneSet reconciler, with the fields given.
import { emptyPlan, type RunReport } from './types.js';

export function runReport(over: Partial<RunReport> & { requeueAfterMs?: number } = {}): RunReport {
  const { requeueAfterMs, ...rest } = over;
  return {
    reconciler: 'CloneSet', acted: true, dryRun: false, applied: 0, conflicts: 0, failed: [], apiCalls: 1, durationMs: 1,
    plan: { ...emptyPlan(), ...(requeueAfterMs !== undefined ? { requeueAfterMs } : {}) },
    ...rest,
  };
}
