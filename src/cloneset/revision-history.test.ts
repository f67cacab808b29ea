import { describe, expect, it } from 'vitest';
import type { CloneSet } from '../api/apps/cloneset.js';
import type { Pod } from '../workload/pods.js';
import type { ControllerRevision } from '../workload/revisions.js';
import { planCloneSetRevisions } from './revision-history.js';
import { newCloneSetRevision } from './revisions.js';

function cs(image: string, extra: Partial<CloneSet['spec']> = {}, status: Partial<NonNullable<CloneSet['status']>> = {}): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1',
    kind: 'CloneSet',
    metadata: { name: 'web', namespace: 'ns', uid: 'u1' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image }] } },
      ...extra,
    },
    status,
  } as CloneSet;
}

/** Stored revisions as the API server returns them (namespace and uid set). */
function stored(set: CloneSet, revision: number, collisionCount = 0): ControllerRevision {
  const r = newCloneSetRevision(set, collisionCount, revision);
  r.metadata.uid = `uid-${r.metadata.name}`;
  r.metadata.resourceVersion = String(revision);
  return r;
}

const pod = (name: string, hash: string): Pod =>
  ({ metadata: { name, namespace: 'ns', labels: { app: 'web', 'controller-revision-hash': hash } }, spec: { containers: [] } }) as Pod;

describe('planCloneSetRevisions', () => {
  it('creates revision 1 for a new CloneSet; current = update', () => {
    const plan = planCloneSetRevisions(cs('v1'), [], []);
    expect(plan.writes).toHaveLength(1);
    expect(plan.writes[0]).toMatchObject({ op: 'create', object: { revision: 1, metadata: { name: plan.updateRevision } } });
    expect(plan.currentRevision).toBe(plan.updateRevision);
    expect(plan.collisionCount).toBe(0);
  });

  it('nothing to write when the newest revision holds the template', () => {
    const r1 = stored(cs('v1'), 1);
    const plan = planCloneSetRevisions(cs('v1', {}, { currentRevision: r1.metadata.name }), [r1], []);
    expect(plan.writes).toEqual([]);
    expect(plan.updateRevision).toBe(r1.metadata.name);
  });

  it('a rollback renumbers the older equal revision to the front', () => {
    const r1 = stored(cs('v1'), 1);
    const r2 = stored(cs('v2'), 2);
    const plan = planCloneSetRevisions(cs('v1', {}, { currentRevision: r2.metadata.name }), [r2, r1], []);
    expect(plan.updateRevision).toBe(r1.metadata.name);
    expect(plan.currentRevision).toBe(r2.metadata.name);
    expect(plan.writes).toEqual([expect.objectContaining({ op: 'patch', target: expect.objectContaining({ name: r1.metadata.name }), patch: { metadata: { resourceVersion: '1' }, revision: 3 } })]);
  });

  describe('the volume-claim-template hash (kruise.io/cloneset-volumeclaimtemplate-hash)', () => {
    const VCT = 'kruise.io/cloneset-volumeclaimtemplate-hash';
    // OpenKruise's single-pvc vector: hash 1129974074 (volume_templates_hash_test.go).
    const claim = (request: string) => ({ metadata: { name: 'pvc-1' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: request }, limits: { storage: '2Gi' } } } });
    const withClaim = (image: string, request: string, status: Partial<NonNullable<CloneSet['status']>> = {}) =>
      cs(image, { volumeClaimTemplates: [claim(request)] } as Partial<CloneSet['spec']>, status);

    it('a new revision carries the hash OpenKruise computes', () => {
      const plan = planCloneSetRevisions(withClaim('v1', '1Gi'), [], []);
      expect(plan.writes[0]).toMatchObject({ op: 'create', object: { metadata: { annotations: { [VCT]: '1129974074' } } } });
    });

    it('a revision OpenKruise wrote (same name, data and hash) is reused with no write', () => {
      const r1 = stored(withClaim('v1', '1Gi'), 1);
      expect(r1.metadata.annotations?.[VCT]).toBe('1129974074');
      const plan = planCloneSetRevisions(withClaim('v1', '1Gi', { currentRevision: r1.metadata.name }), [r1], []);
      expect(plan.writes).toEqual([]);
      expect(plan.update).toBe(r1);
    });

    it('a change of the templates alone makes no new revision and rewrites none', () => {
      const r1 = stored(withClaim('v1', '1Gi'), 1);
      const plan = planCloneSetRevisions(withClaim('v1', '5Gi', { currentRevision: r1.metadata.name }), [r1], []);
      expect(plan.writes).toEqual([]);
      expect(plan.update.metadata.annotations?.[VCT]).toBe('1129974074');
    });

    it('a rollback to a revision with another hash rewrites it with the renumbering', () => {
      const r1 = stored(withClaim('v1', '1Gi'), 1);
      const r2 = stored(withClaim('v2', '1Gi'), 2);
      const now = withClaim('v1', '5Gi', { currentRevision: r2.metadata.name });
      const plan = planCloneSetRevisions(now, [r2, r1], []);
      const hash = newCloneSetRevision(now, 0, 3).metadata.annotations?.[VCT];
      expect(hash).toMatch(/^\d+$/);
      expect(hash).not.toBe('1129974074');
      expect(plan.writes).toEqual([
        expect.objectContaining({ op: 'patch', target: expect.objectContaining({ name: r1.metadata.name }), patch: { metadata: { resourceVersion: '1', annotations: { [VCT]: hash } }, revision: 3 } }),
      ]);
      expect(plan.update.metadata.annotations?.[VCT]).toBe(hash);
      expect(plan.update.revision).toBe(3);
    });

    it('a rollback to a revision without the annotation gives it one; an equal hash is left alone', () => {
      const r1 = stored(withClaim('v1', '1Gi'), 1);
      delete r1.metadata.annotations![VCT];
      const r2 = stored(withClaim('v2', '1Gi'), 2);
      const missing = planCloneSetRevisions(withClaim('v1', '1Gi'), [r2, r1], []);
      expect(missing.writes[0]).toMatchObject({ patch: { metadata: { annotations: { [VCT]: '1129974074' } }, revision: 3 } });
      const same = planCloneSetRevisions(withClaim('v1', '1Gi'), [r2, stored(withClaim('v1', '1Gi'), 1)], []);
      expect(same.writes).toEqual([expect.objectContaining({ patch: { metadata: { resourceVersion: '1' }, revision: 3 } })]);
    });
  });

  it('a name taken by different data raises collisionCount and renames; the hash label keeps the first hash', () => {
    const mine = newCloneSetRevision(cs('v1'), 0, 1);
    // Another object's revision under our name (e.g. not matching our selector), with other data.
    const squatter: ControllerRevision = { ...stored(cs('other'), 1), metadata: { ...mine.metadata, labels: { app: 'else' }, ownerReferences: [] } };
    const plan = planCloneSetRevisions(cs('v1'), [squatter], []);
    expect(plan.collisionCount).toBe(1);
    expect(plan.updateRevision).toBe(newCloneSetRevision(cs('v1'), 1, 1).metadata.name);
    expect(plan.writes[0]).toMatchObject({ op: 'create', object: { metadata: { name: plan.updateRevision, labels: mine.metadata.labels } } });
  });

  it('a name taken by the same data is adopted as it is, nothing created', () => {
    const orphan = stored(cs('v1'), 7);
    orphan.metadata.labels = { other: 'x' }; // outside our selector, so not in our history
    const plan = planCloneSetRevisions(cs('v1'), [orphan], []);
    expect(plan.writes).toEqual([]);
    expect(plan.updateRevision).toBe(orphan.metadata.name);
  });

  it('truncation keeps current, update and revisions pods use (full or short hash label), then the newest `limit`', () => {
    const revs = [1, 2, 3, 4, 5, 6].map((n) => stored(cs(`v${n}`), n));
    const [r1, r2, r3, , r5, r6] = revs as [ControllerRevision, ControllerRevision, ControllerRevision, ControllerRevision, ControllerRevision, ControllerRevision];
    const set = cs('v6', { revisionHistoryLimit: 1 }, { currentRevision: r5.metadata.name });
    const pods = [pod('p1', r1.metadata.name), pod('p2', r2.metadata.name.split('-').pop()!)];
    const plan = planCloneSetRevisions(set, revs, pods);
    // Live: r1 (full label), r2 (short label), r5 (current), r6 (update). History: r3, r4; limit 1 → r3 goes.
    expect(plan.writes).toEqual([expect.objectContaining({ op: 'delete', target: expect.objectContaining({ name: r3.metadata.name }), preconditions: { uid: r3.metadata.uid } })]);
    expect(plan.updateRevision).toBe(r6.metadata.name);
  });

  it('revisionHistoryLimit defaults to 10 and may be 0', () => {
    const revs = Array.from({ length: 13 }, (_, i) => stored(cs(`v${i + 1}`), i + 1));
    const newest = revs[12]!;
    const byDefault = planCloneSetRevisions(cs('v13', {}, { currentRevision: newest.metadata.name }), revs, []);
    expect(byDefault.writes.map((w) => (w.op === 'delete' ? w.target.name : ''))).toEqual(revs.slice(0, 2).map((r) => r.metadata.name));
    const zero = planCloneSetRevisions(cs('v13', { revisionHistoryLimit: 0 }, { currentRevision: newest.metadata.name }), revs, []);
    expect(zero.writes).toHaveLength(12);
  });

  it('ignores revisions another controller owns', () => {
    const foreign = stored(cs('v1'), 1);
    foreign.metadata.ownerReferences = [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', name: 'x', uid: 'other', controller: true }];
    foreign.metadata.name = 'web-foreign';
    const plan = planCloneSetRevisions(cs('v1'), [foreign], []);
    expect(plan.writes[0]).toMatchObject({ op: 'create', object: { revision: 1 } });
  });
});
