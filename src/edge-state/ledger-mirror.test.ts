import { describe, expect, it } from 'vitest';
import { withLedgerMirror } from './ledger-mirror.js';
import type { ClusterState } from './contracts.js';
import { pubLedgerKind, pubLedgerRef } from '../pub/ledger.js';
import { workloadSpreadLedgerKind } from '../workloadspread/ledger.js';

const answers: Record<string, unknown> = {
  'pub/check/spent': { allowed: true, why: 'spent', unavailableAllowed: 0 },
  'pub/check/unprotected': { allowed: true, why: 'pod-unprotected' },
  'pub/check/refused': { allowed: false, why: 'exhausted', message: 'no' },
  'workloadspread/create/recorded': { subset: 'a', recorded: true },
  'workloadspread/create/held': { subset: 'a', recorded: false },
};
const state: ClusterState = {
  collection: async () => undefined,
  ledgers: { apply: async <R>(ref: { kind: string }, op: string, req: unknown) => answers[`${ref.kind}/${op}/${String(req)}`] as R },
};
const kinds = [pubLedgerKind, workloadSpreadLedgerKind];

describe('withLedgerMirror', () => {
  it('names the object of each ledger whose status an operation changed, once', async () => {
    const m = withLedgerMirror(state, kinds, 'c1');
    await m.state.ledgers!.apply(pubLedgerRef('ns', 'budget'), 'check', 'spent');
    await m.state.ledgers!.apply(pubLedgerRef('ns', 'budget'), 'check', 'spent');
    await m.state.ledgers!.apply({ kind: 'workloadspread', namespace: 'ns', name: 'spread' }, 'create', 'recorded');
    expect(m.changed()).toEqual([
      { clusterId: 'c1', apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', namespace: 'ns', name: 'budget', reason: 'status' },
      { clusterId: 'c1', apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread', namespace: 'ns', name: 'spread', reason: 'status' },
    ]);
  });

  it('names nothing for answers that leave status as it was: unprotected, refused, already held', async () => {
    const m = withLedgerMirror(state, kinds, 'c1');
    for (const req of ['unprotected', 'refused']) await m.state.ledgers!.apply(pubLedgerRef('ns', 'budget'), 'check', req);
    await m.state.ledgers!.apply({ kind: 'workloadspread', namespace: 'ns', name: 'spread' }, 'create', 'held');
    expect(m.changed()).toEqual([]);
  });

  it('passes answers through unchanged, and leaves a state without ledgers as it is', async () => {
    const m = withLedgerMirror(state, kinds, 'c1');
    expect(await m.state.ledgers!.apply(pubLedgerRef('ns', 'budget'), 'check', 'refused')).toEqual(answers['pub/check/refused']);
    const bare: ClusterState = { collection: async () => undefined };
    expect(withLedgerMirror(bare, kinds, 'c1').state).toBe(bare);
  });
});
