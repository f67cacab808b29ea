// An Advanced StatefulSet's ControllerRevision history (getStatefulSetRevisions, newRevision,
// truncateHistory in OpenKruise's stateful_set_control.go / stateful_set_utils.go): the shared
// template revision — data `{"spec":{"template":{…,"$patch":"replace"}}}`, byte for byte as Go
// writes it — owned by the StatefulSet, with its annotations. Pure.
import type { Pod } from '../workload/pods.js';
import type { ControllerRevision } from '../workload/revisions.js';
import { planRevisionHistory, type RevisionHistoryPlan } from '../workload/revision-history.js';
import { newTemplateRevision, templateRevisionData } from '../workload/template-revision.js';
import { STATEFULSET_API_VERSION, STATEFULSET_KIND, type StoredStatefulSet } from './types.js';

export const statefulSetRevisionData = (set: StoredStatefulSet): string => templateRevisionData(set.spec?.template);

export function newStatefulSetRevision(set: StoredStatefulSet, collisionCount: number, revision: number): ControllerRevision {
  const { name, namespace, uid, annotations } = set.metadata;
  return newTemplateRevision(
    {
      // The owner reference names the stored version, whatever version the object was read at.
      apiVersion: STATEFULSET_API_VERSION,
      kind: STATEFULSET_KIND,
      metadata: { name, namespace, ...(uid ? { uid } : {}), ...(annotations ? { annotations } : {}) },
      template: set.spec?.template as never,
    },
    collisionCount,
    revision,
  );
}

export function planStatefulSetRevisions(set: StoredStatefulSet, revisions: readonly ControllerRevision[], pods: readonly Pod[]): RevisionHistoryPlan {
  return planRevisionHistory({
    owner: {
      kind: STATEFULSET_KIND,
      name: set.metadata.name,
      namespace: set.metadata.namespace,
      ...(set.metadata.uid ? { uid: set.metadata.uid } : {}),
      selector: set.spec?.selector as never,
      ...(set.spec?.revisionHistoryLimit !== undefined ? { revisionHistoryLimit: set.spec.revisionHistoryLimit } : {}),
      ...(set.status?.collisionCount !== undefined ? { collisionCount: set.status.collisionCount } : {}),
      ...(set.status?.currentRevision ? { currentRevision: set.status.currentRevision } : {}),
    },
    revisions,
    dataJson: statefulSetRevisionData(set),
    newRevision: (collisionCount, revision) => newStatefulSetRevision(set, collisionCount, revision),
    pods,
  });
}
