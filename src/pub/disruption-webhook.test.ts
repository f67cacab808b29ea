import { describe, expect, it } from 'vitest';
import type { Verdict } from '../admission/types.js';
import type { Pod } from '../workload/pods.js';
import { PODS_COLLECTION, PUBS_COLLECTION } from './collections.js';
import { checkPodDisruptionHandler } from './disruption-webhook.js';
import { pubLedgerRef } from './ledger.js';
import { facts, pub, readyPod, resyncReq } from './test-builders.js';
import { exhaustedMessage } from './types.js';
import { eviction, fakeState, input, NOW, type FakeState } from './webhook-fixtures.js';

const ctx = { now: NOW };
const protectedPod = (name: string, over: Parameters<typeof readyPod>[1] = {}) => readyPod(name, { pub: 'web', ...over });
const pushedPod = (name: string, annotations: Record<string, string> = { 'kruise.io/related-pub': 'web' }) => ({ metadata: { name, namespace: 'default', annotations } });

async function stateWithBudget(allowed = 2, pods = 10): Promise<FakeState> {
  const state = fakeState({
    [PUBS_COLLECTION]: [pub('web')],
    [PODS_COLLECTION]: [...Array.from({ length: pods }, (_, i) => pushedPod(`pod-${i}`)), pushedPod('loner', {})],
  });
  await state.ledgers.apply(pubLedgerRef('default', 'web'), 'resync', resyncReq(facts(pods), pods - allowed));
  return state;
}

const del = (pod: Pod, dryRun = false) => input({ operation: 'DELETE', oldObject: pod, name: pod.metadata.name, dryRun });
const update = (oldPod: Pod, newPod: Pod) => input({ operation: 'UPDATE', oldObject: oldPod, object: newPod, name: oldPod.metadata.name });
const run = (state: FakeState, req: ReturnType<typeof input>) => checkPodDisruptionHandler(req, state, ctx) as Promise<Verdict>;

describe('pod DELETE', () => {
  it('spends the budget, then denies with 403 and the spec message', async () => {
    const state = await stateWithBudget(2);
    expect((await run(state, del(protectedPod('pod-1')))).allowed).toBe(true);
    expect((await run(state, del(protectedPod('pod-2')))).allowed).toBe(true);
    expect(await run(state, del(protectedPod('pod-3')))).toEqual({ allowed: false, code: 403, message: exhaustedMessage('web') });
    // A pod already disrupted is allowed again without spending.
    expect((await run(state, del(protectedPod('pod-1')))).allowed).toBe(true);
  });

  it.each([
    ['no related-pub', readyPod('pod-1')],
    ['no-protect', protectedPod('pod-1', { annotations: { 'pub.kruise.io/no-protect': 'true' } })],
    ['not ready', protectedPod('pod-1', { ready: false })],
    ['PUB gone', readyPod('pod-1', { pub: 'deleted' })],
  ])('allows without spending: %s', async (_name, pod) => {
    const state = await stateWithBudget(0);
    expect((await run(state, del(pod))).allowed).toBe(true);
  });

  it('a dry run does not spend', async () => {
    const state = await stateWithBudget(1);
    expect((await run(state, del(protectedPod('pod-1'), true))).allowed).toBe(true);
    expect((await run(state, del(protectedPod('pod-2')))).allowed).toBe(true);
    expect((await run(state, del(protectedPod('pod-3')))).allowed).toBe(false);
  });

  it('decides a budget never synced from the status the PUB records (another controller wrote it)', async () => {
    const status = { observedGeneration: 1, totalReplicas: 3, desiredAvailable: 2, currentAvailable: 3, unavailableAllowed: 1 };
    const state = fakeState({ [PUBS_COLLECTION]: [{ ...pub('web'), status }] });
    expect((await run(state, del(protectedPod('pod-1')))).allowed).toBe(true);
    expect(await run(state, del(protectedPod('pod-2')))).toEqual({ allowed: false, code: 403, message: exhaustedMessage('web') });
    const held = await state.ledgers.apply<{ disruptedPods: Record<string, number> } | null>(pubLedgerRef('default', 'web'), 'read', undefined);
    expect(Object.keys(held?.disruptedPods ?? {})).toEqual(['pod-1']);
  });

  it('waits within the request budget for the first sync of a budget not known yet', async () => {
    const state = fakeState({ [PUBS_COLLECTION]: [pub('web')] });
    // The controller's first run (triggered by the PUB's creation) lands while the check waits.
    setTimeout(() => void state.ledgers.apply(pubLedgerRef('default', 'web'), 'resync', resyncReq(facts(3), 3)), 60);
    const v = await checkPodDisruptionHandler(del(protectedPod('pod-1')), state, { now: NOW, deadline: Date.now() + 2500 });
    expect(v).toEqual({ allowed: false, code: 403, message: exhaustedMessage('web') });
  });

  it('refuses (503) when the budget was never synced, naming the PUB', async () => {
    const state = fakeState({ [PUBS_COLLECTION]: [pub('web')] });
    const v = await run(state, del(protectedPod('pod-1')));
    expect(v).toMatchObject({ allowed: false, code: 503 });
    expect(v.allowed ? '' : v.message).toMatch(/podunavailablebudget "web": its budget is not known yet/);
  });

  it('refuses (503) without a ledger authority', async () => {
    const state = fakeState({ [PUBS_COLLECTION]: [pub('web')] }, false);
    expect(await run(state, del(protectedPod('pod-1')))).toMatchObject({ allowed: false, code: 503 });
  });

  it('trusts a fresh ledger when the pushed PUBs are stale, and refuses a stale one', async () => {
    const state = await stateWithBudget(2);
    state.set(PUBS_COLLECTION, [], 0);
    expect((await run(state, del(protectedPod('pod-1')))).allowed).toBe(true);
    state.clock.t = NOW + 10 * 60_000;
    const v = await run(state, del(protectedPod('pod-2')));
    expect(v.allowed ? '' : v.message).toMatch(/podunavailablebudget "web": its budget was last synced 600s ago/);
  });
});

describe('pod UPDATE', () => {
  it.each([
    ['metadata only', (p: Pod) => (p.metadata.labels = { app: 'web', extra: 'x' }), true],
    ['image change spends', (p: Pod) => (p.spec.containers[0]!.image = 'nginx:2'), false],
    ['unavailable label added spends', (p: Pod) => (p.metadata.labels = { app: 'web', 'unavailable-pod.kruise.io/x': 'y' }), false],
  ])('%s', async (_name, change, stillAllowedAfter) => {
    const state = await stateWithBudget(1);
    const oldPod = protectedPod('pod-1');
    const newPod = structuredClone(oldPod);
    change(newPod);
    expect((await run(state, update(oldPod, newPod))).allowed).toBe(true);
    expect((await run(state, del(protectedPod('pod-2')))).allowed).toBe(stillAllowedAfter);
  });
});

describe('pod UPDATE that only resizes (RESIZE)', () => {
  const resized = (p: Pod): Pod => {
    const n = structuredClone(p);
    n.spec.containers[0]!['resources'] = { requests: { cpu: '200m' } };
    return n;
  };
  const withCpu = (p: Pod): Pod => {
    const n = structuredClone(p);
    n.spec.containers[0]!['resources'] = { requests: { cpu: '100m' } };
    return n;
  };
  async function guarding(operations: ('UPDATE' | 'DELETE' | 'EVICT' | 'RESIZE')[]): Promise<FakeState> {
    const state = fakeState({ [PUBS_COLLECTION]: [pub('web')], [PODS_COLLECTION]: Array.from({ length: 3 }, (_, i) => pushedPod(`pod-${i}`)) });
    await state.ledgers.apply(pubLedgerRef('default', 'web'), 'resync', resyncReq(facts(3), 3, { protectOperations: operations }));
    return state;
  }

  it('is refused when RESIZE is guarded and the budget is spent; an image update is not RESIZE', async () => {
    const state = await guarding(['DELETE', 'RESIZE']);
    const oldPod = withCpu(protectedPod('pod-1'));
    expect(await run(state, update(oldPod, resized(oldPod)))).toEqual({ allowed: false, code: 403, message: exhaustedMessage('web') });
    const image = structuredClone(oldPod);
    image.spec.containers[0]!.image = 'nginx:2';
    expect((await run(state, update(oldPod, image))).allowed).toBe(true);
  });

  it('passes when only UPDATE-less operations are guarded', async () => {
    const state = await guarding(['DELETE', 'EVICT']);
    const oldPod = withCpu(protectedPod('pod-1'));
    expect((await run(state, update(oldPod, resized(oldPod)))).allowed).toBe(true);
  });
});

describe('pods/eviction', () => {
  it('spends, then denies with 429 TooManyRequests and the spec message', async () => {
    const state = await stateWithBudget(1);
    expect((await run(state, eviction('pod-1'))).allowed).toBe(true);
    expect(await run(state, eviction('pod-2'))).toEqual({ allowed: false, code: 429, message: exhaustedMessage('web'), reason: 'TooManyRequests' });
  });

  it.each([
    ['a pod without related-pub', 'loner', true],
    ['a pod created after the last push', 'newcomer', false],
  ])('%s', async (_name, pod, allowed) => {
    const state = await stateWithBudget(0);
    const v = await run(state, eviction(pod));
    expect(v.allowed).toBe(allowed);
    if (!v.allowed) expect(v).toMatchObject({ code: 429, message: expect.stringMatching(/not known at the edge yet/) });
  });

  it.each([
    ['names the PUB the stale list last showed', 'pod-1', 'podunavailablebudget "web": the pods known at the edge are 240s old (limit 180s); cannot tell whether pod "pod-1" is protected; retry shortly'],
    ['a pod the stale list lacks', 'newcomer', 'podunavailablebudget: the pods known at the edge are 240s old (limit 180s); cannot tell whether pod "newcomer" is protected; retry shortly'],
  ])('stale pushed pods refuse with 429: %s', async (_name, pod, message) => {
    const state = await stateWithBudget(2);
    state.set(PODS_COLLECTION, [pushedPod('pod-1')], NOW - 240_000);
    expect(await run(state, eviction(pod))).toEqual({ allowed: false, code: 429, message, reason: 'TooManyRequests' });
  });

  it('pods never synced (a restarted edge) are waited for within the request\'s time, then decided; never synced to the end, refused', async () => {
    const state = await stateWithBudget(1);
    const pods = await state.collection(PODS_COLLECTION);
    let reads = 0;
    // Missing for the first two reads, then pushed.
    const restarted: FakeState = { ...state, collection: async <T,>(name: string, opts?: { reread?: boolean }) => (name === PODS_COLLECTION && ++reads <= 2 ? undefined : name === PODS_COLLECTION ? pods : state.collection<T>(name, opts)) as never };
    const within = { now: NOW, deadline: Date.now() + 2_000 };
    expect((await checkPodDisruptionHandler(eviction('pod-1'), restarted, within) as Verdict).allowed).toBe(true);
    expect(reads).toBe(3);
    const never: FakeState = { ...state, collection: async <T,>(name: string) => (name === PODS_COLLECTION ? undefined : state.collection<T>(name)) as never };
    expect(await checkPodDisruptionHandler(eviction('pod-2'), never, { now: NOW, deadline: Date.now() + 300 })).toMatchObject({ allowed: false, code: 429, message: expect.stringContaining('never synced') });
  });

  it('a namespace without PUBs allows', async () => {
    const state = fakeState({});
    expect((await run(state, eviction('x'))).allowed).toBe(true);
  });

  it('200 concurrent evictions against maxUnavailable 2: exactly 2 allowed, 198 refused with 429', async () => {
    const state = await stateWithBudget(2, 200);
    const verdicts = await Promise.all(Array.from({ length: 200 }, (_, i) => run(state, eviction(`pod-${i}`))));
    const denied = verdicts.filter((v): v is Extract<Verdict, { allowed: false }> => !v.allowed);
    expect(verdicts.length - denied.length).toBe(2);
    expect(new Set(denied.map((d) => `${d.code} ${d.message}`))).toEqual(new Set([`429 ${exhaustedMessage('web')}`]));
  });
});
