import { describe, expect, it } from 'vitest';
import { COUNTER_KIND, counterLedger, type CounterBudget } from '../../test/fixtures/counter-ledger.js';
import { ledgerPortSuite } from '../../test/fixtures/ledger-suite.js';
import { MemoryLedgers, UnknownLedgerOpError, ledgerKey, ledgerReducer, type LedgerRef } from './ledger.js';

const budget: LedgerRef = { kind: COUNTER_KIND, namespace: 'prod', name: 'web' };

describe('MemoryLedgers', () => {
  ledgerPortSuite(() => new MemoryLedgers([counterLedger]), { concurrent: 500, prefix: 'memory' });

  it('passes its clock to the reducer', async () => {
    const l = new MemoryLedgers([counterLedger], () => 1234);
    expect(await l.apply<CounterBudget>(budget, 'set', { limit: 1 })).toEqual({ limit: 1, holders: [], changedAt: 1234 });
  });

  it('answers copies: changing a result changes no ledger', async () => {
    const l = new MemoryLedgers([counterLedger]);
    await l.apply(budget, 'set', { limit: 1 });
    (await l.apply<CounterBudget>(budget, 'read', undefined)).holders.push('intruder');
    expect((await l.apply<CounterBudget>(budget, 'read', undefined)).holders).toEqual([]);
  });
});

describe('ledgerReducer', () => {
  it.each([
    ['a known op', COUNTER_KIND, 'take', true],
    ['an unknown op', COUNTER_KIND, 'steal', false],
    ['an unknown kind', 'Other', 'take', false],
    ['an inherited property is no op', COUNTER_KIND, 'toString', false],
  ])('%s', (_n, kind, op, found) => {
    const find = () => ledgerReducer([counterLedger], kind, op);
    if (found) expect(find()).toBe(counterLedger.ops[op]);
    else expect(find).toThrow(UnknownLedgerOpError);
  });
});

describe('ledgerKey', () => {
  it.each([
    [{ kind: 'PodUnavailableBudget', namespace: 'prod', name: 'web' }, 'PodUnavailableBudget/prod/web'],
    [{ kind: 'Quota', namespace: '', name: 'global' }, 'Quota//global'],
  ])('%j → %s', (ref, key) => {
    expect(ledgerKey(ref)).toBe(key);
  });
});
