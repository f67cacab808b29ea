import { describe, expect, it } from 'vitest';
import { decideLease, HeldLeases, leaseExpiry, leaseSpecAfter, microTime, type Lease, type LeaseSpec } from './lease.js';

const NOW = new Date('2026-11-22T14:00:00.000Z');
const ago = (s: number) => microTime(new Date(NOW.getTime() - s * 1000));

function lease(spec: LeaseSpec): Lease {
  return { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'kruise-serverless-x', namespace: 'kruise-system' }, spec };
}

describe('decideLease', () => {
  it.each([
    ['no lease yet', undefined, 'create'],
    ['ours, fresh', lease({ holderIdentity: 'me', renewTime: ago(1), leaseDurationSeconds: 60 }), 'renew'],
    ['ours, expired', lease({ holderIdentity: 'me', renewTime: ago(600), leaseDurationSeconds: 60 }), 'renew'],
    ["another's, live", lease({ holderIdentity: 'other', renewTime: ago(10), leaseDurationSeconds: 60 }), 'wait'],
    ["another's, expired", lease({ holderIdentity: 'other', renewTime: ago(61), leaseDurationSeconds: 60 }), 'acquire'],
    ["another's, expires exactly now", lease({ holderIdentity: 'other', renewTime: ago(60), leaseDurationSeconds: 60 }), 'acquire'],
    ["another's 2 s lease, renewed 3 s ago", lease({ holderIdentity: 'other', renewTime: ago(3), leaseDurationSeconds: 2 }), 'acquire'],
    ["another's, no duration: ours applies", lease({ holderIdentity: 'other', renewTime: ago(30) }), 'wait'],
    ["another's, never renewed", lease({ holderIdentity: 'other' }), 'acquire'],
    ['released (empty holder)', lease({ holderIdentity: '', renewTime: ago(1), leaseDurationSeconds: 60 }), 'acquire'],
    ['released (no holder)', lease({}), 'acquire'],
  ] as const)('%s ⇒ %s', (_name, l, want) => {
    expect(decideLease(l, 'me', NOW, 60).action).toBe(want);
  });

  it('waits until the holder’s claim runs out', () => {
    const d = decideLease(lease({ holderIdentity: 'other', renewTime: ago(10), leaseDurationSeconds: 60 }), 'me', NOW, 15);
    expect(d).toEqual({ action: 'wait', until: new Date(NOW.getTime() + 50_000) });
  });

  it('claims for our duration when it takes the lease', () => {
    expect(decideLease(undefined, 'me', NOW, 15).until).toEqual(new Date(NOW.getTime() + 15_000));
  });
});

describe('leaseSpecAfter', () => {
  const t = '2026-11-22T14:00:00.000000Z';
  it.each([
    ['create starts at 0 transitions', 'create', undefined,
      { holderIdentity: 'me', leaseDurationSeconds: 30, acquireTime: t, renewTime: t, leaseTransitions: 0 }],
    ['takeover counts a transition', 'acquire', { holderIdentity: 'old', acquireTime: ago(99), renewTime: ago(90), leaseDurationSeconds: 2, leaseTransitions: 4 },
      { holderIdentity: 'me', leaseDurationSeconds: 30, acquireTime: t, renewTime: t, leaseTransitions: 5 }],
    ['renew keeps acquireTime and transitions', 'renew', { holderIdentity: 'me', acquireTime: ago(20), renewTime: ago(10), leaseDurationSeconds: 30, leaseTransitions: 2 },
      { holderIdentity: 'me', leaseDurationSeconds: 30, acquireTime: ago(20), renewTime: t, leaseTransitions: 2 }],
  ] as const)('%s', (_name, action, current, want) => {
    expect(leaseSpecAfter({ action }, current, 'me', NOW, 30)).toEqual(want);
  });
});

describe('MicroTime', () => {
  it.each([
    [new Date('2026-11-22T14:00:00.000Z'), '2026-11-22T14:00:00.000000Z'],
    [new Date('2026-01-02T03:04:05.678Z'), '2026-01-02T03:04:05.678000Z'],
  ])('%s ⇒ %s', (d, want) => {
    expect(microTime(d)).toBe(want);
  });

  it('reads back what it writes', () => {
    expect(leaseExpiry(lease({ renewTime: microTime(NOW), leaseDurationSeconds: 5 }), 60)).toEqual(new Date(NOW.getTime() + 5000));
  });
});

describe('HeldLeases', () => {
  const held = (rv: string): Lease => ({ ...lease({ holderIdentity: 'me', leaseDurationSeconds: 60 }), metadata: { name: 'kruise-serverless-x', namespace: 'kruise-system', resourceVersion: rv } });

  it('shares one renewal among concurrent runs', async () => {
    const leases = new HeldLeases();
    let sent = 0;
    let answer!: (l: Lease) => void;
    const renew = () => {
      sent += 1;
      return new Promise<Lease>((r) => (answer = r));
    };
    const a = leases.once('kruise-system', 'kruise-serverless-x', 'renew', renew);
    const b = leases.once('kruise-system', 'kruise-serverless-x', 'renew', renew);
    answer(held('2'));
    expect(await a).toBe(await b);
    expect(sent).toBe(1);
    // Done, the next one is sent again.
    const c = leases.once('kruise-system', 'kruise-serverless-x', 'renew', renew);
    answer(held('3'));
    expect((await c).metadata.resourceVersion).toBe('3');
    expect(sent).toBe(2);
  });

  it('keeps the newest renewal, and forgets only what is not newer', () => {
    const leases = new HeldLeases();
    leases.keep(held('5'), 2000);
    leases.keep(held('4'), 1000);
    expect(leases.get('kruise-system', 'kruise-serverless-x')?.lease.metadata.resourceVersion).toBe('5');
    leases.forget('kruise-system', 'kruise-serverless-x', 1000);
    expect(leases.size).toBe(1);
    leases.forget('kruise-system', 'kruise-serverless-x', 2000);
    expect(leases.size).toBe(0);
  });
});
