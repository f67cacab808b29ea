// A UnitedDeployment's revisions (OpenKruise's revision.go, k8s controller/history): the data is
// `{"spec":{"template":{…,"$patch":"replace"}}}` (the whole subset template), the name
// `<ud>-<hash>`, FNV-1 of the data and the collision count. The newest revision is the one subset
// workloads and their pods are labelled with (apps.kruise.io/controller-revision-hash). Old ones
// beyond revisionHistoryLimit, and not current, are deleted. Pure.
import type { Write } from '../reconcile/types.js';
import {
  compareRevisions,
  nameRevision,
  nextRevisionNumber,
  revisionDataJson,
  revisionHoldsData,
  revisionsBeyondLimit,
  type ControllerRevision,
} from '../workload/revisions.js';
import { DEFAULT_REVISION_HISTORY_LIMIT, UD_API_VERSION, UD_KIND, type UnitedDeploymentLike } from './types.js';
import { controllerReference } from '../kube/owner-reference.js';

export type RevisionPlan = { updated: string; collisionCount: number; writes: Write[] };

/** Revisions the UnitedDeployment controls, oldest first. */
export function ownedRevisions(ud: UnitedDeploymentLike, all: readonly ControllerRevision[]): ControllerRevision[] {
  return all
    .filter((r) => r.metadata.namespace === ud.metadata.namespace && r.metadata.ownerReferences?.some((o) => o.controller && o.uid === ud.metadata.uid))
    .sort(compareRevisions);
}

export function planRevisions(ud: UnitedDeploymentLike, all: readonly ControllerRevision[]): RevisionPlan {
  const dataJson = revisionDataJson({ spec: { template: { ...(ud.spec.template ?? {}), $patch: 'replace' } } });
  const owned = ownedRevisions(ud, all);
  const newest = owned[owned.length - 1];
  const writes: Write[] = [];
  const ref = { apiVersion: 'apps/v1', kind: 'ControllerRevision', namespace: ud.metadata.namespace };
  let updated: string;
  let collisionCount = ud.status?.collisionCount ?? 0;
  if (newest && revisionHoldsData(newest, dataJson)) {
    updated = newest.metadata.name;
  } else {
    const older = owned.filter((r) => revisionHoldsData(r, dataJson)).pop();
    if (older) {
      // A rollback: the old revision takes the next number (history.FindEqualRevisions + Update).
      updated = older.metadata.name;
      writes.push({ op: 'update', object: { ...older, revision: nextRevisionNumber(owned) }, reason: `revision ${updated} is the template again` });
    } else {
      const byName = new Map(all.filter((r) => r.metadata.namespace === ud.metadata.namespace).map((r) => [r.metadata.name, r]));
      const named = nameRevision(ud.metadata.name ?? '', dataJson, collisionCount, (n) => byName.get(n));
      updated = named.name;
      collisionCount = named.collisionCount;
      if (!named.existing) {
        writes.push({
          op: 'create',
          object: {
            ...ref,
            metadata: {
              name: named.name,
              namespace: ud.metadata.namespace,
              labels: { ...(ud.spec.selector?.matchLabels ?? {}) },
              ownerReferences: [controllerReference(UD_API_VERSION, UD_KIND, ud.metadata)],
            },
            data: JSON.parse(dataJson) as unknown,
            revision: nextRevisionNumber(owned),
          },
          reason: `the template's revision ${named.name}`,
        });
      }
    }
  }
  const live = new Set([updated, ud.status?.currentRevision]);
  const limit = ud.spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  for (const r of revisionsBeyondLimit(owned, (x) => live.has(x.metadata.name), limit)) {
    writes.push({
      op: 'delete',
      target: { ...ref, name: r.metadata.name },
      ...(r.metadata.uid ? { preconditions: { uid: r.metadata.uid } } : {}),
      reason: `revision ${r.metadata.name} is beyond revisionHistoryLimit ${limit}`,
    });
  }
  return { updated, collisionCount, writes };
}
