import { describe, expect, it } from 'vitest';
import type { Pod } from '../../workload/pods.js';
import type { PubBudgetState } from '../budget-state.js';
import { MemoryLedgers } from '../../edge-state/ledger.js';
import type { PubCheckResult } from '../check.js';
import { pubLedgerKind, pubLedgerRef } from '../ledger.js';
import { resyncBudget } from '../resync.js';
import { pub, readyPod } from '../test-builders.js';
import type { PodUnavailableBudget } from '../types.js';
import { assessPub, scaleOfWorkload, type Scale } from './assess.js';
import { decidePubs } from './decide.js';
import { pubKey, type LedgerAnswer, type PubObserved } from './observe.js';

const NOW = new Date('2024-01-01T00:00:00Z');
const rsOf = new Map([['web-abc', { metadata: { name: 'web-abc', namespace: 'default', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', controller: true }] } }]]);
const depPod = (name: string, over: Parameters<typeof readyPod>[1] = {}) => readyPod(name, { owner: { kind: 'ReplicaSet', name: 'web-abc' }, pub: 'web', ...over });
const byRef = (spec: Partial<PodUnavailableBudget['spec']> = { maxUnavailable: 1 }) => pub('web', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, ...spec });

function observed(p: PodUnavailableBudget, pods: Pod[], scales: Record<string, Scale>, withLedger = true): PubObserved {
  const a = assessPub(p, pods, rsOf, new Map(Object.entries(scales)), NOW.getTime());
  const ledger = new Map<string, LedgerAnswer>();
  if (withLedger) ledger.set(pubKey(p), { state: resyncBudget(undefined, a.resync, NOW.getTime()).next });
  return { pubs: [p], assessments: new Map([[pubKey(p), a]]), ledger, pods, replicaSets: [...rsOf.values()], observedAt: NOW.getTime() };
}

describe('assessPub', () => {
  it.each([
    ['maxUnavailable 1 of scale 3', byRef(), 3, { desiredAvailable: 2, totalReplicas: 3 }],
    ['maxUnavailable 50% rounds up', byRef({ maxUnavailable: '50%' }), 3, { desiredAvailable: 1, totalReplicas: 3 }],
    ['minAvailable 50% rounds up', byRef({ minAvailable: '50%' }), 3, { desiredAvailable: 2, totalReplicas: 3 }],
    ['minAvailable int', byRef({ minAvailable: 2 }), 5, { desiredAvailable: 2, totalReplicas: 5 }],
  ])('%s', (_name, p, scale, want) => {
    const a = assessPub(p, [depPod('a'), depPod('b'), depPod('c')], rsOf, new Map([['default/apps/Deployment/web', scale]]), 0);
    expect(a.resync).toMatchObject(want);
  });

  it('protect-total-replicas overrides the scale', () => {
    const p = pub('web', { targetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxUnavailable: 1 }, { annotations: { 'pub.kruise.io/protect-total-replicas': '10' } });
    expect(assessPub(p, [], rsOf, new Map([['default/apps/Deployment/web', 3]]), 0).resync.desiredAvailable).toBe(9);
  });

  it('an unknown workload kind protects its observed pods and is reported (kruise#2571)', () => {
    const p = pub('roll', { targetRef: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'r' }, maxUnavailable: 1 });
    const pods = ['a', 'b', 'c'].map((n) => readyPod(n, { owner: { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', name: 'r' } }));
    const a = assessPub(p, pods, rsOf, new Map([['default/argoproj.io/Rollout/r', { error: 'the server could not find the requested resource' }]]), 0);
    expect(a.resync).toMatchObject({ totalReplicas: 3, desiredAvailable: 2 });
    expect(a.unknownWorkloads).toEqual([{ workload: 'Rollout/r', error: 'the server could not find the requested resource' }]);
  });
});

describe('decidePubs', () => {
  it('writes the status of a PUB created before any pod (kruise#1857)', () => {
    const plan = decidePubs(observed(byRef(), [], { 'default/apps/Deployment/web': 3 }), NOW);
    expect(plan.status).toHaveLength(1);
    expect(plan.status[0]!.status).toMatchObject({ observedGeneration: 1, totalReplicas: 3, desiredAvailable: 2, currentAvailable: 0, unavailableAllowed: 0 });
  });

  it('comes back in 3 s while pods are still to become available (no watch tells a Lambda), and not once all are', () => {
    const starting = decidePubs(observed(byRef(), [depPod('a'), depPod('b')], { 'default/apps/Deployment/web': 3 }), NOW);
    expect(starting.requeueAfterMs).toBe(3_000);
    const all = decidePubs(observed(byRef(), [depPod('a'), depPod('b'), depPod('c')], { 'default/apps/Deployment/web': 3 }), NOW);
    expect(all.requeueAfterMs).toBeUndefined();
  });

  it('writes nothing when the status is current', () => {
    const p = byRef();
    p.status = { observedGeneration: 1, totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1 };
    const plan = decidePubs(observed(p, [depPod('a'), depPod('b'), depPod('c')], { 'default/apps/Deployment/web': 3 }), NOW);
    expect(plan.status).toEqual([]);
  });

  it('never writes an empty map: disruptedPods and unavailablePods are left out (omitempty)', () => {
    const plan = decidePubs(observed(byRef(), [depPod('a'), depPod('b'), depPod('c')], { 'default/apps/Deployment/web': 3 }), NOW);
    expect(plan.status[0]!.status).not.toHaveProperty('disruptedPods');
    expect(plan.status[0]!.status).not.toHaveProperty('unavailablePods');
  });

  it('turns refusals into PubPreventPodDeletion Events on the pods', () => {
    const o = observed(byRef(), [depPod('a')], { 'default/apps/Deployment/web': 1 });
    const answer = o.ledger.get('default/web') as { state: PubBudgetState };
    answer.state.refusals = { a: { operation: 'EVICT', count: 3, firstAt: 0, lastAt: 1, message: 'm' } };
    const plan = decidePubs(o, NOW);
    expect(plan.events).toContainEqual({ regarding: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'a' }, type: 'Warning', reason: 'PubPreventPodDeletion', message: 'openkruise pub prevents pod deletion' });
    // The resync it plans clears exactly the refusals it turned into Events.
    expect(plan.ledgers).toEqual([expect.objectContaining({ ref: { kind: 'pub', namespace: 'default', name: 'web' }, op: 'resync', request: expect.objectContaining({ acknowledgedRefusals: { a: 1 } }) })]);
  });

  it('plans no ledger write when the run has no edge', () => {
    expect(decidePubs(observed(byRef(), [depPod('a')], { 'default/apps/Deployment/web': 1 }, false), NOW).ledgers).toBeUndefined();
  });

  it('back-fills related-pub on pods created before their PUB', () => {
    const plan = decidePubs(observed(byRef(), [readyPod('old', { owner: { kind: 'ReplicaSet', name: 'web-abc' } })], { 'default/apps/Deployment/web': 1 }), NOW);
    expect(plan.writes).toEqual([expect.objectContaining({ op: 'patch', target: expect.objectContaining({ name: 'old' }), patch: { metadata: { annotations: { 'kruise.io/related-pub': 'web' } } } })]);
  });

  it('without a ledger, keeps the status’s pending pods and deletes expired ones with null', () => {
    const p = byRef();
    p.status = { observedGeneration: 1, totalReplicas: 2, desiredAvailable: 1, currentAvailable: 1, unavailableAllowed: 0, disruptedPods: { a: '2023-12-31T23:59:59Z', b: '2023-12-31T23:00:00Z' } };
    const plan = decidePubs(observed(p, [depPod('a'), depPod('b')], { 'default/apps/Deployment/web': 2 }, false), NOW);
    expect(plan.status[0]!.status).toMatchObject({ disruptedPods: { a: '2023-12-31T23:59:59Z', b: null }, currentAvailable: 1, unavailableAllowed: 0 });
    expect(plan.status[0]!.status).not.toHaveProperty('unavailablePods');
    expect(plan.requeueAfterMs).toBe(10_000);
  });

  it('when the last pending pod goes, the map is deleted with null rather than left as {}', () => {
    const p = byRef();
    p.status = { observedGeneration: 1, totalReplicas: 2, desiredAvailable: 1, currentAvailable: 1, unavailableAllowed: 0, disruptedPods: { b: '2023-12-31T23:00:00Z' } };
    const plan = decidePubs(observed(p, [depPod('a'), depPod('b')], { 'default/apps/Deployment/web': 2 }, false), NOW);
    expect(plan.status[0]!.status).toMatchObject({ disruptedPods: null, currentAvailable: 2, unavailableAllowed: 1 });
  });
});

describe('taking over from OpenKruise mid-drain', () => {
  // OpenKruise allowed evicting `a` 5 s ago and wrote it to status; then the edge took over with a
  // fresh ledger. maxUnavailable 1 of 3: `a` still counts, so nothing more may go.
  const at = new Date(NOW.getTime() - 5_000).toISOString().replace('.000Z', 'Z');
  const drained = () => {
    const p = byRef();
    p.status = { observedGeneration: 1, totalReplicas: 3, desiredAvailable: 2, currentAvailable: 2, unavailableAllowed: 0, disruptedPods: { a: at } };
    return p;
  };
  const pods = [depPod('a'), depPod('b'), depPod('c')];

  it('the resync carries the status\'s disruptions, and the fresh ledger adopts them', async () => {
    const o = observed(drained(), pods, { 'default/apps/Deployment/web': 3 });
    o.ledger.set('default/web', { state: null });
    const plan = decidePubs(o, NOW);
    expect(plan.ledgers![0]!.request).toMatchObject({ recorded: { disruptedPods: { a: NOW.getTime() - 5_000 } } });
    // Status keeps what it said: the prediction adopts the same entries.
    expect(plan.status).toEqual([]);

    const ledgers = new MemoryLedgers([pubLedgerKind], () => NOW.getTime());
    for (const w of plan.ledgers!) await ledgers.apply(w.ref, w.op, w.request);
    const check = (pod: string) => ledgers.apply<PubCheckResult>(pubLedgerRef('default', 'web'), 'check', { pub: 'web', pod, operation: 'EVICT', dryRun: false });
    expect(await check('b')).toMatchObject({ allowed: false, why: 'exhausted' });
    // `a` itself is already pending: its retried eviction passes without spending.
    expect(await check('a')).toMatchObject({ allowed: true, why: 'already-pending' });
  });

  it('without any ledger, the status\'s disruptions count the same way', () => {
    const plan = decidePubs(observed(drained(), pods, { 'default/apps/Deployment/web': 3 }, false), NOW);
    expect(plan.status).toEqual([]);
    expect(plan.requeueAfterMs).toBe(10_000);
  });

  it('the ledger that already holds the disruption counts it once', () => {
    const o = observed(drained(), pods, { 'default/apps/Deployment/web': 3 });
    const held = o.ledger.get('default/web') as { state: PubBudgetState };
    held.state = { ...held.state, disruptedPods: { a: NOW.getTime() - 5_000 } };
    const plan = decidePubs(o, NOW);
    expect(plan.status).toEqual([]); // currentAvailable 2, unavailableAllowed 0: not 1 and -1
  });
});

describe('scaleOfWorkload', () => {
  it.each([
    ['replicas set', { group: 'argoproj.io', kind: 'Rollout', name: 'r' }, { spec: { replicas: 4 } }, 4],
    ['a Deployment defaults to 1', { group: 'apps', kind: 'Deployment', name: 'd' }, { spec: {} }, 1],
    ['a CloneSet defaults to 1', { group: 'apps.kruise.io', kind: 'CloneSet', name: 'c' }, {}, 1],
    ['an unknown kind without replicas is unknown (kruise#2571)', { group: 'example.com', kind: 'Widget', name: 'w' }, { spec: {} }, { error: 'Widget/w has no spec.replicas' }],
    ['not a number', { group: 'apps', kind: 'Deployment', name: 'd' }, { spec: { replicas: 'three' } }, { error: 'spec.replicas is not a number' }],
  ])('%s', (_name, w, obj, want) => {
    expect(scaleOfWorkload(w, obj)).toEqual(want);
  });
});
