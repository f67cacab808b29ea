// The update revision of a CloneSet as its controller uses it: the history plan
// (src/cloneset/revision-history.ts: byte-exact data, reuse of an equal revision, renumbering on
// rollback, collisionCount, truncation by revisionHistoryLimit) reduced to what scaling, updating
// and status need. Pure.
import type { Write } from '../../reconcile/types.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { planCloneSetRevisions } from '../revision-history.js';
import { shortHash, type StoredCloneSet } from '../types.js';

export type RevisionChoice = {
  /** The revision name pods get in controller-revision-hash, e.g. `web-7b5c4d9f8`. */
  name: string;
  /** Its hash: what pod-template-hash holds and what pods are compared by. */
  hash: string;
  collisionCount: number;
  /** status.currentRevision as the history knows it. */
  currentRevision: string;
  /** Revision writes: a new revision, a renumbered one, truncated history. */
  writes: Write[];
  /** The revision created, when there is one. */
  create?: ControllerRevision;
  /** The update revision as it is after `writes` (renumbered, re-annotated, or created). */
  update: ControllerRevision;
};

export function chooseUpdateRevision(cs: StoredCloneSet, revisions: readonly ControllerRevision[], pods: readonly Pod[] = []): RevisionChoice {
  const plan = planCloneSetRevisions(cs, revisions, pods);
  const created = plan.writes.find((w) => w.op === 'create');
  return {
    name: plan.updateRevision,
    hash: shortHash(plan.updateRevision),
    collisionCount: plan.collisionCount,
    currentRevision: plan.currentRevision,
    writes: plan.writes,
    update: plan.update,
    ...(created?.op === 'create' ? { create: created.object as unknown as ControllerRevision } : {}),
  };
}
