import { describe, expect, it } from 'vitest';
import { runReport } from './run-report-fixture.js';
import { LEASE_RETRY_MS } from './lease.js';
import { FAILED_WRITES_REQUEUE_MS, requeueDelayMs } from './requeue-delay.js';

const report = runReport;

describe('requeueDelayMs', () => {
  it.each([
    ['the plan asks for a wake-up', report({ requeueAfterMs: 10_000 }), 10_000],
    ['the plan asks for nothing', report(), undefined],
    ['another invocation held the lease: retry soon', report({ acted: false }), LEASE_RETRY_MS],
    ['lease held, even if the (empty) plan asked nothing else', report({ acted: false, requeueAfterMs: 60_000 }), LEASE_RETRY_MS],
    ['a dry run only reports', report({ acted: false, dryRun: true }), undefined],
    ['at once, after writes that all landed', report({ requeueAfterMs: 0 }), 0],
    ['not at once after a failed write (no spinning on it)', report({ requeueAfterMs: 0, failed: [{ write: 'w', error: 'e' }] }), FAILED_WRITES_REQUEUE_MS],
    ['nor after a conflict', report({ requeueAfterMs: 0, conflicts: 1 }), FAILED_WRITES_REQUEUE_MS],
    ['a later wake-up stands', report({ requeueAfterMs: 5_000, conflicts: 1 }), 5_000],
  ])('%s', (_name, r, want) => {
    expect(requeueDelayMs(r)).toBe(want);
  });
});

