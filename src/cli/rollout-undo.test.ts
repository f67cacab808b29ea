import { describe, expect, it } from 'vitest';
import type { CloneSet } from '../api/apps/cloneset.js';
import { cloneSetRevisionData, newCloneSetRevision } from '../cloneset/revisions.js';
import type { ControllerRevision } from '../workload/revisions.js';
import { chooseUndoRevision, ownedRevisions, revisionTemplate, undoPatch } from './rollout-undo.js';

const UID = 'uid-web';

function cloneSet(image: string): CloneSet {
  return {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'web', namespace: 'ns', uid: UID },
    spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image }] } } },
  };
}
/** The revision our controller (as OpenKruise's) records for the template with `image`. */
const revision = (image: string, n: number, owner = UID): ControllerRevision => {
  const r = newCloneSetRevision(cloneSet(image), 0, n);
  return { ...r, metadata: { ...r.metadata, ownerReferences: r.metadata.ownerReferences?.map((o) => ({ ...o, uid: owner })) } };
};
const current = (image: string) => cloneSetRevisionData(cloneSet(image));
const history = [revision('app:1', 1), revision('app:3', 3), revision('app:2', 2)];

describe('chooseUndoRevision', () => {
  it.each<[string, ControllerRevision[], string, number, string]>([
    ['previous: the newest revision other than the current template', history, 'app:3', 0, 'rollback 2 app:2'],
    ['previous, when the controller has not recorded the current template yet', history, 'app:4', 0, 'rollback 3 app:3'],
    ['--to-revision N', history, 'app:3', 1, 'rollback 1 app:1'],
    ['--to-revision of the current template: nothing to do', history, 'app:3', 3, 'skip 3'],
    ['unknown N', history, 'app:3', 7, 'error unable to find specified revision 7 in history'],
    ['only the current revision', [revision('app:1', 1)], 'app:1', 0, 'error no previous revision to roll back to'],
    ['no history at all', [], 'app:1', 0, 'error no previous revision to roll back to'],
  ])('%s', (_name, revisions, image, toRevision, want) => {
    const choice = chooseUndoRevision(revisions, current(image), toRevision);
    const got = choice.kind === 'rollback'
      ? `rollback ${choice.revision} ${(choice.template as { spec: { containers: { image: string }[] } }).spec.containers[0]!.image}`
      : choice.kind === 'skip' ? `skip ${choice.revision}` : `error ${choice.message}`;
    expect(got).toBe(want);
  });
});

describe('ownedRevisions', () => {
  it('keeps revisions the object controls, oldest first', () => {
    const other = revision('app:9', 4, 'uid-other');
    expect(ownedRevisions([...history, other], UID).map((r) => r.revision)).toEqual([1, 2, 3]);
  });
});

describe('revisionTemplate and undoPatch', () => {
  it('takes data.spec.template without the $patch marker and the null creationTimestamp', () => {
    const template = revisionTemplate(revision('app:1', 1));
    expect(template).toEqual({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'app:1', resources: {} }] } });
    expect(JSON.stringify(template)).not.toContain('$patch');
  });

  it('reads data stored as a string too, and refuses data without a template', () => {
    const r = revision('app:1', 1);
    expect(revisionTemplate({ ...r, data: JSON.stringify(r.data) })).toEqual(revisionTemplate(r));
    expect(revisionTemplate({ ...r, data: { spec: {} } })).toBeUndefined();
    expect(chooseUndoRevision([{ ...r, data: { spec: {} } }], current('app:2'), 0)).toEqual({ kind: 'error', message: `revision 1 (${r.metadata.name}) holds no pod template` });
  });

  it('replaces spec.template only if the object is still at the version it was decided on', () => {
    expect(undoPatch('42', { spec: {} })).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '42' },
      { op: 'replace', path: '/spec/template', value: { spec: {} } },
    ]);
  });
});
