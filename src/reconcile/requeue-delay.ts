// How long until a run should happen again, whoever runs it (the Node loop's timer, an SQS
// wake-up on Lambda). Pure.
import { LEASE_RETRY_MS } from './lease.js';
import type { RunReport } from './types.js';

/**
 * A run whose writes did not all land comes back no sooner than this, whatever its plan asked: a
 * plan may ask to run again at once to act on what its own writes freed (a pod Ready again), and
 * that must not spin on a write that keeps failing.
 */
export const FAILED_WRITES_REQUEUE_MS = 1_000;

export function requeueDelayMs(report: RunReport): number | undefined {
  if (!report.acted && !report.dryRun) return LEASE_RETRY_MS;
  const asked = report.plan.requeueAfterMs;
  if (asked === undefined) return undefined;
  return report.failed.length > 0 || report.conflicts > 0 ? Math.max(asked, FAILED_WRITES_REQUEUE_MS) : asked;
}
