import { describe, expect, it } from 'vitest';
import { MemoryLedgers } from '../edge-state/ledger.js';
import type { AdmissionInput, Verdict } from '../admission/types.js';
import type { ClusterState, Snapshot } from '../edge-state/contracts.js';
import { KRUISE_CONFIGURATION_COLLECTION } from '../kube/kruise-configuration.js';
import { WORKLOADSPREADS_COLLECTION, WORKLOADSPREAD_PODS_COLLECTION, workloadSpreadPodsCollection } from './collections.js';
import { parseMatchedWorkloadSpread } from './inject.js';
import { workloadSpreadLedgerKind, WORKLOADSPREAD_LEDGER, type WorkloadSpreadLedger } from './ledger.js';
import { pod, subset, workloadSpread } from './test-builders.js';
import { MATCHED_WORKLOADSPREAD_ANNOTATION, type Pod, type WorkloadSpread } from './types.js';
import { makePlacePodHandler, makeRecordDeletionHandler, makeRecordEvictionHandler } from './webhook.js';

const NOW = 5_000_000;
const deploymentRs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-abc', namespace: 'default', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', controller: true }] } };
const deploymentObj = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 10 } };

function clusterState(spreads: WorkloadSpread[] | undefined, ledgers: MemoryLedgers | undefined, extra: Record<string, unknown[] | undefined> = {}): ClusterState {
  const collections: Record<string, unknown[] | undefined> = {
    [WORKLOADSPREADS_COLLECTION]: spreads,
    [KRUISE_CONFIGURATION_COLLECTION]: [],
    'workloadspread-replicasets': [deploymentRs],
    'workloadspread-deployments': [deploymentObj],
    ...extra,
  };
  return {
    collection: async <T,>(name: string) => {
      const items = collections[name];
      return items ? ({ items: items as T[], resourceVersion: '1', observedAt: NOW - 1000 } satisfies Snapshot<T>) : undefined;
    },
    ...(ledgers ? { ledgers } : {}),
  };
}

function createReq(p: Pod, o: Partial<AdmissionInput<Pod>> = {}): AdmissionInput<Pod> {
  return {
    uid: 'r', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' }, namespace: 'default',
    operation: 'CREATE', userInfo: {}, object: p, dryRun: false, clusterId: 'c', ...o,
  };
}

let keys = 0;
const place = makePlacePodHandler({ newKey: () => `key-${++keys}` });
const newLedgers = () => new MemoryLedgers([workloadSpreadLedgerKind], () => NOW);
const subsetOf = (v: Verdict<Pod>) => (v.allowed && v.object ? parseMatchedWorkloadSpread(v.object)?.subset : undefined);

describe('pod CREATE', () => {
  const spread = workloadSpread({ subsets: [subset('a', { maxReplicas: 1, tolerations: [{ key: 'a', operator: 'Exists' }] }), subset('b')] });

  it('places pods in order of room and injects the subset', async () => {
    const state = clusterState([spread], newLedgers());
    const first = await place(createReq(pod()), state, { now: NOW });
    const second = await place(createReq(pod()), state, { now: NOW });
    expect([subsetOf(first), subsetOf(second)]).toEqual(['a', 'b']);
    expect(first.allowed && first.object?.spec?.tolerations).toEqual([{ key: 'a', operator: 'Exists' }]);
    expect(first.allowed && first.object?.metadata?.annotations?.[MATCHED_WORKLOADSPREAD_ANNOTATION]).toMatch(/^\{"name":"spread","subset":"a","uid":"key-\d+"\}$/);
  });

  it.each<[string, Pod, Partial<AdmissionInput<Pod>>]>([
    ['dry run is skipped (§3.3)', pod(), { dryRun: true }],
    ['subresource', pod(), { subResource: 'status' }],
    ['no controller', pod({ owner: null as never }), {}],
    ['succeeded pod', pod({ phase: 'Succeeded' }), {}],
    ['unhandled owner', pod({ owner: { apiVersion: 'v1', kind: 'ReplicationController', name: 'rc' } }), {}],
  ])('left alone: %s', async (_name, p, o) => {
    expect(await place(createReq(p, o), clusterState([spread], newLedgers()), { now: NOW })).toEqual({ allowed: true });
  });

  it('preview dry run injects without spending', async () => {
    const ledgers = newLedgers();
    const preview = makePlacePodHandler({ dryRun: 'preview', newKey: () => 'k' });
    const v = await preview(createReq(pod(), { dryRun: true }), clusterState([spread], ledgers), { now: NOW });
    expect(subsetOf(v)).toBe('a');
    expect(await ledgers.apply(ledgerRef(), 'read', {})).toBeNull();
  });

  it.each<[string, ClusterState, RegExp]>([
    ['no ledger', clusterState([spread], undefined), /no subset ledger/],
    ['WorkloadSpreads never pushed', clusterState(undefined, newLedgers()), /no WorkloadSpreads were pushed/],
    ['owner kind never pushed', clusterState([spread], newLedgers(), { 'workloadspread-replicasets': undefined }), /collection workloadspread-replicasets was never pushed/],
  ])('falls back without a subset: %s', async (_name, state, why) => {
    const p = pod({ labels: { app: 'web' } });
    const v = await place(createReq(p), state, { now: NOW });
    expect(v.allowed && v.object).toBeFalsy();
    expect(v.warnings?.[0]).toMatch(why);
  });

  it('an owner that does not exist fails the pod with the NotFound message, as OpenKruise', async () => {
    const v = await place(createReq(pod({ labels: { app: 'web' } })), clusterState([spread], newLedgers(), { 'workloadspread-replicasets': [] }), { now: NOW });
    expect(v).toEqual({ allowed: false, code: 500, message: 'replicasets.apps "web-abc" not found' });
  });

  it('StatefulSet targets go by ordinal without the ledger', async () => {
    const sts = workloadSpread({ targetRef: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' }, subsets: [subset('a', { maxReplicas: 2 }), subset('b')] });
    const stsPod = (name: string) => pod({ name, owner: { apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db' }, labels: {} });
    const state = clusterState([sts], undefined);
    expect(subsetOf(await place(createReq(stsPod('db-1')), state, { now: NOW }))).toBe('a');
    expect(subsetOf(await place(createReq(stsPod('db-2')), state, { now: NOW }))).toBe('b');
  });

  it('a single unlimited subset needs no ledger', async () => {
    const one = workloadSpread({ subsets: [subset('only')] });
    expect(subsetOf(await place(createReq(pod()), clusterState([one], undefined), { now: NOW }))).toBe('only');
  });

  it('percent limits use the pushed target replicas', async () => {
    const pct = workloadSpread({ subsets: [subset('a', { maxReplicas: '20%' }), subset('b', { maxReplicas: '80%' })] });
    const state = clusterState([pct], newLedgers());
    const placed = [];
    for (let i = 0; i < 11; i++) placed.push(subsetOf(await place(createReq(pod()), state, { now: NOW })));
    expect(placed.filter((s) => s === 'a')).toHaveLength(2);
    expect(placed.filter((s) => s === 'b')).toHaveLength(8);
    expect(placed[10]).toBeUndefined();
  });

  it('an injection error fails the request', async () => {
    const bad = workloadSpread({ subsets: [subset('a', { maxReplicas: 1, patch: { spec: { containers: [{ image: 'x' }] } } }), subset('b')] });
    const v = await place(createReq(pod()), clusterState([bad], newLedgers()), { now: NOW });
    expect(v).toMatchObject({ allowed: false, code: 500 });
  });
});

function ledgerRef() {
  return { kind: WORKLOADSPREAD_LEDGER, namespace: 'default', name: 'spread' };
}

describe('pod DELETE', () => {
  const spread = workloadSpread({ subsets: [subset('a', { maxReplicas: 1 }), subset('b')] });
  const annotated = (name: string) => pod({ name, annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"spread","subset":"a"}' } });
  const deleteReq = (p: Pod, o: Partial<AdmissionInput<Pod>> = {}) => createReq(undefined as never, { operation: 'DELETE', oldObject: p, ...o });
  const record = makeRecordDeletionHandler();

  it('records the deletion so the room comes back', async () => {
    const ledgers = newLedgers();
    const state = clusterState([spread], ledgers);
    expect(subsetOf(await place(createReq(pod()), state, { now: NOW }))).toBe('a');
    expect(await record(deleteReq(annotated('web-abc-1')), state, { now: NOW })).toEqual({ allowed: true });
    const held = await ledgers.apply<WorkloadSpreadLedger>(ledgerRef(), 'read', {});
    expect(held.versions.abc![0]!.deletingPods).toEqual({ 'web-abc-1': NOW });
    expect(subsetOf(await place(createReq(pod()), state, { now: NOW }))).toBe('a');
  });

  it('a pod deleted before the controller counted it gives back its creation entry (found by the annotation uid)', async () => {
    const ledgers = newLedgers();
    const state = clusterState([spread], ledgers);
    const placed = await place(createReq(pod()), state, { now: NOW });
    const annotation = placed.allowed ? placed.object?.metadata?.annotations?.[MATCHED_WORKLOADSPREAD_ANNOTATION] : undefined;
    expect(annotation).toMatch(/"uid":/);
    const created = pod({ name: 'web-abc-1', annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: annotation! } });
    expect(await record(deleteReq(created), state, { now: NOW })).toEqual({ allowed: true });
    const held = await ledgers.apply<WorkloadSpreadLedger>(ledgerRef(), 'read', {});
    expect(held.versions.abc![0]).toMatchObject({ creatingPods: {}, deletingPods: {} });
  });

  it.each<[string, Pod, Partial<AdmissionInput<Pod>>]>([
    ['no annotation', pod({ name: 'p' }), {}],
    ['dry run', annotated('p'), { dryRun: true }],
    ['terminating pod', { ...annotated('p'), metadata: { ...annotated('p').metadata, deletionTimestamp: new Date(0) } }, {}],
    ['unknown WorkloadSpread', pod({ name: 'p', annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"other","subset":"a"}' } }), {}],
  ])('nothing recorded: %s', async (_name, p, o) => {
    const ledgers = newLedgers();
    expect(await record(deleteReq(p, o), clusterState([spread], ledgers), { now: NOW })).toEqual({ allowed: true });
    expect(await ledgers.apply(ledgerRef(), 'read', {})).toBeNull();
  });
});

describe('pods/eviction', () => {
  const spread = workloadSpread({ subsets: [subset('a', { maxReplicas: 1 }), subset('b')] });
  const evict = makeRecordEvictionHandler();
  const evictionReq = (name: string, o: Partial<AdmissionInput<Pod>> = {}) =>
    createReq({ apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name, namespace: 'default' } } as unknown as Pod, { subResource: 'eviction', name, ...o });
  // The pod as the reconciler pushes it: the collection's own projection of the live object.
  const pushed = (name: string) => workloadSpreadPodsCollection.project!(pod({ name, annotations: { [MATCHED_WORKLOADSPREAD_ANNOTATION]: '{"name":"spread","subset":"a"}' } }) as unknown as Record<string, unknown>);

  it('records the eviction of a pushed pod against its subset', async () => {
    const ledgers = newLedgers();
    const state = clusterState([spread], ledgers, { [WORKLOADSPREAD_PODS_COLLECTION]: [pushed('web-abc-1')] });
    expect(subsetOf(await place(createReq(pod()), state, { now: NOW }))).toBe('a');
    expect(await evict(evictionReq('web-abc-1'), state, { now: NOW })).toEqual({ allowed: true });
    const held = await ledgers.apply<WorkloadSpreadLedger>(ledgerRef(), 'read', {});
    expect(held.versions.abc![0]!.deletingPods).toEqual({ 'web-abc-1': NOW });
  });

  it.each<[string, string, Partial<AdmissionInput<Pod>>, RegExp | undefined]>([
    ['a pod not pushed yet: admitted with a warning', 'web-abc-9', {}, /not in the pushed state yet/],
    ['a dry-run eviction', 'web-abc-1', { dryRun: true }, undefined],
  ])('nothing recorded: %s', async (_n, name, o, warning) => {
    const ledgers = newLedgers();
    const v = await evict(evictionReq(name, o), clusterState([spread], ledgers, { [WORKLOADSPREAD_PODS_COLLECTION]: [pushed('web-abc-1')] }), { now: NOW });
    expect(v.allowed).toBe(true);
    if (warning) expect(v.warnings?.join()).toMatch(warning);
    else expect(v.warnings).toBeUndefined();
    expect(await ledgers.apply(ledgerRef(), 'read', {})).toBeNull();
  });

  it('namespaces without WorkloadSpreads are not looked at', async () => {
    expect(await evict(evictionReq('x'), clusterState([], newLedgers()), { now: NOW })).toEqual({ allowed: true });
  });
});
