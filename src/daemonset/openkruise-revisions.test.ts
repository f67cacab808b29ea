// Our Advanced DaemonSet revisions against OpenKruise 1.9's own code (getPatch, snapshot with
// controller.ComputeHash), run by Go: scripts/openkruise-revision-vectors.ts writes the fixture.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { spew } from '../kube/go-spew.js';
import type { ControllerRevision } from '../workload/revisions.js';
import { computeTemplateHash } from './compute-hash.js';
import { daemonSetRevisionData, planDaemonSetRevisions } from './revisions.js';
import type { StoredDaemonSet } from './types.js';

type Vector = { input: { object: StoredDaemonSet }; revision: { name: string; labels: Record<string, string>; data: string }; podLabels: Record<string, string>; spew: string };
const { vectors } = JSON.parse(readFileSync(new URL('../../test/e2e/fixtures/takeover/daemonset.json', import.meta.url), 'utf8')) as { vectors: Vector[] };

const withUid = (ds: StoredDaemonSet): StoredDaemonSet => ({ ...ds, metadata: { ...ds.metadata, uid: 'ds-uid' } });

describe('Advanced DaemonSet revisions equal OpenKruise 1.9’s (daemonset.json)', () => {
  it.each(vectors.map((v) => [v.revision.name, v] as const))('%s: the data bytes', (_name, v) => {
    expect(daemonSetRevisionData(v.input.object)).toBe(v.revision.data);
  });

  it.each(vectors.map((v) => [v.revision.name, v] as const))('%s: OpenKruise’s revision is reused under its name and hash, with no write', (_name, v) => {
    const ds = withUid(v.input.object);
    const rev: ControllerRevision = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: v.revision.name, namespace: ds.metadata.namespace, labels: v.revision.labels, ownerReferences: [{ apiVersion: 'apps.kruise.io/v1beta1', kind: 'DaemonSet', name: ds.metadata.name, uid: 'ds-uid', controller: true, blockOwnerDeletion: true }] },
      data: JSON.parse(v.revision.data) as unknown,
      revision: 1,
    };
    const plan = planDaemonSetRevisions(ds, [rev], []);
    expect(plan.current.metadata.name).toBe(v.revision.name);
    expect(plan.hash).toBe(v.podLabels['controller-revision-hash']);
    expect(plan.writes).toEqual([]);
  });

  it.each(vectors.map((v) => [v.revision.name, v] as const))('%s: the spew printout ComputeHash hashes, byte for byte', (_name, v) => {
    expect(spew('v1.PodTemplateSpec', v.input.object.spec.template)).toBe(v.spew);
  });

  it.each(vectors.map((v) => [v.revision.name, v] as const))('%s: a new revision (none to reuse) gets OpenKruise’s name, labels and hash', (_name, v) => {
    const plan = planDaemonSetRevisions(withUid(v.input.object), [], []);
    expect(plan.current.metadata.name).toBe(v.revision.name);
    expect(plan.current.metadata.labels).toEqual(v.revision.labels);
    expect(plan.hash).toBe(v.podLabels['controller-revision-hash']);
    expect(plan.writes).toMatchObject([{ op: 'create' }]);
  });

  it('a name held by another template raises the collision count, from unset to 1, as snapshot does', () => {
    const ds = withUid(vectors[0]!.input.object);
    const squatter = { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: vectors[0]!.revision.name, namespace: ds.metadata.namespace }, data: { other: true }, revision: 1 } as ControllerRevision;
    const plan = planDaemonSetRevisions(ds, [squatter], []);
    expect(plan.collisionCount).toBe(1);
    expect(plan.current.metadata.name).toBe(`${ds.metadata.name}-${computeTemplateHash(ds.spec.template, 1)}`);
  });

  it('a template the printer cannot reproduce (a quantity beyond the int64 fast path) is named by its data, as before', () => {
    const ds = withUid(structuredClone(vectors[0]!.input.object));
    (ds.spec.template.spec as { containers: { resources: unknown }[] }).containers[0]!.resources = { limits: { cpu: '0.0000000001' } };
    expect(computeTemplateHash(ds.spec.template, undefined)).toBeUndefined();
    expect(planDaemonSetRevisions(ds, [], []).current.metadata.name).toMatch(/^agent-[a-z0-9]+$/);
  });
});
