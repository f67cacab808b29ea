// Our Advanced StatefulSet revisions against OpenKruise 1.9's own code (getPatch + newRevision),
// run by Go: scripts/openkruise-revision-vectors.ts writes the fixtures.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { newStatefulSetRevision, statefulSetRevisionData } from './revisions.js';
import type { StoredStatefulSet } from './types.js';

type Vector = { input: { object: StoredStatefulSet }; revision: { name: string; labels: Record<string, string>; annotations: Record<string, string>; data: string } };
const { vectors } = JSON.parse(readFileSync(new URL('../../test/e2e/fixtures/takeover/statefulset.json', import.meta.url), 'utf8')) as { vectors: Vector[] };

describe('Advanced StatefulSet revisions equal OpenKruise 1.9’s (statefulset.json)', () => {
  it.each(vectors.map((v) => [v.revision.name, v] as const))('%s', (_name, v) => {
    expect(statefulSetRevisionData(v.input.object)).toBe(v.revision.data);
    const rev = newStatefulSetRevision(v.input.object, 0, 1);
    expect(rev.metadata.name).toBe(v.revision.name);
    expect(rev.metadata.labels).toEqual(v.revision.labels);
  });
});
