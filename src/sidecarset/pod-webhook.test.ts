import { describe, expect, it } from 'vitest';
import type { V1ControllerRevision, V1Pod } from '@kubernetes/client-node';
import type { AdmissionInput } from '../admission/types.js';
import type { ClusterState, Snapshot } from '../edge-state/contracts.js';
import { NAMESPACES_COLLECTION, SIDECARSETS_COLLECTION, SIDECARSET_REVISIONS_COLLECTION } from './collections.js';
import { defaultSidecarSet } from './defaults.js';
import { makeSidecarSetExplainer } from './explain.js';
import { makeInjectSidecarsHandler } from './pod-webhook.js';
import { InjectionPlanCache } from './plan.js';
import type { SidecarSet } from './types.js';

type Spec = SidecarSet['spec'];
function set(name: string, spec: Partial<Spec> = {}): SidecarSet {
  return defaultSidecarSet({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet',
    metadata: { name, annotations: { 'kruise.io/sidecarset-hash': `h-${name}`, 'kruise.io/sidecarset-hash-without-image': `w-${name}` } },
    spec: { selector: { matchLabels: { app: 'web' } }, containers: [{ name: `${name}-c`, image: `${name}:2` }], ...spec } as Spec,
  } as SidecarSet);
}

function revision(name: string, setName: string, image: string, extra: { labels?: Record<string, string>; revision?: number; hashed?: boolean } = {}): V1ControllerRevision {
  return {
    apiVersion: 'apps/v1', kind: 'ControllerRevision', revision: extra.revision ?? 1,
    metadata: {
      name, namespace: 'kruise-system', labels: { 'kruise.io/sidecarset-name': setName, ...extra.labels },
      ...(extra.hashed === false ? {} : { annotations: { 'kruise.io/sidecarset-hash': `h-${name}`, 'kruise.io/sidecarset-hash-without-image': `w-${name}` } }),
    },
    data: { spec: { $patch: 'replace', containers: [{ name: `${setName}-c`, image, podInjectPolicy: 'BeforeAppContainer' }] } },
  };
}

const snap = <T>(items: T[]): Snapshot<T> => ({ items, resourceVersion: String(items.length), observedAt: 1_000 });
function state(sets: SidecarSet[], revisions: V1ControllerRevision[] = [], namespaces: Record<string, Record<string, string>> = { prod: { env: 'prod' }, dev: {} }): ClusterState {
  const all: Record<string, unknown[]> = {
    [SIDECARSETS_COLLECTION]: sets,
    [NAMESPACES_COLLECTION]: Object.entries(namespaces).map(([name, labels]) => ({ metadata: { name, labels } })),
    [SIDECARSET_REVISIONS_COLLECTION]: revisions,
  };
  return { collection: async <T>(name: string) => (all[name] ? (snap(all[name]) as Snapshot<T>) : undefined) };
}

function podIn(namespace: string, labels: Record<string, string> = { app: 'web' }): V1Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace, labels }, spec: { containers: [{ name: 'main', image: 'app:1' }] } };
}

function review(pod: V1Pod, extra: Partial<AdmissionInput<V1Pod>> = {}): AdmissionInput<V1Pod> {
  return {
    uid: 'u', kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
    namespace: pod.metadata?.namespace ?? '', operation: 'CREATE', userInfo: {}, dryRun: false, clusterId: 'c', object: pod, ...extra,
  };
}

async function injectedImages(st: ClusterState, pod: V1Pod, random = 0.5, extra: Partial<AdmissionInput<V1Pod>> = {}) {
  const handle = makeInjectSidecarsHandler({ random: () => random });
  const v = await handle(review(pod, extra), st, { now: 5_000 });
  if (!v.allowed) return { denied: v.message, code: v.code };
  return { images: ((v.object ?? pod).spec?.containers ?? []).map((c) => c.image) };
}

describe('pod injection: matching', () => {
  it.each([
    ['selector matches', [set('a')], podIn('prod'), ['a:2', 'app:1']],
    ['selector does not match', [set('a')], podIn('prod', { app: 'db' }), undefined],
    ['spec.namespace other', [set('a', { namespace: 'dev' })], podIn('prod'), undefined],
    ['spec.namespace same', [set('a', { namespace: 'prod' })], podIn('prod'), ['a:2', 'app:1']],
    ['namespaceSelector matches namespace labels', [set('a', { namespaceSelector: { matchLabels: { env: 'prod' } } })], podIn('prod'), ['a:2', 'app:1']],
    ['namespaceSelector on another namespace', [set('a', { namespaceSelector: { matchLabels: { env: 'prod' } } })], podIn('dev'), undefined],
    ['namespace unknown to state', [set('a', { namespaceSelector: { matchLabels: { env: 'prod' } } })], podIn('new'), undefined],
    ['injection paused', [set('a', { injectionStrategy: { paused: true } })], podIn('prod'), undefined],
    ['empty selector matches nothing', [set('a', { selector: {} })], podIn('prod'), undefined],
    ['two sets, list order', [set('a'), set('b')], podIn('prod'), ['a:2', 'b:2', 'app:1']],
  ])('%s', async (_n, sets, pod, want) => {
    const r = await injectedImages(state(sets), pod);
    expect(r).toEqual({ images: want ?? ['app:1'] });
  });

  it.each([
    ['a subresource', { subResource: 'status' }],
    ['an UPDATE', { operation: 'UPDATE' as const }],
  ])('skips %s', async (_n, extra) => {
    expect(await injectedImages(state([set('a')]), podIn('prod'), 0.5, extra)).toEqual({ images: ['app:1'] });
  });

  it('fails the pod for an invalid selector operator (code 500, as OpenKruise)', async () => {
    const bad = set('a', { selector: { matchExpressions: [{ key: 'app', operator: 'Near', values: ['x'] }] } });
    expect(await injectedImages(state([bad]), podIn('prod'))).toEqual({ code: 500, denied: expect.stringContaining('"Near" is not a valid pod selector operator') });
  });
});

describe('pod injection: revisions (§2.4.3)', () => {
  const pinned = (policy?: 'Always' | 'Partial', us: Partial<Spec['updateStrategy']> = {}) =>
    set('a', { injectionStrategy: { revision: { revisionName: 'a-old', ...(policy ? { policy } : {}) } }, updateStrategy: { type: 'RollingUpdate', ...us } });

  it.each([
    ['policy Always injects the pinned revision', pinned('Always'), 0.5, 'a:1'],
    ['policy Partial, no partition: the latest', pinned('Partial'), 0.5, 'a:2'],
    ['policy Partial, 30% partition, draw 0.2: the revision', pinned('Partial', { partition: '30%' }), 0.2, 'a:1'],
    ['policy Partial, 30% partition, draw 0.7: the latest', pinned('Partial', { partition: '30%' }), 0.7, 'a:2'],
    ['updateStrategy.paused: the revision', pinned('Partial', { paused: true }), 0.9, 'a:1'],
    ['Partial with a selector that skips the pod: the revision', pinned('Partial', { selector: { matchLabels: { canary: 'yes' } } }), 0.9, 'a:1'],
  ])('%s', async (_n, s, draw, image) => {
    const r = await injectedImages(state([s], [revision('a-old', 'a', 'a:1')]), podIn('prod'), draw);
    expect(r).toEqual({ images: [image, 'app:1'] });
  });

  it('picks the highest revision for a customVersion', async () => {
    const s = set('a', { injectionStrategy: { revision: { customVersion: 'v1' } } });
    const revs = [
      revision('a-r1', 'a', 'a:0', { labels: { 'apps.kruise.io/sidecarset-custom-version': 'v1' }, revision: 1 }),
      revision('a-r3', 'a', 'a:1', { labels: { 'apps.kruise.io/sidecarset-custom-version': 'v1' }, revision: 3 }),
      revision('a-r4', 'a', 'a:9', { labels: { 'apps.kruise.io/sidecarset-custom-version': 'v2' }, revision: 4 }),
    ];
    expect(await injectedImages(state([s], revs), podIn('prod'))).toEqual({ images: ['a:1', 'app:1'] });
  });

  it('records the revision and its hash on the pod; hashes a revision stored without them', async () => {
    const handle = makeInjectSidecarsHandler({ random: () => 0.5 });
    const v = await handle(review(podIn('prod')), state([pinned('Always')], [revision('a-old', 'a', 'a:1', { hashed: false })]), { now: 5_000 });
    if (!v.allowed) throw new Error(v.message);
    const entry = JSON.parse(v.object!.metadata!.annotations!['kruise.io/sidecarset-hash']!).a;
    expect(entry.controllerRevision).toBe('a-old');
    expect(entry.hash).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{64}$/);
  });

  it('fails the pod when the pinned revision does not exist', async () => {
    expect(await injectedImages(state([pinned('Always')]), podIn('prod'))).toEqual({ code: 500, denied: expect.stringContaining('ControllerRevision "a-old" not found') });
  });
});

describe('injection plan cache', () => {
  it('builds once per state version', async () => {
    const plans = new InjectionPlanCache();
    const st = state([set('a')]);
    const inputs = async () => ({
      sets: (await st.collection<SidecarSet>(SIDECARSETS_COLLECTION))!,
      namespaces: (await st.collection<{ metadata?: { name?: string } }>(NAMESPACES_COLLECTION))!,
      revisions: (await st.collection<V1ControllerRevision>(SIDECARSET_REVISIONS_COLLECTION))!,
      kruiseNamespace: 'kruise-system',
    });
    const first = await plans.get('c', await inputs());
    expect(await plans.get('c', await inputs())).toBe(first);
    expect(await plans.get('c', { ...(await inputs()), sets: { ...(await inputs()).sets, resourceVersion: 'new' } })).not.toBe(first);
  });
});

describe('explain', () => {
  it('says which sets would be injected and why the others would not', async () => {
    const sets = [set('a'), set('b', { namespace: 'dev' }), set('c', { namespaceSelector: { matchLabels: { env: 'prod' } } }), set('d', { injectionStrategy: { paused: true } })];
    const explain = makeSidecarSetExplainer();
    const r = await explain({ pod: podIn('dev'), namespace: 'dev' }, state(sets), { clusterId: 'c', now: 3_000 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      namespace: 'dev', injected: ['a', 'b'], containers: ['a-c', 'b-c', 'main'], state: { ageMs: 2_000 },
      sets: [
        { sidecarSet: 'a', injected: true },
        { sidecarSet: 'b', injected: true },
        { sidecarSet: 'c', injected: false, reason: 'spec.namespaceSelector does not match the labels of namespace "dev"' },
        { sidecarSet: 'd', injected: false, reason: 'spec.injectionStrategy.paused is true' },
      ],
    });
  });

  it('answers 503 before any state is pushed, 400 for a body that is not a pod', async () => {
    const explain = makeSidecarSetExplainer();
    const empty: ClusterState = { collection: async () => undefined };
    expect((await explain(podIn('dev'), empty, { clusterId: 'c', now: 0 })).status).toBe(503);
    expect((await explain([1], empty, { clusterId: 'c', now: 0 })).status).toBe(400);
  });

  it('reports the error a pod creation would fail with', async () => {
    const s = set('a', { injectionStrategy: { revision: { revisionName: 'gone' } } });
    const r = await makeSidecarSetExplainer()(podIn('prod'), state([s]), { clusterId: 'c', now: 0 });
    expect(r.body).toMatchObject({ injected: [], error: expect.stringContaining('pod creation would fail') });
  });
});

describe('EnableSortSidecarContainerByName through the webhook and explain', () => {
  const sets = [set('b', { containers: [{ name: 'zeta', image: 'z:1' }] }), set('a', { containers: [{ name: 'beta', image: 'b:1' }] })];
  const containerNames = async (sort: boolean) => {
    const v = await makeInjectSidecarsHandler({ random: () => 0.5, sortSidecarContainersByName: sort })(review(podIn('prod')), state(sets), { now: 5_000 });
    return ((v.allowed ? v.object : undefined)?.spec?.containers ?? []).map((c) => c.name);
  };

  it('off by default: the sets’ order; on: sorted by name', async () => {
    expect(await containerNames(false)).toEqual(['zeta', 'beta', 'main']);
    expect(await containerNames(true)).toEqual(['beta', 'zeta', 'main']);
    const explained = await makeSidecarSetExplainer({ sortSidecarContainersByName: true })(podIn('prod'), state(sets), { now: 5_000, clusterId: 'c' });
    expect((explained.body as { containers?: string[] }).containers).toEqual(['beta', 'zeta', 'main']);
  });
});
