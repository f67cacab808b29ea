import { describe, expect, it } from 'vitest';
import type { Pod } from '../../workload/pods.js';
import type { StoredCloneSet } from '../types.js';
import { decideCloneSets } from './decide.js';
import { truncatePodsToDelete } from './pods-to-delete.js';

const cloneSet = (podsToDelete?: string[]): StoredCloneSet => ({
  metadata: { name: 'web', namespace: 'ns', uid: 'uid-1', resourceVersion: '7' },
  spec: {
    replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'app', image: 'nginx:1' }] } },
    ...(podsToDelete ? { scaleStrategy: { podsToDelete } } : {}),
  },
}) as StoredCloneSet;
const pod = (name: string): Pod => ({ metadata: { name, namespace: 'ns' }, spec: { containers: [] } });
const PATH = '/spec/scaleStrategy/podsToDelete';

describe('truncatePodsToDelete (OpenKruise truncatePodsToDelete)', () => {
  it('drops names of pods that are gone, testing the list as read', () => {
    const write = truncatePodsToDelete(cloneSet(['web-a', 'web-b', 'web-c']), [pod('web-b'), pod('web-x')]);
    expect(write).toMatchObject({
      op: 'patch', patchType: 'json', target: { kind: 'CloneSet', name: 'web', namespace: 'ns' },
      patch: [{ op: 'test', path: PATH, value: ['web-a', 'web-b', 'web-c'] }, { op: 'replace', path: PATH, value: ['web-b'] }],
    });
  });

  it('removes the list when no named pod is left', () => {
    expect(truncatePodsToDelete(cloneSet(['web-a']), [pod('web-b')])).toMatchObject({ patch: [{ op: 'test', path: PATH, value: ['web-a'] }, { op: 'remove', path: PATH }] });
  });

  it('writes nothing when every name is live, or there is no list', () => {
    expect(truncatePodsToDelete(cloneSet(['web-a']), [pod('web-a')])).toBeUndefined();
    expect(truncatePodsToDelete(cloneSet([]), [])).toBeUndefined();
    expect(truncatePodsToDelete(cloneSet(), [])).toBeUndefined();
  });

  it('is part of the CloneSet decision: a pod being deleted no longer counts', () => {
    const cs = cloneSet(['web-gone']);
    const deleting: Pod = { ...pod('web-gone'), metadata: { ...pod('web-gone').metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } };
    const plan = decideCloneSets({ cloneSets: [cs], podsByOwner: new Map([['uid-1', [deleting]]]), revisions: [] }, new Date('2026-01-01T00:00:01Z'));
    expect(plan.writes.filter((w) => w.op === 'patch' && w.target.kind === 'CloneSet')).toHaveLength(1);
  });
});
