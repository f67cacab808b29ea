// A CloneSet's revision history, decided as OpenKruise's controller does on each pass
// (getActiveRevisions and truncateHistory in pkg/controller/cloneset/cloneset_controller.go, with
// k8s.io/kubernetes/pkg/controller/history): which revision the current template is stored in
// (the newest; an older one renumbered to the front on a rollback; else a new one, named past any
// collision), which one pods count as current, and which old revisions go; a renumbered revision
// whose volume-claim-template hash is missing or differs takes the current one. Pure, Web APIs only.
import type { Write } from '../reconcile/types.js';
import type { CloneSet } from '../api/apps/cloneset.js';
import type { Pod } from '../workload/pods.js';
import type { ControllerRevision } from '../workload/revisions.js';
import { ownedRevisions, planRevisionHistory } from '../workload/revision-history.js';
import { cloneSetRevisionData, cloneSetVCTHash, newCloneSetRevision, VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION } from './revisions.js';
export { DEFAULT_REVISION_HISTORY_LIMIT } from '../workload/revision-history.js';

/**
 * ListControllerRevisions: the namespace's revisions matching the CloneSet's selector that it
 * controls or that nothing controls, sorted by compareRevisions.
 */
export function cloneSetRevisions(cs: CloneSet, revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return ownedRevisions({ namespace: cs.metadata?.namespace, uid: cs.metadata?.uid, selector: cs.spec?.selector }, revisions);
}

export type CloneSetRevisionPlan = {
  /** status.currentRevision: the revision named there if it still exists, else the update revision. */
  currentRevision: string;
  /** status.updateRevision: the revision holding the current template. */
  updateRevision: string;
  /** status.collisionCount after naming the update revision. */
  collisionCount: number;
  /** The revision the current template is stored in, as it will be after `writes`. */
  update: ControllerRevision;
  writes: Write[];
};

/**
 * The ControllerRevision writes for a CloneSet. `revisions` are all ControllerRevisions of its
 * namespace (names are per namespace, so a collision can come from any of them); `pods` the
 * CloneSet's pods, whose `controller-revision-hash` (full or short) keeps a revision live.
 */
export function planCloneSetRevisions(cs: CloneSet, revisions: readonly ControllerRevision[], pods: readonly Pod[]): CloneSetRevisionPlan {
  const plan = planRevisionHistory({
    owner: {
      kind: 'CloneSet',
      name: cs.metadata?.name ?? '',
      namespace: cs.metadata?.namespace,
      uid: cs.metadata?.uid,
      selector: cs.spec?.selector,
      revisionHistoryLimit: cs.spec?.revisionHistoryLimit,
      collisionCount: cs.status?.collisionCount,
      currentRevision: cs.status?.currentRevision,
    },
    revisions,
    dataJson: cloneSetRevisionData(cs),
    newRevision: (collisionCount, revision) => newCloneSetRevision(cs, collisionCount, revision),
    pods,
    renumberAnnotations: (rev) => {
      const hash = cloneSetVCTHash(cs);
      return rev.metadata.annotations?.[VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION] === hash ? undefined : { [VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION]: hash };
    },
  });
  return { currentRevision: plan.currentRevision, updateRevision: plan.updateRevision, collisionCount: plan.collisionCount, update: plan.update, writes: plan.writes };
}
