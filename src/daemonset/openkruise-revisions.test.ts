// Our Advanced DaemonSet revisions against OpenKruise 1.9's own code (getPatch, snapshot with
// controller.ComputeHash), run by Go: scripts/openkruise-revision-vectors.ts writes the fixture.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ControllerRevision } from '../workload/revisions.js';
import { daemonSetRevisionData, planDaemonSetRevisions } from './revisions.js';
import type { StoredDaemonSet } from './types.js';

type Vector = { input: { object: StoredDaemonSet }; revision: { name: string; labels: Record<string, string>; data: string }; podLabels: Record<string, string> };
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
});
