// An Advanced DaemonSet's ControllerRevisions, as OpenKruise's daemonset_history.go keeps them
// (constructHistory, snapshot, cleanupHistory):
// - data: the pod template in Go's typed encoding, put back through a generic map and marked
//   `"$patch":"replace"`: {"spec":{"template":{"$patch":"replace","metadata":{…},"spec":{…}}}}, the
//   bytes OpenKruise's getPatch writes; a revision is current when its data is byte-equal (Match).
// - name `<ds>-<hash>` and label `controller-revision-hash: <hash>` (what pods carry), the hash
//   OpenKruise's: ComputeHash over Go's spew printout of the template (compute-hash.ts). For a
//   template that printout cannot be reproduced for, the FNV-1 of the data bytes and the
//   collision count, as the rest of the engine uses. An existing revision holding the same bytes
//   is always reused under its own name and hash, so a DaemonSet OpenKruise ran keeps its
//   revision and its pods do not roll.
// - a revision found current but numbered below the newest old one is renumbered (a rollback);
//   a name held by other data raises the collision count;
// - revisions beyond revisionHistoryLimit (oldest first) go, unless a pod still names their hash.
// Pure.
import type { ObjectRef, Write } from '../reconcile/types.js';
import { goJSON } from '../kube/go-json.js';
import { podTemplateAsGoMap } from '../kube/go-pod-template.js';
import { matchesLabelSelector } from '../kube/selectors.js';
import type { Pod } from '../workload/pods.js';
import { compareRevisions, findEqualRevisions, nameRevision, revisionHoldsData, type ControllerRevision, type RevisionName } from '../workload/revisions.js';
import { computeTemplateHash } from './compute-hash.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND, DEFAULT_REVISION_HISTORY_LIMIT, REVISION_HASH_LABEL, type StoredDaemonSet as DaemonSet } from './types.js';
import { controllerReference } from '../kube/owner-reference.js';

/** The exact `data` bytes of the DaemonSet's revision (what is compared). */
export function daemonSetRevisionData(ds: DaemonSet): string {
  const template = podTemplateAsGoMap(ds.spec.template);
  template.$patch = 'replace';
  return goJSON({ spec: { template } });
}

/** The hash a revision stands for: its `controller-revision-hash` label, else (as OpenKruise relabels it) its name. */
export const revisionHash = (rev: ControllerRevision): string => rev.metadata.labels?.[REVISION_HASH_LABEL] ?? rev.metadata.name;

const refTo = (rev: ControllerRevision): ObjectRef => ({ apiVersion: 'apps/v1', kind: 'ControllerRevision', name: rev.metadata.name, ...(rev.metadata.namespace ? { namespace: rev.metadata.namespace } : {}) });

const controllerRef = (ds: DaemonSet) => controllerReference(ds.apiVersion ?? DAEMONSET_API_VERSION, DAEMONSET_KIND, ds.metadata);

/** controlledHistories: the namespace's revisions the DaemonSet controls, or orphans its selector matches (to adopt), oldest first. */
export function daemonSetRevisions(ds: DaemonSet, revisions: readonly ControllerRevision[]): ControllerRevision[] {
  return revisions
    .filter((r) => (r.metadata.namespace ?? ds.metadata.namespace) === ds.metadata.namespace)
    .filter((r) => {
      const controller = r.metadata.ownerReferences?.find((o) => o.controller);
      if (controller) return controller.uid === ds.metadata.uid;
      return Boolean(ds.spec.selector) && matchesLabelSelector(ds.spec.selector, r.metadata.labels ?? {});
    })
    .sort(compareRevisions);
}

/**
 * snapshot's naming: `<ds>-<ComputeHash(template, status.collisionCount)>`, the count raised (from
 * nil to 1) while the name is held by a revision with different data. undefined when the template
 * cannot be hashed as Go does (the caller then names by the revision data).
 */
export function nameDaemonSetRevision(ds: DaemonSet, dataJson: string, taken: (name: string) => ControllerRevision | undefined): RevisionName | undefined {
  for (let count = ds.status?.collisionCount; ; count = (count ?? 0) + 1) {
    const hash = computeTemplateHash(ds.spec.template, count);
    if (hash === undefined) return undefined;
    const name = `${ds.metadata.name}-${hash}`;
    const holder = taken(name);
    if (!holder) return { name, hash, collisionCount: count ?? 0 };
    if (revisionHoldsData(holder, dataJson)) return { name, hash, collisionCount: count ?? 0, existing: holder };
  }
}

export type RevisionPlan = {
  /** The revision holding the current template, as it will be after `writes`. */
  current: ControllerRevision;
  /** Its hash: what updated pods carry in controller-revision-hash, and status.daemonSetHash. */
  hash: string;
  /** Every other revision of the DaemonSet (a pod's old template is looked up there). */
  old: ControllerRevision[];
  collisionCount: number;
  writes: Write[];
};

/** constructHistory: the current revision (reused, renumbered, relabelled, adopted or created), and the history cleanup. */
export function planDaemonSetRevisions(ds: DaemonSet, revisions: readonly ControllerRevision[], pods: readonly Pod[]): RevisionPlan {
  const name = ds.metadata.name;
  const owned = daemonSetRevisions(ds, revisions);
  const dataJson = daemonSetRevisionData(ds);
  const writes: Write[] = [];
  const adopt = (rev: ControllerRevision): Record<string, unknown> | undefined =>
    rev.metadata.ownerReferences?.some((o) => o.controller) ? undefined : { ownerReferences: [...(rev.metadata.ownerReferences ?? []), controllerRef(ds)] };

  const equal = findEqualRevisions(owned, dataJson);
  // dedupCurHistories keeps the highest-numbered equal revision.
  const found = equal.reduce<ControllerRevision | undefined>((best, r) => (!best || r.revision >= best.revision ? r : best), undefined);
  const old = owned.filter((r) => r !== found);
  const next = Math.max(0, ...old.map((r) => r.revision)) + 1;
  let collisionCount = ds.status?.collisionCount ?? 0;
  let current: ControllerRevision;
  if (found) {
    current = found;
    const labels = found.metadata.labels?.[REVISION_HASH_LABEL] ? undefined : { ...(found.metadata.labels ?? {}), [REVISION_HASH_LABEL]: found.metadata.name };
    const owner = adopt(found);
    const renumber = found.revision < next;
    if (labels || owner || renumber) {
      current = { ...found, metadata: { ...found.metadata, ...(labels ? { labels } : {}), ...(owner ?? {}) }, revision: renumber ? next : found.revision };
      const why = [renumber ? `becomes revision ${next} (the template of revision ${found.revision} is back)` : '', labels ? 'gets its hash label' : '', owner ? 'is adopted' : ''].filter(Boolean).join(', ');
      writes.push({
        op: 'patch', target: refTo(found), patchType: 'merge',
        patch: { metadata: { resourceVersion: found.metadata.resourceVersion, ...(labels ? { labels } : {}), ...(owner ?? {}) }, ...(renumber ? { revision: next } : {}) },
        reason: `DaemonSet ${name}: revision ${found.metadata.name} ${why}`,
      });
    }
  } else {
    const byName = new Map(revisions.map((r) => [r.metadata.name, r]));
    const named = nameDaemonSetRevision(ds, dataJson, (n) => byName.get(n)) ?? nameRevision(name, dataJson, collisionCount, (n) => byName.get(n));
    collisionCount = named.collisionCount;
    current = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name: named.name,
        namespace: ds.metadata.namespace,
        labels: { ...(ds.spec.template?.metadata?.labels ?? {}), [REVISION_HASH_LABEL]: named.hash },
        ...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
        ownerReferences: [controllerRef(ds)],
      },
      data: JSON.parse(dataJson) as unknown,
      revision: next,
    };
    // The name is held by a revision of another owner with the same data: nothing to create.
    if (!named.existing) writes.push({ op: 'create', object: current as never, reason: `DaemonSet ${name}: revision ${next} for the current template` });
  }

  const hash = revisionHash(current);
  const liveHashes = new Set(pods.map((p) => p.metadata.labels?.[REVISION_HASH_LABEL]).filter((h): h is string => Boolean(h)));
  const limit = ds.spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  // cleanupHistory: as many of the oldest unused revisions as the old ones exceed the limit by.
  let toKill = old.length - limit;
  for (const rev of [...old].sort((a, b) => a.revision - b.revision)) {
    if (toKill <= 0) break;
    if (liveHashes.has(revisionHash(rev))) continue;
    writes.push({
      op: 'delete', target: refTo(rev), ...(rev.metadata.uid ? { preconditions: { uid: rev.metadata.uid } } : {}),
      reason: `DaemonSet ${name} keeps ${limit} old revisions (revisionHistoryLimit); revision ${rev.revision} is the oldest unused`,
    });
    toKill--;
  }
  return { current, hash, old, collisionCount, writes };
}
