import { describe, expect, it } from 'vitest';
import type { Write } from '../reconcile/types.js';
import { decideResourceDistributions } from './decide.js';
import { hashResource } from './hash.js';
import type { ResourceDistributionObserved } from './observe.js';
import {
  ANNOTATION_FROM,
  ANNOTATION_HASH,
  ANNOTATION_TIMESTAMP,
  COPY_LABEL,
  type DistributedObject,
  type NamespaceFacts,
  type ResourceDistribution,
  type ResourceDistributionTargets,
} from './types.js';

const NOW = new Date('2024-05-01T10:00:00.123Z');
const NOW_TEXT = '2024-05-01T10:00:00Z';
const EARLIER = '2024-04-01T00:00:00Z';

type RdOpts = { name?: string; uid?: string; generation?: number; data?: Record<string, string>; resource?: Record<string, unknown>; targets?: ResourceDistributionTargets; status?: unknown; deleting?: boolean };

function rd(o: RdOpts = {}): ResourceDistribution {
  const name = o.name ?? 'sample';
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'ResourceDistribution',
    metadata: { name, uid: o.uid ?? `uid-${name}`, generation: o.generation ?? 1, resourceVersion: '100', ...(o.deleting ? { deletionTimestamp: EARLIER } : {}) },
    spec: {
      resource: o.resource ?? { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo' }, data: o.data ?? { color: 'blue' } },
      targets: o.targets ?? { includedNamespaces: { list: [{ name: 'ns-1' }, { name: 'ns-2' }] } },
    },
    ...(o.status ? { status: o.status } : {}),
  } as unknown as ResourceDistribution;
}

const hashOf = (r: ResourceDistribution) => hashResource(r.spec.resource);
const ownerRef = (r: ResourceDistribution) => ({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: r.metadata.name!, uid: r.metadata.uid!, controller: true, blockOwnerDeletion: true });

type CopyOpts = { name?: string; kind?: 'ConfigMap' | 'Secret'; data?: Record<string, string>; hash?: string; labels?: Record<string, string>; annotations?: Record<string, string>; ownerReferences?: unknown[]; extra?: Record<string, unknown>; deleting?: boolean };

function object(namespace: string, o: CopyOpts = {}): DistributedObject {
  return {
    apiVersion: 'v1',
    kind: o.kind ?? 'ConfigMap',
    metadata: {
      name: o.name ?? 'game-demo', namespace, uid: `uid-${namespace}`, resourceVersion: `rv-${namespace}`,
      ...(o.labels ? { labels: o.labels } : {}),
      ...(o.annotations ? { annotations: o.annotations } : {}),
      ...(o.ownerReferences ? { ownerReferences: o.ownerReferences } : {}),
      ...(o.deleting ? { deletionTimestamp: EARLIER } : {}),
    },
    ...(o.data === undefined ? { data: { color: 'blue' } } : { data: o.data }),
    ...o.extra,
  } as DistributedObject;
}

/** A copy we wrote for `r`, up to date unless told otherwise. */
function ours(r: ResourceDistribution, namespace: string, o: CopyOpts = {}): DistributedObject {
  return object(namespace, {
    ...o,
    labels: { [COPY_LABEL]: r.metadata.name!, ...o.labels },
    annotations: { [ANNOTATION_FROM]: r.metadata.name!, [ANNOTATION_HASH]: o.hash ?? hashOf(r), [ANNOTATION_TIMESTAMP]: EARLIER, ...o.annotations },
    ownerReferences: o.ownerReferences ?? [ownerRef(r)],
  });
}

/** A copy OpenKruise wrote for `r`: annotations and controller reference, no label. */
function openKruises(r: ResourceDistribution, namespace: string, o: CopyOpts = {}): DistributedObject {
  return object(namespace, {
    ...o,
    annotations: { [ANNOTATION_FROM]: r.metadata.name!, [ANNOTATION_HASH]: o.hash ?? hashOf(r) },
    ownerReferences: [{ ...ownerRef(r), blockOwnerDeletion: true }],
  });
}

const ns = (name: string, phase: NamespaceFacts['phase'] = 'Active', labels: Record<string, string> = {}): NamespaceFacts => ({ name, phase, labels });
const NAMESPACES = [ns('default'), ns('ns-1'), ns('ns-2'), ns('ns-3'), ns('dying', 'Terminating')];

function observed(distributions: ResourceDistribution[], objects: DistributedObject[] = [], namespaces = NAMESPACES): ResourceDistributionObserved {
  return { distributions, namespaces, objects };
}

/** `create ConfigMap ns-1/game-demo`-style summary of the writes. */
function summary(writes: Write[]): string[] {
  return writes.map((w) => {
    if (w.op === 'create' || w.op === 'update') return `${w.op} ${w.object.kind} ${w.object.metadata?.namespace}/${w.object.metadata?.name}`;
    return `${w.op} ${w.target.kind} ${w.target.namespace}/${w.target.name}`;
  });
}

function settledStatus(r: ResourceDistribution, over: Record<string, unknown> = {}) {
  const conditions = ['GetResourceFailed', 'CreateResourceFailed', 'UpdateResourceFailed', 'DeleteResourceFailed', 'ConflictOccurred', 'NamespaceNotExists']
    .map((type) => ({ type, status: 'False', lastTransitionTime: EARLIER, reason: 'Succeeded' }));
  return { desired: 2, succeeded: 2, failed: 0, observedGeneration: r.metadata.generation, conditions, ...over };
}

describe('decideResourceDistributions: writes', () => {
  const base = rd();
  const changed = rd({ data: { color: 'green' } });
  const other = rd({ name: 'other' });

  it.each<[string, ResourceDistributionObserved, string[]]>([
    ['creates a copy in every target namespace without one', observed([base]), ['create ConfigMap ns-1/game-demo', 'create ConfigMap ns-2/game-demo']],
    ['does nothing when every copy is up to date', observed([base], [ours(base, 'ns-1'), ours(base, 'ns-2')]), []],
    ['creates only where missing', observed([base], [ours(base, 'ns-1')]), ['create ConfigMap ns-2/game-demo']],
    ['updates copies whose hashcode differs', observed([changed], [ours(changed, 'ns-1', { hash: hashOf(base) }), ours(changed, 'ns-2', { hash: hashOf(base) })]),
      ['update ConfigMap ns-1/game-demo', 'update ConfigMap ns-2/game-demo']],
    ['puts back content changed in place (hash unchanged)', observed([base], [ours(base, 'ns-1', { data: { color: 'hacked' } }), ours(base, 'ns-2')]), ['update ConfigMap ns-1/game-demo']],
    ['deletes copies in namespaces no longer targeted', observed([base], [ours(base, 'ns-1'), ours(base, 'ns-2'), ours(base, 'ns-3')]), ['delete ConfigMap ns-3/game-demo']],
    ['deletes OpenKruise copies no longer targeted', observed([base], [ours(base, 'ns-1'), ours(base, 'ns-2'), openKruises(base, 'ns-3')]), ['delete ConfigMap ns-3/game-demo']],
    ['leaves copies in terminating namespaces to the namespace deletion', observed([base], [ours(base, 'ns-1'), ours(base, 'ns-2'), ours(base, 'dying')]), []],
    ['leaves copies already being deleted', observed([base], [ours(base, 'ns-1'), ours(base, 'ns-2'), ours(base, 'ns-3', { deleting: true })]), []],
    ['deletes a copy of the previous resource name', observed([base], [ours(base, 'ns-1'), ours(base, 'ns-2'), ours(base, 'ns-1', { name: 'old-name' })]), ['delete ConfigMap ns-1/old-name']],
    ['deletes a copy of the previous kind', observed([base], [ours(base, 'ns-1'), ours(base, 'ns-2'), ours(base, 'ns-2', { kind: 'Secret' })]), ['delete Secret ns-2/game-demo']],
    ['never deletes an untargeted object it does not own', observed([base], [ours(base, 'ns-1'), ours(base, 'ns-2'), object('ns-3'), ours(other, 'ns-3')]), []],
    ['never deletes an object that only claims it in an annotation', observed([base], [ours(base, 'ns-1'), ours(base, 'ns-2'),
      object('ns-3', { annotations: { [ANNOTATION_FROM]: 'sample' } })]), []],
    ['adopts an up-to-date OpenKruise copy with a merge patch', observed([base], [openKruises(base, 'ns-1'), ours(base, 'ns-2')]), ['patch ConfigMap ns-1/game-demo']],
    ['adopts a stale OpenKruise copy with an update', observed([changed], [openKruises(changed, 'ns-1', { hash: 'old' }), ours(changed, 'ns-2', { data: { color: 'green' } })]), ['update ConfigMap ns-1/game-demo']],
    ['adopts an unowned copy that names it in resource.from', observed([base], [object('ns-1', { annotations: { [ANNOTATION_FROM]: 'sample', [ANNOTATION_HASH]: hashOf(base) } }), ours(base, 'ns-2')]),
      ['patch ConfigMap ns-1/game-demo']],
    ['restores a removed ownerReference', observed([base], [ours(base, 'ns-1', { ownerReferences: [] }), ours(base, 'ns-2')]), ['patch ConfigMap ns-1/game-demo']],
    ['replaces an ownerReference to a previous distribution of the same name', observed([base], [ours(base, 'ns-1', { ownerReferences: [{ ...ownerRef(base), uid: 'gone' }] }), ours(base, 'ns-2')]),
      ['patch ConfigMap ns-1/game-demo']],
    ['skips a foreign same-named object (no annotation)', observed([base], [object('ns-1'), ours(base, 'ns-2')]), []],
    ['skips a copy whose resource.from names another distribution', observed([base], [ours(other, 'ns-1'), ours(base, 'ns-2')]), []],
    ['skips an object controlled by something else', observed([base], [object('ns-1', {
      annotations: { [ANNOTATION_FROM]: 'sample' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'x', uid: 'u', controller: true }],
    }), ours(base, 'ns-2')]), []],
    ['the first distribution by name wins a name both would create', observed([rd({ name: 'b-second' }), rd({ name: 'a-first' })]),
      ['create ConfigMap ns-1/game-demo', 'create ConfigMap ns-2/game-demo']],
    ['does nothing for a distribution being deleted', observed([rd({ deleting: true })]), []],
    ['does nothing for an unsupported resource', observed([rd({ resource: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' } } })]), []],
    ['does nothing for a resource without a name', observed([rd({ resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: {} } })]), []],
    ['does nothing for an unusable selector', observed([rd({ targets: { namespaceLabelSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } } })]), []],
    ['distributes Secrets too', observed([rd({ resource: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { k: 'dg==' } } })]),
      ['create Secret ns-1/s', 'create Secret ns-2/s']],
  ])('%s', (_name, obs, want) => {
    expect(summary(decideResourceDistributions(obs, NOW).writes)).toEqual(want);
  });

  it('a created copy carries the annotations, our label and a controller ownerReference', () => {
    const [w] = decideResourceDistributions(observed([rd({ resource: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'game-demo', labels: { app: 'game' }, annotations: { note: 'n' }, namespace: 'ignored', resourceVersion: '9' }, data: { color: 'blue' } } })]), NOW).writes;
    expect(w).toMatchObject({ op: 'create' });
    const r = rd();
    expect(w!.op === 'create' && w!.object).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'game-demo',
        namespace: 'ns-1',
        labels: { app: 'game', [COPY_LABEL]: 'sample' },
        annotations: {
          note: 'n',
          [ANNOTATION_FROM]: 'sample',
          [ANNOTATION_HASH]: expect.stringMatching(/^[0-9a-f]{64}$/),
          [ANNOTATION_TIMESTAMP]: NOW_TEXT,
        },
        ownerReferences: [ownerRef(r)],
      },
      data: { color: 'blue' },
    });
    expect(w!.reason).toMatch(/sample.*ns-1/);
  });

  it('an update replaces content and keeps the copy\'s own metadata, under its resourceVersion', () => {
    const r = rd({ data: { color: 'green' } });
    const existing = ours(r, 'ns-1', {
      hash: 'old', data: { color: 'blue' }, labels: { mine: 'yes' }, annotations: { 'kubectl.kubernetes.io/last-applied': '{}' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'pod-uid' }, ownerRef(r)], extra: {},
    });
    existing.metadata.finalizers = ['example.com/keep'];
    const [w] = decideResourceDistributions(observed([r], [existing, ours(r, 'ns-2')]), NOW).writes;
    expect(w?.op).toBe('update');
    if (w?.op !== 'update') return;
    expect(w.object.data).toEqual({ color: 'green' });
    expect(w.object.metadata).toMatchObject({
      name: 'game-demo', namespace: 'ns-1', uid: 'uid-ns-1', resourceVersion: 'rv-ns-1',
      labels: { mine: 'yes', [COPY_LABEL]: 'sample' },
      annotations: { 'kubectl.kubernetes.io/last-applied': '{}', [ANNOTATION_FROM]: 'sample', [ANNOTATION_HASH]: hashOf(r), [ANNOTATION_TIMESTAMP]: NOW_TEXT },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'pod-uid' }, ownerRef(r)],
      finalizers: ['example.com/keep'],
    });
    expect(w.reason).toMatch(/spec\.resource changed/);
  });

  it('adoption patches label and ownerReference under the copy\'s resourceVersion, leaving content alone', () => {
    const r = rd();
    const [w] = decideResourceDistributions(observed([r], [openKruises(r, 'ns-1'), ours(r, 'ns-2')]), NOW).writes;
    expect(w).toEqual({
      op: 'patch',
      patchType: 'merge',
      target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'game-demo', namespace: 'ns-1' },
      patch: { metadata: { resourceVersion: 'rv-ns-1', labels: { [COPY_LABEL]: 'sample' }, ownerReferences: [ownerRef(r)] } },
      reason: expect.stringMatching(/adopt/),
    });
  });

  it('a delete carries a uid precondition', () => {
    const r = rd();
    const writes = decideResourceDistributions(observed([r], [ours(r, 'ns-1'), ours(r, 'ns-2'), ours(r, 'ns-3')]), NOW).writes;
    expect(writes).toEqual([{
      op: 'delete',
      target: { apiVersion: 'v1', kind: 'ConfigMap', name: 'game-demo', namespace: 'ns-3' },
      preconditions: { uid: 'uid-ns-3' },
      reason: expect.stringMatching(/ns-3 is no longer a target/),
    }]);
  });

  it('a Secret given with stringData matches its stored form (no update loop)', () => {
    const r = rd({ resource: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, stringData: { user: 'admin' } } });
    const stored = (namespace: string) => ours(r, namespace, { kind: 'Secret', name: 's', data: { user: 'YWRtaW4=' }, extra: { type: 'Opaque' } });
    expect(decideResourceDistributions(observed([r], [stored('ns-1'), stored('ns-2')]), NOW).writes).toEqual([]);
  });

  it('an empty data map matches an absent one', () => {
    const r = rd({ data: {} });
    const stored = (namespace: string) => {
      const o = ours(r, namespace);
      delete (o as Record<string, unknown>).data;
      return o;
    };
    expect(decideResourceDistributions(observed([r], [stored('ns-1'), stored('ns-2')]), NOW).writes).toEqual([]);
  });
});

describe('decideResourceDistributions: status', () => {
  it('counts desired, succeeded and failed, with conflicts and missing namespaces named', () => {
    const r = rd({ generation: 4, targets: { includedNamespaces: { list: [{ name: 'ns-1' }, { name: 'ns-2' }, { name: 'ns-3' }, { name: 'ghost' }, { name: 'dying' }] } } });
    const plan = decideResourceDistributions(observed([r], [object('ns-2')]), NOW);
    expect(summary(plan.writes)).toEqual(['create ConfigMap ns-1/game-demo', 'create ConfigMap ns-3/game-demo']);
    expect(plan.status).toHaveLength(1);
    const s = plan.status[0]!;
    expect(s.target).toEqual({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ResourceDistribution', name: 'sample' });
    expect(s.resourceVersion).toBe('100');
    expect(s.status).toMatchObject({ desired: 5, succeeded: 2, failed: 3, observedGeneration: 4 });
    const conditions = s.status.conditions as { type: string; status: string; reason: string; failedNamespace?: string[]; lastTransitionTime: string }[];
    expect(conditions.map((c) => [c.type, c.status, c.failedNamespace ?? []])).toEqual([
      ['GetResourceFailed', 'False', []],
      ['CreateResourceFailed', 'False', []],
      ['UpdateResourceFailed', 'False', []],
      ['DeleteResourceFailed', 'False', []],
      ['ConflictOccurred', 'True', ['ns-2']],
      ['NamespaceNotExists', 'True', ['dying', 'ghost']],
    ]);
    expect(conditions[0]!.reason).toBe('Succeeded');
    expect(conditions[4]!.reason).toMatch(/did not create/);
    expect(conditions.every((c) => c.lastTransitionTime === NOW_TEXT)).toBe(true);
    expect(plan.events).toEqual([]);
  });

  it.each<[string, ResourceDistribution, boolean]>([
    ['no status write when nothing changed', rd({ status: settledStatus(rd()) }), false],
    ['a write when the generation moved on', rd({ generation: 2, status: settledStatus(rd()) }), true],
    ['a write when counts changed', rd({ status: settledStatus(rd(), { succeeded: 1, failed: 1 }) }), true],
    ['a write the first time', rd(), true],
  ])('%s', (_name, r, write) => {
    const plan = decideResourceDistributions(observed([r], [ours(r, 'ns-1'), ours(r, 'ns-2')]), NOW);
    expect(plan.writes).toEqual([]);
    expect(plan.status.length).toBe(write ? 1 : 0);
  });

  it('keeps lastTransitionTime of conditions whose status did not change', () => {
    const r = rd({ targets: { includedNamespaces: { list: [{ name: 'ns-1' }, { name: 'ns-2' }, { name: 'ghost' }] } }, status: settledStatus(rd()) });
    const plan = decideResourceDistributions(observed([r], [ours(r, 'ns-1'), ours(r, 'ns-2')]), NOW);
    const conditions = plan.status[0]!.status.conditions as { type: string; lastTransitionTime: string }[];
    expect(Object.fromEntries(conditions.map((c) => [c.type, c.lastTransitionTime]))).toEqual({
      GetResourceFailed: EARLIER, CreateResourceFailed: EARLIER, UpdateResourceFailed: EARLIER, DeleteResourceFailed: EARLIER, ConflictOccurred: EARLIER, NamespaceNotExists: NOW_TEXT,
    });
  });

  it('the losing distribution of a contested name reports a conflict', () => {
    const plan = decideResourceDistributions(observed([rd({ name: 'b-second' }), rd({ name: 'a-first' })]), NOW);
    const loser = plan.status.find((s) => s.target.name === 'b-second')!;
    expect(loser.status).toMatchObject({ desired: 2, succeeded: 0, failed: 2 });
    const conflict = (loser.status.conditions as { type: string; failedNamespace?: string[] }[]).find((c) => c.type === 'ConflictOccurred');
    expect(conflict?.failedNamespace).toEqual(['ns-1', 'ns-2']);
  });

  it('is deterministic: the same snapshot gives the same plan', () => {
    const r = rd({ targets: { allNamespaces: true } });
    const obs = observed([r], [ours(r, 'ns-3', { hash: 'old' }), object('default')]);
    expect(decideResourceDistributions(obs, NOW)).toEqual(decideResourceDistributions(structuredClone(obs), NOW));
  });
});
