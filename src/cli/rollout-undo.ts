// `rollout undo`: which ControllerRevision to go back to, and the patch that puts its pod
// template back. Pure.
import { compareRevisions, revisionHoldsData, type ControllerRevision } from '../workload/revisions.js';

export type UndoChoice =
  | { kind: 'rollback'; revision: number; template: Record<string, unknown> }
  /** The template already is that revision's: nothing to write. */
  | { kind: 'skip'; revision: number }
  | { kind: 'error'; message: string };

export type JsonPatchOp = { op: 'test' | 'replace'; path: string; value: unknown };

/** The revisions the object controls (controller owner reference to `uid`), oldest first. */
export function ownedRevisions(revisions: readonly ControllerRevision[], uid: string | undefined): ControllerRevision[] {
  return revisions.filter((r) => (r.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === uid)).sort(compareRevisions);
}

/**
 * `toRevision` 0: the newest revision whose template differs from the current one (kubectl's
 * "second newest" in the usual case, and still right when the controller has not yet recorded
 * the current template). N: the revision numbered N. `currentData`: the current template as its
 * revision data (cloneSetRevisionData), to tell whether the rollback would change anything.
 */
export function chooseUndoRevision(owned: readonly ControllerRevision[], currentData: string, toRevision: number): UndoChoice {
  const newestFirst = [...owned].sort(compareRevisions).reverse();
  const chosen = toRevision === 0 ? newestFirst.find((r) => !revisionHoldsData(r, currentData)) : newestFirst.find((r) => r.revision === toRevision);
  if (!chosen) return { kind: 'error', message: toRevision === 0 ? 'no previous revision to roll back to' : `unable to find specified revision ${toRevision} in history` };
  if (revisionHoldsData(chosen, currentData)) return { kind: 'skip', revision: chosen.revision };
  const template = revisionTemplate(chosen);
  if (!template) return { kind: 'error', message: `revision ${chosen.revision} (${chosen.metadata.name}) holds no pod template` };
  return { kind: 'rollback', revision: chosen.revision, template };
}

/**
 * The pod template stored in a revision's `data.spec.template`, without the strategic-merge
 * `$patch: replace` marker (a CRD takes no strategic merge: the JSON patch replaces the whole
 * template instead) and the `creationTimestamp: null` Go's encoding writes.
 */
export function revisionTemplate(rev: ControllerRevision): Record<string, unknown> | undefined {
  const data = typeof rev.data === 'string' ? (JSON.parse(rev.data) as unknown) : rev.data;
  const template = (data as { spec?: { template?: unknown } } | undefined)?.spec?.template;
  if (!template || typeof template !== 'object' || Array.isArray(template)) return undefined;
  const { $patch: _marker, ...rest } = template as Record<string, unknown>;
  const metadata = rest.metadata as Record<string, unknown> | undefined;
  if (metadata && metadata.creationTimestamp === null) {
    const { creationTimestamp: _null, ...meta } = metadata;
    rest.metadata = meta;
  }
  return rest;
}

/** Replace spec.template, only if the object is still at `resourceVersion` (else 422: read again). */
export function undoPatch(resourceVersion: string, template: Record<string, unknown>): JsonPatchOp[] {
  return [
    { op: 'test', path: '/metadata/resourceVersion', value: resourceVersion },
    { op: 'replace', path: '/spec/template', value: template },
  ];
}
