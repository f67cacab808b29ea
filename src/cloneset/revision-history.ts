// A CloneSet's revision history, decided as OpenKruise's controller does on each pass
// (getActiveRevisions and truncateHistory in pkg/controller/cloneset/cloneset_controller.go, with
// k8s.io/kubernetes/pkg/controller/history): which revision the current template is stored in
// (the newest; an older one renumbered to the front on a rollback; else a new one, named past any
// collision), which one pods count as current, and which old revisions go. Pure, Web APIs only.
//
// Not reproduced: OpenKruise also copies the volume-claim-template hash annotation onto a
// renumbered revision when it differs (see revisions.ts on that annotation).
import type { ObjectRef, Write } from '../reconcile/types.js';
import type { CloneSet } from '../api/apps/cloneset.js';
import { matchesLabelSelector } from '../kube/selectors.js';
import type { Pod } from '../workload/pods.js';
import {
  compareRevisions,
  decideUpdateRevision,
  labelNamesRevision,
  nameRevision,
  revisionsBeyondLimit,
  type ControllerRevision,
} from '../workload/revisions.js';
import { cloneSetRevisionData, newCloneSetRevision } from './revisions.js';
import { REVISION_HASH_LABEL } from './types.js';
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

const refTo = (rev: ControllerRevision): ObjectRef => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  name: rev.metadata.name,
  ...(rev.metadata.namespace ? { namespace: rev.metadata.namespace } : {}),
});

/**
 * ListControllerRevisions: the namespace's revisions matching the CloneSet's selector that it
 * controls or that nothing controls, sorted by compareRevisions.
 */
export function cloneSetRevisions(cs: CloneSet, revisions: readonly ControllerRevision[]): ControllerRevision[] {
  const namespace = cs.metadata?.namespace;
  const uid = cs.metadata?.uid;
  return revisions
    .filter((r) => !namespace || !r.metadata.namespace || r.metadata.namespace === namespace)
    .filter((r) => matchesLabelSelector(cs.spec?.selector, r.metadata.labels ?? {}))
    .filter((r) => {
      const controller = r.metadata.ownerReferences?.find((o) => o.controller);
      return !controller || controller.uid === uid;
    })
    .sort(compareRevisions);
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
  const name = cs.metadata?.name ?? '';
  const owned = cloneSetRevisions(cs, revisions);
  const dataJson = cloneSetRevisionData(cs);
  let collisionCount = cs.status?.collisionCount ?? 0;
  const writes: Write[] = [];

  const decision = decideUpdateRevision(owned, dataJson);
  let update: ControllerRevision;
  if (decision.kind === 'current') {
    update = decision.revision;
  } else if (decision.kind === 'renumber') {
    update = { ...decision.revision, revision: decision.to };
    writes.push({
      op: 'patch',
      target: refTo(decision.revision),
      patchType: 'merge',
      patch: { metadata: { resourceVersion: decision.revision.metadata.resourceVersion }, revision: decision.to },
      reason: `CloneSet ${name} went back to the template of revision ${decision.revision.revision}; it becomes revision ${decision.to}`,
    });
  } else {
    const byName = new Map(revisions.map((r) => [r.metadata.name, r]));
    const named = nameRevision(name, dataJson, collisionCount, (n) => byName.get(n));
    // The hash label keeps the first-tried hash, as CreateControllerRevision renames only.
    const created = newCloneSetRevision(cs, collisionCount, decision.to);
    created.metadata.name = named.name;
    collisionCount = named.collisionCount;
    if (named.existing) {
      update = named.existing;
    } else {
      update = created;
      writes.push({ op: 'create', object: created, reason: `CloneSet ${name} has a new template: revision ${decision.to}` });
    }
  }

  const currentName = cs.status?.currentRevision;
  const current = owned.find((r) => r.metadata.name === currentName) ?? update;

  const live = (r: ControllerRevision) =>
    r.metadata.name === current.metadata.name ||
    r.metadata.name === update.metadata.name ||
    pods.some((p) => labelNamesRevision(p.metadata.labels?.[REVISION_HASH_LABEL], r.metadata.name));
  const limit = cs.spec?.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  for (const rev of revisionsBeyondLimit(owned, live, limit)) {
    writes.push({
      op: 'delete',
      target: refTo(rev),
      ...(rev.metadata.uid ? { preconditions: { uid: rev.metadata.uid } } : {}),
      reason: `CloneSet ${name} keeps ${limit} unused revisions (revisionHistoryLimit); revision ${rev.revision} is the oldest`,
    });
  }

  return { currentRevision: current.metadata.name, updateRevision: update.metadata.name, collisionCount, update, writes };
}
