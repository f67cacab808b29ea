// PersistentPodState (apps.kruise.io/v1alpha1, OpenKruise apis/apps/v1alpha1/persistent_pod_state_types.go):
// the annotations that ask for one on a StatefulSet, the one the pod webhook stamps, and the loose
// shape the webhooks and the controller read (admitted and listed objects are untrusted).
import type { PersistentPodState, PersistentPodStateSpec, PersistentPodStateStatus } from '../api/apps/persistentpodstate.js';
import type { Loose, ObjectMeta, Stored } from '../api/kind.js';

export const PPS_API_VERSION = 'apps.kruise.io/v1alpha1';
export const PPS_KIND = 'PersistentPodState';
export const PPS_GROUP = 'apps.kruise.io';

export const AUTO_GENERATE_ANNOTATION = 'kruise.io/auto-generate-persistent-pod-state';
export const REQUIRED_TOPOLOGY_ANNOTATION = 'kruise.io/required-persistent-topology';
export const PREFERRED_TOPOLOGY_ANNOTATION = 'kruise.io/preferred-persistent-topology';
export const POD_ANNOTATIONS_ANNOTATION = 'kruise.io/persistent-pod-annotations';
/** Kubernetes' label on every StatefulSet pod (native and Advanced). */
export const STATEFULSET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** On a pod the webhook steered: the PersistentPodState's name. */
export const INJECTED_ANNOTATION = 'kruise.io/injected-persistent-pod-state';

/** A workload reference, as compared (any version; fields may be missing in an unchecked object). */
export type TargetRef = Loose<PersistentPodStateSpec['targetRef']>;

/** A PersistentPodState as the webhook reads it (an admitted object is untrusted). */
export type PersistentPodStateLike = { apiVersion?: string; kind?: string; metadata?: ObjectMeta; spec?: Loose<PersistentPodStateSpec>; status?: PersistentPodStateStatus };

/** A PersistentPodState as listed (named, namespaced). */
export type StoredPersistentPodState = Stored<PersistentPodState>;

export const groupOf = (apiVersion: string | undefined): string => {
  const v = apiVersion ?? '';
  return v.includes('/') ? v.slice(0, v.indexOf('/')) : '';
};

/** IsDefaultSupport: StatefulSets of apps or apps.kruise.io (no custom workload white list here). */
export const isSupportedTarget = (apiVersion: string | undefined, kind: string | undefined): boolean =>
  (groupOf(apiVersion) === 'apps' || groupOf(apiVersion) === PPS_GROUP) && kind === 'StatefulSet';

/** util.IsReferenceEqual: same group, kind and name (any version). */
export const sameTarget = (a: TargetRef | null | undefined, b: TargetRef | null | undefined): boolean =>
  !!a && !!b && groupOf(a.apiVersion) === groupOf(b.apiVersion) && a.kind === b.kind && a.name === b.name;
