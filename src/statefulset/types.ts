// Advanced StatefulSet names and labels: what OpenKruise's controller writes on pods, PVCs and
// revisions, and the object as the controller reads it.
import type { StatefulSetSpec } from '../api/apps/statefulset.js';

export const STATEFULSET_API_VERSION = 'apps.kruise.io/v1beta1';
export const STATEFULSET_KIND = 'StatefulSet';
/** Every pod carries its own name here (apps/v1 StatefulSetPodNameLabel). */
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** The pod's ordinal (apps/v1 PodIndexLabel; OpenKruise's PodIndexLabel gate, on by default). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** The full revision name `<set>-<hash>`. */
export const REVISION_HASH_LABEL = 'controller-revision-hash';
export const SPECIFIED_DELETE_LABEL = 'apps.kruise.io/specified-delete';

export type StatefulSetStatusFields = {
  observedGeneration?: number;
  replicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  updatedReadyReplicas?: number;
  updatedAvailableReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  labelSelector?: string;
  conditions?: { type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string }[];
  [k: string]: unknown;
};

export type StatefulSet = {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace: string;
    uid?: string;
    generation?: number;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    deletionTimestamp?: string | null;
  };
  spec: StatefulSetSpec;
  status?: StatefulSetStatusFields;
};

/** The StatefulSet as the object of a write, status or Event. */
export const statefulSetRef = (set: { metadata: { name: string; namespace: string } }) => ({
  apiVersion: STATEFULSET_API_VERSION,
  kind: STATEFULSET_KIND,
  name: set.metadata.name,
  namespace: set.metadata.namespace,
});
