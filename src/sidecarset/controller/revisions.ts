// A SidecarSet's ControllerRevisions (../shared/SEMANTICS.md §2.4.3), as OpenKruise's controller keeps
// them: registerLatestRevision and truncateHistory in pkg/controller/sidecarset/sidecarset_processor.go,
// NewRevision / getPatch / CreateControllerRevision in pkg/control/sidecarcontrol/history_control.go,
// and k8s.io/kubernetes/pkg/controller/history (names, hashes, ordering). Pure, Web APIs only.
//
// A revision lives in the Kruise namespace, named `<set>-<hash>`, labelled with the set's labels
// plus `kruise.io/sidecarset-name` and `controller.kubernetes.io/hash`, annotated with all the
// set's annotations (so the hash annotations the webhook restores from), owned by the set, and its
// `data` is the strategic merge patch
//   {"spec":{"$patch":"replace","containers":…,"imagePullSecrets":…,"initContainers":…,"patchPodMetadata":…,"volumes":…}}
// (absent fields as null; containers and initContainers as Go's typed encoding leaves them,
// go-json.ts), spelled as Go spells a map: keys sorted at every level. For the objects OpenKruise's
// defaulting produces that is byte for byte what it stores, so revision names agree with its own.
// Equality of revisions is decided on that spelling, not on the bytes the API server returns.
import type { ObjectRef, Write } from '../../reconcile/types.js';
import { encodeSidecarContainers } from '../../kube/go-sidecar-containers.js';
import {
  CONTROLLER_REVISION_HASH_LABEL,
  compareRevisions,
  decideUpdateRevision,
  hashControllerRevision,
  nameRevision,
  revisionDataJson,
  type ControllerRevision,
} from '../../workload/revisions.js';
import { CUSTOM_VERSION_LABEL, SIDECARSET_NAME_LABEL, type SidecarSet } from '../types.js';
import { podControllerRevision } from './annotations.js';
import { setName } from './pod-state.js';
import type { Pod } from '../../workload/pods.js';
import { controllerReference } from '../../kube/owner-reference.js';

const DEFAULT_REVISION_HISTORY_LIMIT = 10;


const REVISION_REF = { apiVersion: 'apps/v1', kind: 'ControllerRevision' } as const;

function refTo(rev: ControllerRevision): ObjectRef {
  return { ...REVISION_REF, name: rev.metadata.name, namespace: rev.metadata.namespace };
}

/** SidecarContainers as Go's typed encoding leaves them (zero-value fields dropped, `resources: {}`). */
function asGoContainers(list: readonly unknown[] | undefined): unknown {
  return JSON.parse(encodeSidecarContainers(list ?? null)) as unknown;
}

/** getPatch: the revision's `data` for the set's current spec. */
export function revisionData(set: SidecarSet): Record<string, unknown> {
  const spec = set.spec ?? {};
  return {
    spec: {
      $patch: 'replace',
      containers: asGoContainers(spec.containers),
      imagePullSecrets: spec.imagePullSecrets ?? null,
      initContainers: asGoContainers(spec.initContainers),
      patchPodMetadata: spec.patchPodMetadata ?? null,
      volumes: spec.volumes ?? null,
    },
  };
}


/** ListControllerRevisions: the set's revisions (by label) that it controls or that nothing controls. */
export function ownedRevisions(set: SidecarSet, revisions: readonly ControllerRevision[]): ControllerRevision[] {
  const name = setName(set);
  const uid = set.metadata?.uid;
  return revisions
    .filter((r) => r.metadata.labels?.[SIDECARSET_NAME_LABEL] === name)
    .filter((r) => {
      const controller = r.metadata.ownerReferences?.find((o) => o.controller);
      return !controller || !uid || controller.uid === uid;
    })
    .sort(compareRevisions);
}

export type RevisionPlan = {
  /** The revision the set's current spec is stored in (status.latestRevision). */
  latestRevision: string;
  /** status.collisionCount after naming the latest revision. */
  collisionCount: number;
  writes: Write[];
};

function newRevision(set: SidecarSet, namespace: string, data: Record<string, unknown>, revision: number, collisionCount: number): ControllerRevision {
  const name = setName(set);
  const labels = { ...(set.metadata?.labels ?? {}) };
  labels[CONTROLLER_REVISION_HASH_LABEL] = hashControllerRevision(revisionDataJson(data), collisionCount);
  labels[SIDECARSET_NAME_LABEL] = name;
  return {
    ...REVISION_REF,
    metadata: {
      name: '',
      namespace,
      labels,
      annotations: { ...(set.metadata?.annotations ?? {}) },
      ownerReferences: [
        controllerReference('apps.kruise.io/v1alpha1', 'SidecarSet', { name, uid: set.metadata?.uid }),
      ],
    },
    // The API server stores `data` as given; handing it over already sorted keeps Go's bytes.
    data: JSON.parse(revisionDataJson(data)) as unknown,
    revision,
  };
}

/**
 * The ControllerRevision writes for a set and the name of its latest revision. The latest is the
 * newest revision when its data equals the current spec; else an older equal revision is renumbered
 * to the front (a rollback); else a new one is created, its name hashed from the data and the
 * collision count (raised while the name is taken by different data). Then, beyond
 * `revisionHistoryLimit` (default 10, at least 1), the oldest revisions are deleted — never the
 * latest, nor one a matching pod's sidecars came from, nor the one `injectionStrategy.revision`
 * pins (by name, or the newest with its custom version).
 */
export function planRevisions(set: SidecarSet, revisions: readonly ControllerRevision[], pods: readonly Pod[], namespace: string): RevisionPlan {
  const name = setName(set);
  const writes: Write[] = [];
  const list = ownedRevisions(set, revisions);
  const data = revisionData(set);
  const json = revisionDataJson(data);
  let collisionCount = set.status?.collisionCount ?? 0;

  const decision = decideUpdateRevision(list, json);
  let latest: ControllerRevision;
  if (decision.kind === 'current') {
    latest = decision.revision;
  } else if (decision.kind === 'renumber') {
    const lastEqual = decision.revision;
    const next = decision.to;
    latest = { ...lastEqual, revision: next };
    writes.push({
      op: 'patch',
      target: refTo(lastEqual),
      patchType: 'merge',
      patch: { metadata: { resourceVersion: lastEqual.metadata.resourceVersion }, revision: next },
      reason: `SidecarSet ${name} went back to the spec of revision ${lastEqual.revision}; it becomes revision ${next}`,
    });
    list.splice(list.indexOf(lastEqual), 1);
    list.push(latest);
  } else {
    const next = decision.to;
    const created = newRevision(set, namespace, data, next, collisionCount);
    const byName = new Map(revisions.filter((r) => (r.metadata.namespace ?? namespace) === namespace).map((r) => [r.metadata.name, r]));
    const named = nameRevision(name, json, collisionCount, (n) => byName.get(n));
    created.metadata.name = named.name;
    collisionCount = named.collisionCount;
    latest = created;
    writes.push({ op: 'create', object: created, reason: `SidecarSet ${name} has a new spec: revision ${next}` });
    list.push(latest);
  }

  const customVersion = set.metadata?.labels?.[CUSTOM_VERSION_LABEL] ?? '';
  if (customVersion && latest.metadata.labels?.[CUSTOM_VERSION_LABEL] !== customVersion && writes.every((w) => w.op !== 'create')) {
    writes.push({
      op: 'patch',
      target: refTo(latest),
      patchType: 'strategic',
      patch: { metadata: { labels: { [CUSTOM_VERSION_LABEL]: customVersion } } },
      reason: `SidecarSet ${name} carries ${CUSTOM_VERSION_LABEL}=${customVersion}; its latest revision takes the label`,
    });
  }

  writes.push(...truncateHistory(set, list, pods));
  return { latestRevision: latest.metadata.name, collisionCount, writes };
}

/** filterActiveRevisions: revisions still referenced by matching pods or by injectionStrategy.revision. */
function activeRevisions(set: SidecarSet, list: readonly ControllerRevision[], pods: readonly Pod[]): Set<string> {
  const active = new Set<string>();
  for (const pod of pods) {
    const rev = podControllerRevision(pod, setName(set));
    if (rev) active.add(rev);
  }
  const pinned = set.spec?.injectionStrategy?.revision;
  if (pinned?.revisionName) active.add(pinned.revisionName);
  if (pinned?.customVersion != null) {
    const tagged = list.filter((r) => r.metadata.labels?.[CUSTOM_VERSION_LABEL] === pinned.customVersion).sort(compareRevisions);
    const newest = tagged[tagged.length - 1];
    if (newest) active.add(newest.metadata.name);
  }
  return active;
}

/** truncateHistory: deletes, oldest first, of revisions beyond the limit that nothing uses. */
function truncateHistory(set: SidecarSet, list: readonly ControllerRevision[], pods: readonly Pod[]): Write[] {
  const limit = Math.max(1, set.spec?.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT);
  let excess = list.length - limit;
  if (excess <= 0) return [];
  const active = activeRevisions(set, list, pods);
  const writes: Write[] = [];
  for (let i = 0; i < list.length - 1 && excess > 0; i++) {
    const rev = list[i]!;
    if (active.has(rev.metadata.name)) continue;
    writes.push({
      op: 'delete',
      target: refTo(rev),
      ...(rev.metadata.uid ? { preconditions: { uid: rev.metadata.uid } } : {}),
      reason: `SidecarSet ${setName(set)} keeps ${limit} revisions (revisionHistoryLimit); revision ${rev.revision} is the oldest unused`,
    });
    excess -= 1;
  }
  return writes;
}
