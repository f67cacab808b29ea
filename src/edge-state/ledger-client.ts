// The edge's ledgers, reached through the sync API (ledger-http.ts): how reconcilers keep a budget
// in step with what they observe, and how the Lambda webhook, which has no shared memory between
// concurrent instances, uses the edge's authority. Web fetch only.
import { ledgerKey, type LedgerRef, type Ledgers } from './ledger.js';
import { LedgerOpFailedError, ledgerBody, ledgerPath, readLedgerAnswer } from './ledger-http.js';
import { edgeDeadline, type EdgeTarget } from './push.js';

/**
 * Runs one operation on the edge's ledger. Never retried here: an operation such as "take" is not
 * idempotent, and a lost answer may still have been applied; callers decide (a resync is safe).
 */
export async function applyLedger<R = unknown>(edge: EdgeTarget, ref: LedgerRef, op: string, req?: unknown): Promise<R> {
  const body = ledgerBody(req);
  // Bounded like every edge call (EdgeTarget.timeoutMs): a run waiting on a ledger holds the loop.
  const deadline = edgeDeadline(edge);
  try {
    const res = await (edge.fetch ?? fetch)(`${edge.baseUrl}/clusters/${edge.clusterId}${ledgerPath(ref, op)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${edge.syncToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
      signal: deadline.signal,
    });
    return await readLedgerAnswer<R>(res, ref, op);
  } catch (e) {
    const expired = deadline.expired(e);
    if (expired) throw new LedgerOpFailedError(0, `ledger ${ledgerKey(ref)}: operation "${op}": ${expired.message}`);
    throw e;
  }
}

/** The edge's ledgers for `edge.clusterId`, as a Ledgers port. */
export function remoteLedgers(edge: EdgeTarget): Ledgers {
  return { apply: <R>(ref: LedgerRef, op: string, req: unknown) => applyLedger<R>(edge, ref, op, req) };
}
