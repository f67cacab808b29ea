import { describe, expect, it } from 'vitest';
import type { Write } from '../../reconcile/types.js';
import { CUSTOM_VERSION_LABEL, HASH_ANNOTATION, SIDECARSET_NAME_LABEL } from '../types.js';
import type { SidecarSet } from '../types.js';
import type { Pod } from '../../workload/pods.js';
import { controllerRevisionName, fnv1_32, hashControllerRevision, revisionDataJson, type ControllerRevision, safeEncodeString } from '../../workload/revisions.js';
import { planRevisions, revisionData } from './revisions.js';
import { injectedPod, sidecar, sidecarSet, withImages } from './test-builders.js';

const NS = 'kruise-system';
const v1 = sidecarSet();
const v2 = withImages(v1, { proxy: 'proxy:2' });
const v3 = withImages(v1, { proxy: 'proxy:3' });

/** A stored revision of `set`'s spec, as the controller would have created it. */
function stored(set: SidecarSet, revision: number, extra: Partial<ControllerRevision['metadata']> = {}): ControllerRevision {
  const json = revisionDataJson(revisionData(set));
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: controllerRevisionName('mesh', hashControllerRevision(json, 0)),
      namespace: NS,
      uid: `rev-${revision}`,
      resourceVersion: `rv-${revision}`,
      labels: { [SIDECARSET_NAME_LABEL]: 'mesh' },
      ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', name: 'mesh', uid: 'uid-mesh', controller: true }],
      ...extra,
    },
    data: JSON.parse(json),
    revision,
  };
}

const nameOf = (set: SidecarSet) => controllerRevisionName('mesh', hashControllerRevision(revisionDataJson(revisionData(set)), 0));
const summary = (writes: Write[]) =>
  writes.map((w) => (w.op === 'create' || w.op === 'update' ? `${w.op} ${w.object.metadata?.name}` : `${w.op} ${w.target.name}`));

describe('hashing and naming (k8s history, apimachinery rand)', () => {
  it.each([
    ['', 0x811c9dc5],
    ['a', 0x050c5d7e],
    ['foobar', 0x31f0b262],
  ])('FNV-1 32 of %j', (s, want) => {
    expect(fnv1_32(new TextEncoder().encode(s))).toBe(want);
  });

  it('SafeEncodeString maps digits to consonants and digits', () => {
    expect(safeEncodeString('0123456789')).toBe('456789bcdf');
  });

  it('the collision count changes the name; long prefixes are cut to 223 characters', () => {
    const json = revisionDataJson(revisionData(v1));
    expect(hashControllerRevision(json, 0)).not.toBe(hashControllerRevision(json, 1));
    expect(hashControllerRevision(json, 0)).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(controllerRevisionName('x'.repeat(300), 'h')).toBe(`${'x'.repeat(223)}-h`);
  });

  it('data is the replace patch of the recorded spec fields, keys sorted, absent fields null', () => {
    const set = sidecarSet({ containers: [sidecar('proxy', 'proxy:1')], spec: { volumes: [{ name: 'v', emptyDir: {} }] } });
    expect(revisionDataJson(revisionData(set))).toBe(
      '{"spec":{"$patch":"replace","containers":[{"image":"proxy:1","name":"proxy","podInjectPolicy":"BeforeAppContainer","resources":{},' +
        '"shareVolumePolicy":{"type":"disabled"},"upgradeStrategy":{"upgradeType":"ColdUpgrade"}}],"imagePullSecrets":null,"initContainers":null,' +
        '"patchPodMetadata":null,"volumes":[{"emptyDir":{},"name":"v"}]}}',
    );
  });
});

describe('planRevisions', () => {
  it('creates the first revision: named by its data, labelled, annotated and owned like OpenKruise', () => {
    const set = sidecarSet({ labels: { team: 'a', [CUSTOM_VERSION_LABEL]: 'v1' } });
    const plan = planRevisions(set, [], [], NS);
    expect(plan.latestRevision).toBe(nameOf(set));
    expect(plan.collisionCount).toBe(0);
    const create = plan.writes[0] as Extract<Write, { op: 'create' }>;
    expect(plan.writes).toHaveLength(1);
    expect(create.object).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      revision: 1,
      metadata: {
        name: nameOf(set),
        namespace: NS,
        labels: { team: 'a', [CUSTOM_VERSION_LABEL]: 'v1', [SIDECARSET_NAME_LABEL]: 'mesh', 'controller.kubernetes.io/hash': nameOf(set).slice(5) },
        annotations: { [HASH_ANNOTATION]: set.metadata.annotations![HASH_ANNOTATION] },
        ownerReferences: [{ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet', name: 'mesh', uid: 'uid-mesh', controller: true, blockOwnerDeletion: true }],
      },
      data: { spec: { $patch: 'replace' } },
    });
  });

  it.each<[string, SidecarSet, ControllerRevision[], string, string[], number?]>([
    ['unchanged: the newest revision holds the spec', v2, [stored(v1, 1), stored(v2, 2)], nameOf(v2), []],
    ['new spec: revision max+1', v3, [stored(v1, 1), stored(v2, 2)], nameOf(v3), [`create ${nameOf(v3)}`]],
    ['rollback: the equal older revision is renumbered', v1, [stored(v1, 1), stored(v2, 2)], nameOf(v1), [`patch ${nameOf(v1)}`]],
    ['revisions of a former set of the same name are not ours', v2, [stored(v2, 5, { ownerReferences: [{ apiVersion: 'x', kind: 'SidecarSet', name: 'mesh', uid: 'old', controller: true }] })], nameOf(v2), [`create ${nameOf(v2)}`]],
  ])('%s', (_name, set, revisions, latest, writes) => {
    const plan = planRevisions(set, revisions, [], NS);
    expect(plan.latestRevision).toBe(latest);
    expect(summary(plan.writes)).toEqual(writes);
  });

  it('rollback patch carries the next revision number and a resourceVersion precondition', () => {
    const plan = planRevisions(v1, [stored(v1, 1), stored(v2, 2)], [], NS);
    expect(plan.writes[0]).toMatchObject({ op: 'patch', patchType: 'merge', patch: { metadata: { resourceVersion: 'rv-1' }, revision: 3 } });
  });

  it('a name taken by different data raises the collision count', () => {
    const squatter = { ...stored(v2, 1), metadata: { ...stored(v2, 1).metadata, name: nameOf(v3) } };
    const plan = planRevisions(v3, [squatter], [], NS);
    expect(plan.collisionCount).toBe(1);
    expect(plan.latestRevision).toBe(controllerRevisionName('mesh', hashControllerRevision(revisionDataJson(revisionData(v3)), 1)));
    expect(summary(plan.writes)).toEqual([`create ${plan.latestRevision}`]);
  });

  it('labels an existing latest revision with the set custom version', () => {
    const set = { ...v2, metadata: { ...v2.metadata, labels: { [CUSTOM_VERSION_LABEL]: 'canary' } } };
    const plan = planRevisions(set, [stored(v2, 1)], [], NS);
    expect(plan.writes).toEqual([
      expect.objectContaining({ op: 'patch', patchType: 'strategic', patch: { metadata: { labels: { [CUSTOM_VERSION_LABEL]: 'canary' } } } }),
    ]);
  });

  describe('history limit', () => {
    const images = ['a', 'b', 'c', 'd', 'e'];
    const versions = images.map((i) => withImages(v1, { proxy: `proxy:${i}` }));
    const history = versions.slice(0, 4).map((v, i) => stored(v, i + 1, { uid: `rev-${images[i]}` }));
    const current = versions[4]!;
    const usedBy = (rev: string): Pod => {
      const pod = injectedPod(v1, 'p');
      pod.metadata.annotations![HASH_ANNOTATION] = JSON.stringify({ mesh: { hash: 'x', controllerRevision: rev } });
      return pod;
    };
    const deleted = (set: SidecarSet, pods: Pod[] = []) =>
      planRevisions(set, history, pods, NS).writes.filter((w) => w.op === 'delete').map((w) => (w.op === 'delete' ? w.preconditions?.uid : ''));

    it.each<[string, Partial<SidecarSet['spec']>, Pod[], (string | undefined)[]]>([
      ['limit 2 of 5: the three oldest go', { revisionHistoryLimit: 2 }, [], ['rev-a', 'rev-b', 'rev-c']],
      ['default limit 10: nothing goes', { revisionHistoryLimit: undefined }, [], []],
      ['limit 0 counts as 1, but never the latest', { revisionHistoryLimit: 0 }, [], ['rev-a', 'rev-b', 'rev-c', 'rev-d']],
      ['a revision a pod came from is kept', { revisionHistoryLimit: 2 }, [usedBy(history[0]!.metadata.name)], ['rev-b', 'rev-c', 'rev-d']],
      ['the pinned revisionName is kept', { revisionHistoryLimit: 2, injectionStrategy: { revision: { revisionName: history[1]!.metadata.name } } }, [], ['rev-a', 'rev-c', 'rev-d']],
    ])('%s', (_name, spec, pods, want) => {
      const set = { ...current, spec: { ...current.spec, ...spec } } as SidecarSet;
      expect(deleted(set, pods)).toEqual(want);
    });

    it('the newest revision with the pinned custom version is kept', () => {
      const tagged = history.map((r, i) => (i < 2 ? { ...r, metadata: { ...r.metadata, labels: { ...r.metadata.labels, [CUSTOM_VERSION_LABEL]: 'v' } } } : r));
      const set = { ...current, spec: { ...current.spec, revisionHistoryLimit: 2, injectionStrategy: { revision: { customVersion: 'v' } } } } as SidecarSet;
      const uids = planRevisions(set, tagged, [], NS).writes.flatMap((w) => (w.op === 'delete' ? [w.preconditions?.uid] : []));
      expect(uids).toEqual(['rev-a', 'rev-c', 'rev-d']);
    });
  });
});
