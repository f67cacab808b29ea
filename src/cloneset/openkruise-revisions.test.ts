// Our CloneSet revisions against OpenKruise 1.9's own code: the fixtures are written by Go running
// OpenKruise's getPatch + history.NewControllerRevision + PatchVCTemplateHash
// (scripts/openkruise-revision-vectors.ts, checked there on OpenKruise's own vectors first).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CloneSet } from '../api/apps/cloneset.js';
import { cloneSetRevisionData, newCloneSetRevision } from './revisions.js';

type Vector = { input: { object: CloneSet }; revision: { name: string; labels: Record<string, string>; annotations: Record<string, string>; data: string }; podLabels: Record<string, string> };
const vectors = (name: string): Vector[] =>
  (JSON.parse(readFileSync(new URL(`../../test/e2e/fixtures/takeover/${name}.json`, import.meta.url), 'utf8')) as { vectors: Vector[] }).vectors;

describe.each(['cloneset', 'cloneset-vct'])('CloneSet revisions equal OpenKruise 1.9’s (%s.json)', (fixture) => {
  it.each(vectors(fixture).map((v) => [v.revision.name, v] as const))('%s', (_name, v) => {
    expect(cloneSetRevisionData(v.input.object)).toBe(v.revision.data);
    const rev = newCloneSetRevision(v.input.object, 0, 1);
    expect(rev.metadata.name).toBe(v.revision.name);
    expect(rev.metadata.labels).toEqual(v.revision.labels);
    expect(rev.metadata.annotations).toEqual(v.revision.annotations);
  });
});
