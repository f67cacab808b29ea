import { describe, expect, it } from 'vitest';
import { MemoryLedgers } from '../edge-state/ledger.js';
import type { PubBudgetState } from './budget-state.js';
import type { PubCheckResult } from './check.js';
import { pubLedgerKind, pubLedgerRef } from './ledger.js';
import type { PubResyncResult } from './resync.js';
import { facts, resyncReq } from './test-builders.js';
import { exhaustedMessage } from './types.js';

const ref = pubLedgerRef('default', 'web');
const evict = (i: number) => ({ pub: 'web', pod: `pod-${i}`, operation: 'EVICT' as const, dryRun: false });

function ledgerOf200(clock: { t: number }) {
  const ledgers = new MemoryLedgers([pubLedgerKind], () => clock.t);
  // 200 available pods, 198 must stay: unavailableAllowed 2.
  const pods = facts(200);
  return { ledgers, resync: () => ledgers.apply<PubResyncResult>(ref, 'resync', resyncReq(pods, 198)) };
}

function tally(results: PubCheckResult[]) {
  const allowed = results.filter((r) => r.allowed);
  const denied = results.filter((r): r is Extract<PubCheckResult, { allowed: false }> => !r.allowed);
  return { allowed: allowed.length, denied: denied.length, messages: new Set(denied.map((d) => d.message)) };
}

describe('pub ledger through MemoryLedgers', () => {
  it('200 concurrent checks against unavailableAllowed 2: exactly 2 allowed', async () => {
    const clock = { t: 1_000 };
    const { ledgers, resync } = ledgerOf200(clock);
    await resync();
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) => ledgers.apply<PubCheckResult>(ref, 'check', evict(i))),
    );
    const t = tally(results);
    expect(t).toEqual({ allowed: 2, denied: 198, messages: new Set([exhaustedMessage('web')]) });
  });

  it('a resync in the middle does not re-grant what was spent since the LIST', async () => {
    const clock = { t: 1_000 };
    const { ledgers, resync } = ledgerOf200(clock);
    await resync();
    const checks = Array.from({ length: 200 }, (_, i) => {
      const p = ledgers.apply<PubCheckResult>(ref, 'check', evict(i));
      // The controller's LIST was taken before any of these, so it still shows every pod available.
      return i === 100 ? Promise.all([p, resync()]).then(([r]) => r) : p;
    });
    const t = tally(await Promise.all(checks));
    expect(t).toEqual({ allowed: 2, denied: 198, messages: new Set([exhaustedMessage('web')]) });
    const state = await ledgers.apply<PubBudgetState>(ref, 'read', undefined);
    expect(state.unavailableAllowed).toBe(0);
    expect(Object.keys(state.disruptedPods)).toHaveLength(2);
  });

  it('pods that went away free the budget at the next resync; disruptions that never happened expire', async () => {
    const clock = { t: 1_000 };
    const ledgers = new MemoryLedgers([pubLedgerKind], () => clock.t);
    await ledgers.apply(ref, 'resync', resyncReq(facts(10), 8));
    for (const pod of ['pod-0', 'pod-1', 'pod-2']) await ledgers.apply(ref, 'check', { pub: 'web', pod, operation: 'DELETE', dryRun: false });
    // pod-0 was deleted and replaced by a ready pod; pod-1 is still there.
    const { 'pod-0': _gone, ...rest } = facts(10);
    const after = { ...rest, 'new-0': 'available' as const };
    clock.t = 5_000;
    let r = await ledgers.apply<PubResyncResult>(ref, 'resync', resyncReq(after, 8));
    expect(r.state.disruptedPods).toEqual({ 'pod-1': 1_000 });
    expect(r.state.unavailableAllowed).toBe(1);
    clock.t = 30_000;
    r = await ledgers.apply<PubResyncResult>(ref, 'resync', resyncReq(after, 8));
    expect(r.expired.disrupted).toEqual(['pod-1']);
    expect(r.state.unavailableAllowed).toBe(2);
  });

  it('read of a never-synced ledger is null', async () => {
    const ledgers = new MemoryLedgers([pubLedgerKind]);
    expect(await ledgers.apply(ref, 'read', undefined)).toBeNull();
  });
});
