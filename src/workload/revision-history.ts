// A workload's ControllerRevision history, decided on each pass as OpenKruise's controllers do
// (CloneSet's getActiveRevisions, the Advanced StatefulSet's getStatefulSetRevisions, both with
// truncateHistory and k8s.io/kubernetes/pkg/controller/history): which revision holds the current
// template (the newest; an older one renumbered to the front on a rollback; else a new one, named
// past any collision), which one pods count as current, and which old revisions go. Pure.
import type { LabelSelector } from '../kube/selectors.js';
import { matchesLabelSelector } from '../kube/selectors.js';
import type { ObjectRef, Write } from '../reconcile/types.js';
import type { Pod } from './pods.js';
import {
  compareRevisions,
  decideUpdateRevision,
  labelNamesRevision,
  nameRevision,
  revisionsBeyondLimit,
  type ControllerRevision,
} from './revisions.js';

export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** The owner as the history sees it. */
export type RevisionOwner = {
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
  selector?: LabelSelector;
  revisionHistoryLimit?: number;
  collisionCount?: number;
  /** status.currentRevision. */
  currentRevision?: string;
};

export type RevisionHistoryInput = {
  owner: RevisionOwner;
  /** Every ControllerRevision of the owner's namespace (names are per namespace, so a collision can come from any). */
  revisions: readonly ControllerRevision[];
  /** The exact bytes of the current template's revision data. */
  dataJson: string;
  /** NewRevision for a collision count and a revision number (its name is set here). */
  newRevision: (collisionCount: number, revision: number) => ControllerRevision;
  /** The owner's pods: a revision a pod's `controller-revision-hash` names stays. */
  pods: readonly Pod[];
  /** Annotations an older equal revision must be given when it is renumbered (none when it has them). */
  renumberAnnotations?: (revision: ControllerRevision) => Record<string, string> | undefined;
};

export type RevisionHistoryPlan = {
  /** status.currentRevision: the revision named there if it still exists, else the update revision. */
  currentRevision: string;
  /** status.updateRevision: the revision holding the current template. */
  updateRevision: string;
  /** status.collisionCount after naming the update revision. */
  collisionCount: number;
  /** The revision the current template is stored in, as it will be after `writes`. */
  update: ControllerRevision;
  /** The revision pods count as current, as it will be after `writes`. */
  current: ControllerRevision;
  writes: Write[];
};

const refTo = (rev: ControllerRevision): ObjectRef => ({
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  name: rev.metadata.name,
  ...(rev.metadata.namespace ? { namespace: rev.metadata.namespace } : {}),
});

/**
 * ListControllerRevisions: the namespace's revisions matching the owner's selector that it
 * controls or that nothing controls, sorted by compareRevisions.
 */
export function ownedRevisions(owner: Pick<RevisionOwner, 'namespace' | 'uid' | 'selector'>, revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return revisions
    .filter((r) => !owner.namespace || !r.metadata.namespace || r.metadata.namespace === owner.namespace)
    .filter((r) => matchesLabelSelector(owner.selector, r.metadata.labels ?? {}))
    .filter((r) => {
      const controller = r.metadata.ownerReferences?.find((o) => o.controller);
      return !controller || controller.uid === owner.uid;
    })
    .sort(compareRevisions);
}

export function planRevisionHistory(input: RevisionHistoryInput): RevisionHistoryPlan {
  const { owner, revisions, dataJson, pods } = input;
  const owned = ownedRevisions(owner, revisions);
  let collisionCount = owner.collisionCount ?? 0;
  const writes: Write[] = [];

  const decision = decideUpdateRevision(owned, dataJson);
  let update: ControllerRevision;
  if (decision.kind === 'current') {
    update = decision.revision;
  } else if (decision.kind === 'renumber') {
    const annotations = input.renumberAnnotations?.(decision.revision);
    const metadata = annotations ? { ...decision.revision.metadata, annotations: { ...(decision.revision.metadata.annotations ?? {}), ...annotations } } : decision.revision.metadata;
    update = { ...decision.revision, metadata, revision: decision.to };
    writes.push({
      op: 'patch',
      target: refTo(decision.revision),
      patchType: 'merge',
      patch: { metadata: { resourceVersion: decision.revision.metadata.resourceVersion, ...(annotations ? { annotations } : {}) }, revision: decision.to },
      reason: `${owner.kind} ${owner.name} went back to the template of revision ${decision.revision.revision}; it becomes revision ${decision.to}`,
    });
  } else {
    const byName = new Map(revisions.map((r) => [r.metadata.name, r]));
    const named = nameRevision(owner.name, dataJson, collisionCount, (n) => byName.get(n));
    // The hash label keeps the first-tried hash, as CreateControllerRevision renames only.
    const created = input.newRevision(collisionCount, decision.to);
    created.metadata.name = named.name;
    collisionCount = named.collisionCount;
    if (named.existing) {
      update = named.existing;
    } else {
      update = created;
      writes.push({ op: 'create', object: created, reason: `${owner.kind} ${owner.name} has a new template: revision ${decision.to}` });
    }
  }

  const current = owned.find((r) => r.metadata.name === owner.currentRevision) ?? update;
  const live = (r: ControllerRevision) =>
    r.metadata.name === current.metadata.name ||
    r.metadata.name === update.metadata.name ||
    pods.some((p) => labelNamesRevision(p.metadata.labels?.['controller-revision-hash'], r.metadata.name));
  const limit = owner.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  for (const rev of revisionsBeyondLimit(owned, live, limit)) {
    writes.push({
      op: 'delete',
      target: refTo(rev),
      ...(rev.metadata.uid ? { preconditions: { uid: rev.metadata.uid } } : {}),
      reason: `${owner.kind} ${owner.name} keeps ${limit} unused revisions (revisionHistoryLimit); revision ${rev.revision} is the oldest`,
    });
  }

  return { currentRevision: current.metadata.name, updateRevision: update.metadata.name, collisionCount, update, current, writes };
}
