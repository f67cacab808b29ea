// The reconcile runtime against a real API server, driven by a tiny reconciler defined here:
// for each ConfigMap labelled rt-test/source=true it keeps `<name>-copy` with the same data,
// marks the source with an annotation, counts the sources into the status of our
// ResourceDistributions (a CRD with a status subresource), and notes an Event per new copy.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { isAlreadyExists, isNotFound } from '../../src/kube/errors.js';
import { applyPlan, WRITE_CONCURRENCY } from '../../src/reconcile/act.js';
import { eventName, type CoreEvent } from '../../src/reconcile/events.js';
import type { Lease } from '../../src/reconcile/lease.js';
import { HeldLeases, microTime } from '../../src/reconcile/lease.js';
import { formatPlan } from '../../src/reconcile/plan-format.js';
import { COMPONENT, leaseNameFor, runReconciler } from '../../src/reconcile/runner.js';
import { emptyPlan, type EventNote, type Plan, type Reconciler } from '../../src/reconcile/types.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { eventually } from './support/kube.js';
import { createNamespace, deleteNamespace, testKube, testKubeConfig } from './support/kube.js';
import { MemoryLedgers } from '../../src/edge-state/ledger.js';
import { COUNTER_KIND, counterLedger, type CounterBudget } from '../fixtures/counter-ledger.js';

const kc = testKubeConfig();
const RUN = randomBytes(3).toString('hex');
const LEASE_NS = 'kruise-system';
const KIND = 'RtCopy';
const SOURCE = 'rt-test/source';
const COPIED = 'rt-test/copied';
const OWNER = 'rt-test/owner';
const RD_API = 'apps.kruise.io/v1alpha1';
// A no-op run reads the lease, takes it over from the last (released) holder and releases it.
const LEASE_CALLS_WHEN_IDLE = 3;

type ConfigMap = KubeObject & { metadata: { name: string; namespace: string; uid: string; resourceVersion: string; annotations?: Record<string, string> }; data?: Record<string, string> };
type Distribution = KubeObject & { metadata: { name: string; generation: number; resourceVersion: string; uid: string }; status?: { observedGeneration?: number; desired?: number } };
type Observed = { sources: ConfigMap[]; copies: ConfigMap[]; distributions: Distribution[] };

let kube: KubeHttp;
let other: KubeHttp;
let ns = '';
const rdName = `rt-status-${RUN}`;

function copyReconciler(opts: { observeDelayMs?: number; kindSuffix?: string } = {}): Reconciler<Observed> & { lists: number } {
  return {
    kind: KIND,
    apiVersion: 'v1',
    lists: 0,
    async observe(reader) {
      const list = async <T extends KubeObject>(apiVersion: string, kind: string, o: { namespace?: string; labelSelector?: string }) => {
        this.lists += 1;
        return (await reader.list<T>(apiVersion, kind, o)).items;
      };
      const sources = await list<ConfigMap>('v1', 'ConfigMap', { namespace: ns, labelSelector: `${SOURCE}=true` });
      const copies = await list<ConfigMap>('v1', 'ConfigMap', { namespace: ns, labelSelector: 'rt-test/copy-of' });
      const distributions = await list<Distribution>(RD_API, `ResourceDistribution${opts.kindSuffix ?? ''}`, { labelSelector: `${OWNER}=${RUN}` });
      // Widens the window in which a concurrent invocation could slip in.
      if (opts.observeDelayMs) await new Promise((r) => setTimeout(r, opts.observeDelayMs));
      return { sources, copies, distributions };
    },
    decide({ sources, copies, distributions }) {
      const plan = emptyPlan();
      for (const src of sources) {
        const name = `${src.metadata.name}-copy`;
        const copy = copies.find((c) => c.metadata.name === name);
        if (!copy) {
          plan.writes.push({ op: 'create', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels: { 'rt-test/copy-of': src.metadata.name } }, data: src.data ?? {} }, reason: `source ${src.metadata.name} has no copy` });
          plan.events.push(copiedNote(src));
        } else if (JSON.stringify(copy.data ?? {}) !== JSON.stringify(src.data ?? {})) {
          plan.writes.push({ op: 'update', object: { ...copy, data: src.data ?? {} }, reason: 'copy differs from its source' });
        }
        if (src.metadata.annotations?.[COPIED] !== 'true') {
          plan.writes.push({ op: 'patch', target: { apiVersion: 'v1', kind: 'ConfigMap', name: src.metadata.name, namespace: ns }, patchType: 'merge', patch: { metadata: { annotations: { [COPIED]: 'true' } } }, reason: 'source not marked as copied' });
        }
      }
      for (const rd of distributions) {
        const status = { observedGeneration: rd.metadata.generation, desired: sources.length };
        if (rd.status?.observedGeneration !== status.observedGeneration || rd.status.desired !== status.desired) {
          plan.status.push({ target: { apiVersion: RD_API, kind: 'ResourceDistribution', name: rd.metadata.name }, status, resourceVersion: rd.metadata.resourceVersion, reason: 'source count changed' });
        }
      }
      return plan;
    },
  };
}

const copiedNote = (src: ConfigMap): EventNote => ({
  regarding: { apiVersion: 'v1', kind: 'ConfigMap', name: src.metadata.name, namespace: src.metadata.namespace, uid: src.metadata.uid },
  type: 'Normal', reason: 'Copied', message: `copied to ${src.metadata.name}-copy`,
});

const source = (name: string, data: Record<string, string>): Promise<ConfigMap> =>
  kube.create<KubeObject>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels: { [SOURCE]: 'true' } }, data }).then((o) => o as ConfigMap);
const getConfigMap = (name: string) => kube.get<ConfigMap>('v1', 'ConfigMap', name, ns);
const getLease = (shard: string) => kube.get<Lease>('coordination.k8s.io/v1', 'Lease', leaseNameFor(KIND, shard), LEASE_NS);
const getDistribution = () => kube.get<Distribution>(RD_API, 'ResourceDistribution', rdName);
const ignore = (pred: (e: unknown) => boolean) => (e: unknown) => { if (!pred(e)) throw e; };
const shards: string[] = [];
const shard = (what: string) => { const s = `${what}-${RUN}`; shards.push(s); return s; };
const run = (r: Reconciler, s: string, o: Partial<Parameters<typeof runReconciler>[2]> = {}, client = kube) =>
  runReconciler(client, r, { identity: `test-${RUN}`, shard: s, ...o });

beforeAll(async () => {
  kube = await testKube();
  other = await testKube();
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: LEASE_NS } }).catch(ignore(isAlreadyExists));
  ns = await createNamespace(kc, 'rt');
  await kube.create({ apiVersion: RD_API, kind: 'ResourceDistribution', metadata: { name: rdName, labels: { [OWNER]: RUN } },
    spec: { resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unused' }, data: {} }, targets: { includedNamespaces: { list: [{ name: ns }] } } } });
});

afterAll(async () => {
  // kruise-system stays: it is the installer's namespace, and creating it is idempotent.
  for (const s of shards) await kube.delete({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: leaseNameFor(KIND, s), namespace: LEASE_NS } }).catch(() => undefined);
  await kube.delete({ apiVersion: RD_API, kind: 'ResourceDistribution', metadata: { name: rdName } }).catch(() => undefined);
  await kube.list('v1', 'Event', { namespace: 'default', fieldSelector: `involvedObject.name=${rdName}` })
    .then(({ items }) => Promise.all(items.map((e) => kube.delete(e))), () => undefined);
  await deleteNamespace(kc, ns);
  kube.close();
  other.close();
});

describe('runReconciler', () => {
  const main = shard('main');

  it('applies the plan: writes, then status, then events', async () => {
    const src = await source('game-demo', { lives: '3' });
    const r = copyReconciler();
    const report = await run(r, main);
    expect(report).toMatchObject({ reconciler: KIND, acted: true, dryRun: false, applied: 4, conflicts: 0, failed: [] });
    expect((await getConfigMap('game-demo-copy')).data).toEqual({ lives: '3' });
    expect((await getConfigMap('game-demo')).metadata.annotations?.[COPIED]).toBe('true');
    const rd = await getDistribution();
    expect(rd.status).toEqual({ observedGeneration: rd.metadata.generation, desired: 1 });
    const event = await kube.get<CoreEvent>('v1', 'Event', eventName(copiedNote(src), COMPONENT), ns);
    expect(event).toMatchObject({ reason: 'Copied', count: 1, source: { component: COMPONENT }, involvedObject: { uid: src.metadata.uid } });
  });

  it('a second run is a no-op: no writes, only the LISTs and the lease', async () => {
    const r = copyReconciler();
    const report = await run(r, main);
    expect(report.plan).toEqual(emptyPlan());
    expect(report).toMatchObject({ acted: true, applied: 0, conflicts: 0, failed: [] });
    expect(r.lists).toBe(3);
    expect(report.apiCalls).toBe(r.lists + LEASE_CALLS_WHEN_IDLE);
  });

  it('a dry run writes nothing, takes no lease, and prints the plan', async () => {
    await source('dry', { a: '1' });
    const leaseBefore = await getLease(main);
    const r = copyReconciler();
    const report = await run(r, main, { dryRun: true });
    expect(report).toMatchObject({ acted: false, dryRun: true, applied: 0 });
    expect(report.apiCalls).toBe(r.lists);
    expect(formatPlan(report.plan).split('\n')).toEqual([
      `create ConfigMap ${ns}/dry-copy — source dry has no copy`,
      `patch (merge) ConfigMap ${ns}/dry — source not marked as copied`,
      `status ResourceDistribution ${rdName} {desired, observedGeneration} — source count changed`,
      `event Normal Copied on ConfigMap ${ns}/dry: copied to dry-copy`,
    ]);
    await expect(getConfigMap('dry-copy')).rejects.toSatisfy(isNotFound);
    expect((await getLease(main)).metadata.resourceVersion).toBe(leaseBefore.metadata.resourceVersion);
  });

  it('releases the lease at the end, so a run by someone else acts at once', async () => {
    await run(copyReconciler(), main);
    expect((await getLease(main)).spec.holderIdentity).toBe('');
    const report = await run(copyReconciler(), main, { identity: `someone-else-${RUN}` }, other);
    expect(report.acted).toBe(true);
  });

  it('an observe error is thrown with context, and the lease is still released', async () => {
    await expect(run(copyReconciler({ kindSuffix: 'Nope' }), main)).rejects.toThrow(/^RtCopy: observe failed: .*ResourceDistributionNope/);
    expect((await getLease(main)).spec.holderIdentity).toBe('');
  });

  it('two concurrent runners never both act (10 rounds)', async () => {
    const s = shard('race');
    for (let round = 0; round < 10; round++) {
      await source(`race-${round}`, { round: String(round) });
      const r = copyReconciler({ observeDelayMs: 100 });
      const reports = await Promise.all([
        run(r, s, { identity: `a-${RUN}` }, kube),
        run(r, s, { identity: `b-${RUN}` }, other),
      ]);
      expect(reports.filter((x) => x.acted).length, `round ${round}`).toBe(1);
      const loser = reports.find((x) => !x.acted)!;
      expect(loser).toMatchObject({ applied: 0, plan: emptyPlan() });
      expect((await getConfigMap(`race-${round}-copy`)).data).toEqual({ round: String(round) });
    }
  });

  it('takes over a lease whose holder died, once it expires', async () => {
    const s = shard('dead');
    const t = microTime(new Date());
    await kube.create<Lease>({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: leaseNameFor(KIND, s), namespace: LEASE_NS },
      spec: { holderIdentity: 'dead-invocation', leaseDurationSeconds: 2, acquireTime: t, renewTime: t, leaseTransitions: 0 } });
    const r = copyReconciler();
    const blocked = await run(r, s);
    expect(blocked).toMatchObject({ acted: false, plan: emptyPlan(), apiCalls: 1 });
    expect(r.lists).toBe(0);
    await new Promise((res) => setTimeout(res, 2100));
    expect((await run(r, s)).acted).toBe(true);
    expect((await getLease(s)).spec).toMatchObject({ holderIdentity: '', leaseTransitions: 1 });
  });
});

describe('held leases (the Node loop)', () => {
  it('keeps the lease between runs: the next run makes no lease call, someone else waits, releaseAll frees it', async () => {
    const s = shard('held');
    const held = new HeldLeases();
    await source('held-1', { a: '1' });
    const first = await run(copyReconciler(), s, { heldLeases: held });
    expect(first).toMatchObject({ acted: true, failed: [] });
    expect(first.applied).toBeGreaterThan(0);
    const rv = (await getLease(s)).metadata.resourceVersion;
    expect((await getLease(s)).spec.holderIdentity).toBe(`test-${RUN}`);

    // With the lease fresh in hand: a no-op run is its LISTs alone, and acting writes no lease.
    const r = copyReconciler();
    const idle = await run(r, s, { heldLeases: held });
    expect(idle).toMatchObject({ acted: true, applied: 0, plan: emptyPlan() });
    expect(idle.apiCalls).toBe(r.lists);
    await source('held-2', { a: '2' });
    expect((await run(copyReconciler(), s, { heldLeases: held })).applied).toBeGreaterThan(0);
    expect((await getConfigMap('held-2-copy')).data).toEqual({ a: '2' });
    expect((await getLease(s)).metadata.resourceVersion).toBe(rv);

    const blocked = await run(copyReconciler(), s, { identity: `someone-else-${RUN}` }, other);
    expect(blocked.acted).toBe(false);
    await held.releaseAll(kube);
    expect((await getLease(s)).spec.holderIdentity).toBe('');
    expect((await run(copyReconciler(), s, { identity: `someone-else-${RUN}` }, other)).acted).toBe(true);
  });

  it('renews a held lease once a third of its duration has passed, and takes it again if it was lost', async () => {
    const s = shard('held-renew');
    const held = new HeldLeases();
    let clock = Date.now();
    const now = () => new Date(clock);
    await run(copyReconciler(), s, { heldLeases: held, now, leaseDurationSeconds: 30 });
    const rv1 = (await getLease(s)).metadata.resourceVersion;
    clock += 11_000;
    await run(copyReconciler(), s, { heldLeases: held, now, leaseDurationSeconds: 30 });
    const renewed = await getLease(s);
    expect(renewed.metadata.resourceVersion).not.toBe(rv1);
    expect(renewed.spec.renewTime).toBe(microTime(now()));

    // Someone took it after it expired: the held copy is stale, the run reads and takes it anew.
    await kube.replace<Lease>({ ...renewed, spec: { ...renewed.spec, holderIdentity: '' } });
    clock += 11_000;
    expect((await run(copyReconciler(), s, { heldLeases: held, now, leaseDurationSeconds: 30 })).acted).toBe(true);
    expect((await getLease(s)).spec).toMatchObject({ holderIdentity: `test-${RUN}`, leaseTransitions: 1 });
    await held.releaseAll(kube);
  });
});

describe('ledgers', () => {
  const ref = { kind: COUNTER_KIND, namespace: 'ns', name: `budget-${RUN}` };
  // Reads the ledger in observe (through the context the runtime lends) and plans a resync of it.
  const budgetReconciler = (limit: number): Reconciler<{ seen: CounterBudget | null | undefined }> => ({
    kind: 'RtBudget',
    apiVersion: 'v1',
    async observe(_reader, _scope, ctx) {
      return { seen: ctx?.ledgers ? await ctx.ledgers.apply<CounterBudget | null>(ref, 'read', undefined) : undefined };
    },
    decide({ seen }) {
      if (seen?.limit === limit) return emptyPlan();
      return { ...emptyPlan(), ledgers: [{ ref, op: 'set', request: { limit }, reason: `the budget is ${limit}` }] };
    },
  });

  it('observe reads the edge’s ledgers, and the plan’s ledger writes are applied', async () => {
    const ledgers = new MemoryLedgers([counterLedger]);
    const first = await run(budgetReconciler(3), shard('ledger'), { ledgers });
    expect(first).toMatchObject({ acted: true, applied: 1, failed: [] });
    expect(formatPlan(first.plan)).toBe(`ledger ${COUNTER_KIND} ns/${ref.name} set — the budget is 3`);
    expect(await ledgers.apply<CounterBudget>(ref, 'read', undefined)).toMatchObject({ limit: 3 });
    // Level-triggered: the next run reads the ledger, finds it right and plans nothing.
    expect((await run(budgetReconciler(3), shard('ledger'), { ledgers })).plan).toEqual(emptyPlan());
  });

  it('ledger writes go before the API writes: a status showing a budget never runs ahead of the edge enforcing it', async () => {
    const memory = new MemoryLedgers([counterLedger]);
    const marker = `ledger-order-${RUN}`;
    let markerAtLedgerWrite: string | undefined;
    const ledgers = {
      async apply<R>(r: typeof ref, op: string, req: unknown): Promise<R> {
        if (op !== 'read') markerAtLedgerWrite = await getConfigMap(marker).then(() => 'present', (e: unknown) => (isNotFound(e) ? 'absent' : String(e)));
        return memory.apply<R>(r, op, req);
      },
    };
    const writesMarker: Reconciler<{ seen: CounterBudget | null | undefined }> = {
      ...budgetReconciler(7),
      decide: (o, now) => ({ ...budgetReconciler(7).decide(o, now), writes: [{ op: 'create', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: marker, namespace: ns } }, reason: 'the status stand-in' }] }),
    };
    expect(await run(writesMarker, shard('ledger-order'), { ledgers })).toMatchObject({ acted: true, applied: 2, failed: [] });
    expect(markerAtLedgerWrite).toBe('absent');
    await getConfigMap(marker);
  });

  it('without an edge, ledger writes are skipped and said so; a failing one is reported, not thrown', async () => {
    const lines: string[] = [];
    const skipped = await run(budgetReconciler(5), shard('ledger'), { log: (m) => lines.push(m) });
    expect(skipped).toMatchObject({ acted: true, applied: 0, failed: [] });
    expect(lines.join('\n')).toMatch(/1 ledger writes skipped: this run has no edge/);
    const broken = { ...budgetReconciler(5), decide: () => ({ ...emptyPlan(), ledgers: [{ ref, op: 'explode', request: {}, reason: 'test' }] }) };
    const failed = await run(broken, shard('ledger'), { ledgers: new MemoryLedgers([counterLedger]) });
    expect(failed.failed).toEqual([{ write: `ledger ${COUNTER_KIND} ns/${ref.name} explode`, error: 'boom' }]);
  });
});

describe('applyPlan', () => {
  const act = (plan: Partial<Plan>) => applyPlan(kube, { ...emptyPlan(), ...plan }, { component: COMPONENT, now: () => new Date() });

  it('a status write sets labels too, and its chained update lands on the version it produced; a stale one does neither', async () => {
    type PodObj = KubeObject & { metadata: { name: string; resourceVersion: string; labels?: Record<string, string> }; spec: { containers: { name: string; image: string }[] }; status?: { conditions?: { type: string; status: string }[] } };
    // On a node that does not exist: nothing else writes this pod.
    const pod = (await kube.create<KubeObject>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `chain-${RUN}`, namespace: ns }, spec: { nodeName: 'no-such-node', containers: [{ name: 'c', image: 'app:1' }] } })) as PodObj;
    const target = { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: ns };
    // The chained PUT replaces labels too: it carries the one the status write sets.
    const chained = (from: PodObj, image: string): Plan['status'][number] => {
      const labels = { step: image.replace(':', '-') };
      return {
        target, resourceVersion: from.metadata.resourceVersion, reason: 'out of service first',
        status: { conditions: [{ type: 'Example', status: 'False' }] }, metadata: { labels },
        then: { op: 'update', object: { ...from, metadata: { ...from.metadata, labels }, spec: { ...from.spec, containers: from.spec.containers.map((c) => ({ ...c, image })) } }, reason: 'then the image' },
      };
    };
    expect(await act({ status: [chained(pod, 'app:2')] })).toMatchObject({ applied: 2, conflicts: 0, failed: [] });
    const after = await kube.get<PodObj>('v1', 'Pod', pod.metadata.name, ns);
    expect(after.metadata.labels).toEqual({ step: 'app-2' });
    expect(after.status?.conditions).toContainEqual(expect.objectContaining({ type: 'Example', status: 'False' }));
    expect(after.spec.containers[0]?.image).toBe('app:2');

    expect(await act({ status: [chained(pod, 'app:3')] })).toMatchObject({ applied: 0, conflicts: 1, failed: [] });
    expect((await kube.get<PodObj>('v1', 'Pod', pod.metadata.name, ns)).spec.containers[0]?.image).toBe('app:2');
  });

  it('a status write after the others (afterStatus) goes only once every other status write landed', async () => {
    type PodObj = KubeObject & { metadata: { name: string; resourceVersion: string }; status?: { conditions?: { type: string; status: string }[] } };
    const make = async (name: string) => (await kube.create<KubeObject>({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `${name}-${RUN}`, namespace: ns }, spec: { nodeName: 'no-such-node', containers: [{ name: 'c', image: 'app:1' }] } })) as PodObj;
    const [first, second] = [await make('first'), await make('second')];
    const write = (p: PodObj, status: string, over: Partial<Plan['status'][number]> = {}): Plan['status'][number] => ({
      target: { apiVersion: 'v1', kind: 'Pod', name: p.metadata.name, namespace: ns }, resourceVersion: p.metadata.resourceVersion,
      status: { conditions: [{ type: 'Example', status }] }, reason: 'test', ...over,
    });
    const condition = async (p: PodObj) => (await kube.get<PodObj>('v1', 'Pod', p.metadata.name, ns)).status?.conditions?.find((c) => c.type === 'Example')?.status;
    expect(await act({ status: [write(second, 'False', { afterStatus: true }), write(first, 'True')] })).toMatchObject({ applied: 2, conflicts: 0, failed: [] });
    expect([await condition(first), await condition(second)]).toEqual(['True', 'False']);
    // The first write is stale now: the one after it is not sent.
    const fresh = await kube.get<PodObj>('v1', 'Pod', second.metadata.name, ns);
    expect(await act({ status: [write(fresh, 'True', { afterStatus: true }), write(first, 'False')] })).toMatchObject({ applied: 0, conflicts: 2, failed: [] });
    expect([await condition(first), await condition(second)]).toEqual(['True', 'False']);
    // Only status writes to its own kind hold it back: a stale write of another kind's status (a
    // workload's, which puts no pod back in service) goes alongside it and does not stop it.
    const rd = await getDistribution();
    await kube.patch(rd, { status: { failed: 5 } }, 'merge', 'status');
    const current = async (p: PodObj) => kube.get<PodObj>('v1', 'Pod', p.metadata.name, ns);
    const staleWorkload: Plan['status'][number] = { target: { apiVersion: RD_API, kind: 'ResourceDistribution', name: rdName }, status: { desired: 98 }, resourceVersion: rd.metadata.resourceVersion, reason: 'test' };
    expect(await act({ status: [write(await current(second), 'True', { afterStatus: true }), staleWorkload, write(await current(first), 'False')] })).toMatchObject({ applied: 2, conflicts: 1, failed: [] });
    expect([await condition(first), await condition(second)]).toEqual(['False', 'True']);
  });

  it('an update with a stale resourceVersion is a conflict and is not applied', async () => {
    const stale = await getConfigMap('game-demo-copy');
    await kube.patch(stale, { metadata: { labels: { touched: 'yes' } } });
    const result = await act({ writes: [{ op: 'update', object: { ...stale, data: { lives: 'stale' } }, reason: 'test' }] });
    expect(result).toMatchObject({ applied: 0, conflicts: 1, failed: [] });
    expect((await getConfigMap('game-demo-copy')).data).toEqual({ lives: '3' });
  });

  it('a status write with a stale resourceVersion is a conflict and is not applied', async () => {
    const rd = await getDistribution();
    await kube.patch(rd, { status: { failed: 0 } }, 'merge', 'status');
    const result = await act({ status: [{ target: { apiVersion: RD_API, kind: 'ResourceDistribution', name: rdName }, status: { desired: 99 }, resourceVersion: rd.metadata.resourceVersion, reason: 'test' }] });
    expect(result).toMatchObject({ applied: 0, conflicts: 1, failed: [] });
    expect((await getDistribution()).status?.desired).not.toBe(99);
  });

  it('a create of a name that exists is a conflict; the other writes still go ahead', async () => {
    const existing = await getConfigMap('game-demo-copy');
    const result = await act({ writes: [
      { op: 'create', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo-copy', namespace: ns } }, reason: 'test' },
      { op: 'patch', target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'game-demo-copy', namespace: ns }, patchType: 'json',
        patch: [{ op: 'test', path: '/metadata/resourceVersion', value: '1' }, { op: 'add', path: '/data/x', value: 'y' }], reason: 'stale json patch' },
      { op: 'delete', target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'game-demo-copy', namespace: ns }, preconditions: { uid: 'not-its-uid' }, reason: 'test' },
      { op: 'patch', target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'game-demo-copy', namespace: ns }, patchType: 'merge', patch: { data: { after: 'conflicts' } }, reason: 'test' },
    ] });
    expect(result).toMatchObject({ applied: 1, conflicts: 3, failed: [] });
    expect((await getConfigMap('game-demo-copy')).data).toEqual({ ...existing.data, after: 'conflicts' });
  });

  it('NotFound on delete counts as done, on a patch as a stale target; other errors are recorded, not thrown', async () => {
    const result = await act({ writes: [
      { op: 'delete', target: { apiVersion: 'v1', kind: 'ConfigMap', name: `never-was-${RUN}`, namespace: ns }, reason: 'test' },
      { op: 'patch', target: { apiVersion: 'v1', kind: 'ConfigMap', name: `never-was-${RUN}`, namespace: ns }, patchType: 'merge', patch: {}, reason: 'test' },
      { op: 'create', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Not_A_Name', namespace: ns } }, reason: 'test' },
    ] });
    expect(result).toMatchObject({ applied: 1, conflicts: 1 });
    expect(result.failed).toEqual([{ write: `create ConfigMap ${ns}/Not_A_Name`, error: expect.stringMatching(/422/) }]);
  });

  it('a write into a namespace being deleted is moot: counted as a conflict, not a failure', async () => {
    const doomed = await createNamespace(kc, 'rt-doomed');
    // A finalizer keeps the namespace Terminating while the test writes into it.
    const held = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', namespace: doomed, finalizers: ['kruise-serverless.io/e2e-hold'] } };
    await kube.create(held);
    await kube.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: doomed } });
    try {
      const result = await act({ writes: [{ op: 'create', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'late', namespace: doomed } }, reason: 'test' }] });
      expect(result).toMatchObject({ applied: 0, conflicts: 1, failed: [] });
    } finally {
      await kube.patch(held, { metadata: { finalizers: null } }).catch(() => undefined);
    }
  });

  it('starts no write once shouldContinue says stop (writes already admitted may finish)', async () => {
    let asked = 0;
    const writes = Array.from({ length: 20 }, (_, i) => ({ op: 'create' as const, object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `stop-${i}`, namespace: ns } }, reason: 'test' }));
    const result = await applyPlan(kube, { ...emptyPlan(), writes }, { component: COMPONENT, now: () => new Date(), shouldContinue: () => ++asked < 2 });
    // The first check is shared by the writes that asked concurrently; every later one says stop.
    expect(result.applied).toBeGreaterThanOrEqual(1);
    expect(result.applied).toBeLessThanOrEqual(WRITE_CONCURRENCY);
    expect(result.applied + result.stopped).toBe(20);
    const existing = (await kube.list<KubeObject>('v1', 'ConfigMap', { namespace: ns })).items.filter((c) => c.metadata?.name?.startsWith('stop-'));
    expect(existing).toHaveLength(result.applied);
  });

  it('records Events aggregated: the same note twice is one Event with count 2', async () => {
    const rd = await getDistribution();
    const note: EventNote = { regarding: { apiVersion: RD_API, kind: 'ResourceDistribution', name: rdName, uid: rd.metadata.uid }, type: 'Warning', reason: 'ConflictOccurred', message: `test ${RUN}` };
    expect(await act({ events: [note] })).toMatchObject({ applied: 1 });
    expect(await act({ events: [note] })).toMatchObject({ applied: 1 });
    // Cluster-scoped object: its Events live in 'default'.
    const event = await kube.get<CoreEvent>('v1', 'Event', eventName(note, COMPONENT), 'default');
    expect(event).toMatchObject({ count: 2, type: 'Warning', reason: 'ConflictOccurred', involvedObject: { kind: 'ResourceDistribution', name: rdName } });
  });
});

describe('the Node loop and its own writes', () => {
  const STEP = 'rt-test/step';
  const STEPPED = 'rt-test/stepped';
  type Stepped = { maps: ConfigMap[] };
  // Takes each labelled ConfigMap through steps 1, 2, 3, one write per run, and nothing else
  // writes to them: only the change events of its own writes can start the runs after the first.
  const stepper = (runs: { scope: string }[]): Reconciler<Stepped> => ({
    kind: 'RtStepper', apiVersion: 'v1',
    async observe(reader, scope) {
      runs.push({ scope: scope.kind === 'all' ? '*' : scope.objects.map((o) => o.name).join(',') });
      return { maps: (await reader.list<ConfigMap>('v1', 'ConfigMap', { namespace: ns, labelSelector: `${STEPPED}=true` })).items };
    },
    decide({ maps }) {
      const plan = emptyPlan();
      for (const m of maps) {
        const step = Number(m.metadata.annotations?.[STEP] ?? '0');
        if (step >= 3) continue;
        plan.writes.push({ op: 'patch', target: { apiVersion: 'v1', kind: 'ConfigMap', name: m.metadata.name, namespace: ns },
          patch: { metadata: { annotations: { [STEP]: String(step + 1) } } }, patchType: 'merge', reason: `step ${step + 1}` });
      }
      return plan;
    },
    triggers: [{ apiVersion: 'v1', kind: 'ConfigMap', objectsOf: (o) => ((o.metadata?.labels as Record<string, string> | undefined)?.[STEPPED] === 'true' && o.metadata?.namespace === ns ? [{ namespace: ns, name: o.metadata?.name ?? '' }] : []) }],
  });

  it('a plan that takes several steps of its own still finishes them all, each of its own writes observed by a run', async () => {
    const runs: { scope: string }[] = [];
    const stop = new AbortController();
    const r = stepper(runs);
    const loop = runLoop({ kube, reconcilers: [r], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal, run: (rec, scope) => runReconciler(kube, rec, { scope, identity: `loop-${RUN}`, shard: shard('stepper') }) });
    try {
      await eventually('the first full run', async () => (runs.length > 0 ? true : undefined));
      await kube.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stepped', namespace: ns, labels: { [STEPPED]: 'true' } } });
      await eventually('step 3', async () => ((await getConfigMap('stepped')).metadata.annotations?.[STEP] === '3' ? true : undefined));
      // The create's run, then one run to observe each step's write (the last one finds nothing to do).
      const forIt = () => runs.filter((x) => x.scope === 'stepped').length;
      await eventually('a run that observes step 3', async () => (forIt() >= 4 ? true : undefined));
      expect(forIt()).toBeLessThanOrEqual(5);
    } finally {
      stop.abort();
      await loop;
    }
  });
});
