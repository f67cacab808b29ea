// Advanced StatefulSet names and labels: what OpenKruise's controller writes on pods, PVCs and
// revisions, and the object as the controller reads it.
import type { StatefulSet } from '../api/apps/statefulset.js';
import type { Stored } from '../api/kind.js';

export const STATEFULSET_API_VERSION = 'apps.kruise.io/v1beta1';
export const STATEFULSET_KIND = 'StatefulSet';
/** Every pod carries its own name here (apps/v1 StatefulSetPodNameLabel). */
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** The pod's ordinal (apps/v1 PodIndexLabel; OpenKruise's PodIndexLabel gate, on by default). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** The full revision name `<set>-<hash>`. */
export const REVISION_HASH_LABEL = 'controller-revision-hash';
export const SPECIFIED_DELETE_LABEL = 'apps.kruise.io/specified-delete';

/** An Advanced StatefulSet as the controller lists it (named, namespaced). */
export type StoredStatefulSet = Stored<StatefulSet>;

/** The StatefulSet as the object of a write, status or Event. */
export const statefulSetRef = (set: { metadata: { name: string; namespace: string } }) => ({
  apiVersion: STATEFULSET_API_VERSION,
  kind: STATEFULSET_KIND,
  name: set.metadata.name,
  namespace: set.metadata.namespace,
});
