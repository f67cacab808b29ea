import { describe, expect, it } from 'vitest';
import type { Pod } from '../workload/pods.js';
import type { ControllerRevision } from '../workload/revisions.js';
import { daemonSetRevisionData, planDaemonSetRevisions } from './revisions.js';
import type { StoredDaemonSet as DaemonSet } from './types.js';
import { withTemplateGeneration } from './template-generation.js';
import { defaultedDaemonSet } from './defaults.js';

const ds = (image: string, extra: Partial<DaemonSet['spec']> = {}): DaemonSet => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet',
  metadata: { name: 'agent', namespace: 'ns', uid: 'u1' },
  spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'main', image }] } }, ...extra },
});
const stored = (d: DaemonSet, name: string, hash: string, revision: number, owner = true): ControllerRevision => ({
  metadata: { name, namespace: 'ns', uid: `rev-${name}`, resourceVersion: '1', labels: { app: 'agent', 'controller-revision-hash': hash }, ...(owner ? { ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'DaemonSet', name: 'agent', uid: 'u1', controller: true }] } : {}) },
  data: JSON.parse(daemonSetRevisionData(d)) as unknown,
  revision,
});
const podAt = (hash: string): Pod => ({ metadata: { name: `p-${hash}`, namespace: 'ns', labels: { 'controller-revision-hash': hash } }, spec: { containers: [] } });

describe('Advanced DaemonSet revisions', () => {
  it('data is OpenKruise getPatch: the template marked $patch replace, keys sorted, Go’s zero values', () => {
    expect(daemonSetRevisionData(ds('app:1'))).toBe('{"spec":{"template":{"$patch":"replace","metadata":{"creationTimestamp":null,"labels":{"app":"agent"}},"spec":{"containers":[{"image":"app:1","name":"main","resources":{}}]}}}}');
  });

  it('a new template gets a revision named with the FNV hash, labelled with it', () => {
    const plan = planDaemonSetRevisions(ds('app:1'), [], []);
    expect(plan.writes.map((w) => w.op)).toEqual(['create']);
    expect(plan.current.metadata.name).toBe(`agent-${plan.hash}`);
    expect(plan.current.metadata.labels).toEqual({ app: 'agent', 'controller-revision-hash': plan.hash });
    expect(plan.current.revision).toBe(1);
  });

  it('takeover: a revision OpenKruise named (spew hash) with byte-equal data is reused under its name, and adopted if orphaned', () => {
    const taken = stored(ds('app:1'), 'agent-6d4b8c9f7', '6d4b8c9f7', 1, false);
    const plan = planDaemonSetRevisions(ds('app:1'), [taken], []);
    expect(plan.hash).toBe('6d4b8c9f7');
    expect(plan.writes).toHaveLength(1);
    expect(plan.writes[0]).toMatchObject({ op: 'patch', patch: { metadata: { ownerReferences: [{ uid: 'u1', controller: true }] } } });
  });

  it('rollback renumbers the equal revision; history beyond the limit goes unless a pod names it', () => {
    const revs = [stored(ds('app:1'), 'agent-a', 'a', 1), stored(ds('app:2'), 'agent-b', 'b', 2), stored(ds('app:3'), 'agent-c', 'c', 3)];
    const plan = planDaemonSetRevisions(ds('app:1', { revisionHistoryLimit: 0 }), revs, [podAt('b')]);
    expect(plan.hash).toBe('a');
    expect(plan.writes.map((w) => (w.op === 'patch' ? `patch ${w.target.name} ${JSON.stringify((w.patch as { revision?: number }).revision)}` : w.op === 'delete' ? `delete ${w.target.name}` : w.op))).toEqual(['patch agent-a 4', 'delete agent-c']);
  });

  it('a name taken by other data raises the collision count', () => {
    const first = planDaemonSetRevisions(ds('app:1'), [], []);
    const squatter = { ...stored(ds('app:9'), first.current.metadata.name, 'x', 1, false), metadata: { ...stored(ds('app:9'), first.current.metadata.name, 'x', 1, false).metadata, labels: { other: 'y' } } };
    const plan = planDaemonSetRevisions(ds('app:1'), [squatter], []);
    expect(plan.collisionCount).toBe(1);
    expect(plan.current.metadata.name).not.toBe(first.current.metadata.name);
  });
});

describe('template generation and defaults', () => {
  it.each([
    ['create sets 1', undefined, undefined, '1'],
    ['create keeps a given one', '5', undefined, '5'],
    ['template changed: one more', undefined, '3', '4'],
  ])('%s', (_n, given, old, want) => {
    const next = ds('app:2');
    if (given) next.metadata.annotations = { 'deprecated.daemonset.template.generation': given };
    const before = old ? { ...ds('app:1'), metadata: { ...ds('app:1').metadata, annotations: { 'deprecated.daemonset.template.generation': old } } } : undefined;
    if (before) next.metadata.annotations = { ...before.metadata.annotations };
    expect(withTemplateGeneration(next, before).metadata.annotations?.['deprecated.daemonset.template.generation']).toBe(want);
  });

  it('an update that leaves the template alone keeps the generation', () => {
    const old = { ...ds('app:1'), metadata: { ...ds('app:1').metadata, annotations: { 'deprecated.daemonset.template.generation': '3' } } };
    expect(withTemplateGeneration({ ...old, spec: { ...old.spec, minReadySeconds: 4 } }, old).metadata.annotations?.['deprecated.daemonset.template.generation']).toBe('3');
  });

  it('defaults: Surging → Standard with maxSurge 1 / maxUnavailable 0; OnDelete gets no rollingUpdate', () => {
    expect(defaultedDaemonSet(ds('a', { updateStrategy: { rollingUpdate: { rollingUpdateType: 'Surging' } } })).spec).toMatchObject({ burstReplicas: 250, revisionHistoryLimit: 10, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { rollingUpdateType: 'Standard', maxSurge: 1, maxUnavailable: 0 } } });
    expect(defaultedDaemonSet(ds('a', { updateStrategy: { type: 'OnDelete' } })).spec.updateStrategy).toEqual({ type: 'OnDelete' });
  });
});
