// ResourceDistribution's constants and the shapes its reconciler and webhook share. The API types
// themselves (spec, status) live in src/api/apps/resourcedistribution.ts.
export type { ResourceDistribution, ResourceDistributionTargets } from '../api/apps/resourcedistribution.js';

export const RD_API_VERSION = 'apps.kruise.io/v1alpha1';
export const RD_GROUP = 'apps.kruise.io';
export const RD_KIND = 'ResourceDistribution';

/**
 * On every copy: the name of the ResourceDistribution that made it. OpenKruise writes it too, and
 * its documentation says a copy whose annotation names another distribution is a conflict.
 */
export const ANNOTATION_FROM = 'kruise.io/resourcedistribution.resource.from';
/**
 * On every copy: when it was last written. OpenKruise before v1.0 wrote Go's `time.Time.String()`
 * here (`2021-09-06 08:44:52.7861421 +0000 UTC m=+…`); we write RFC 3339 in whole seconds, the
 * format of every other Kubernetes timestamp. Informational only: nothing reads it back.
 */
export const ANNOTATION_TIMESTAMP = 'kruise.io/resourcedistribution.resource.distributed.timestamp';
/** On every copy: sha256 (hex) of the distribution's `spec.resource` when the copy was written. */
export const ANNOTATION_HASH = 'kruise.io/resourcedistribution.resource.hashcode';

/**
 * On every copy we write, valued with the distribution's name (see copyLabelValue), so one LIST
 * per kind finds every copy in the cluster. OpenKruise's copies carry only the annotations above
 * and a controller ownerReference; we adopt such copies by adding this label (decide.ts).
 */
export const COPY_LABEL = 'apps.kruise.io/resourcedistribution';

/**
 * Namespaces `allNamespaces: true` skips; naming one in includedNamespaces (or selecting it by
 * label) still reaches it. OpenKruise before v1.0 never distributed to these and refused them in
 * includedNamespaces; kruise#861 (v1.0) dropped the list, though its documentation still says
 * "targets will always ignore kube-system and kube-public". The Kruise namespace was never on it.
 */
export const FORBIDDEN_NAMESPACES: readonly string[] = ['kube-system', 'kube-public'];

/** The kinds a ResourceDistribution can copy (all apiVersion v1). */
export const DISTRIBUTED_KINDS = ['ConfigMap', 'Secret'] as const;
export type DistributedKind = (typeof DISTRIBUTED_KINDS)[number];

export function isDistributedKind(kind: unknown): kind is DistributedKind {
  return kind === 'ConfigMap' || kind === 'Secret';
}

/** Status condition types, in the order OpenKruise always writes all six of them. */
export const CONDITION_TYPES = [
  'GetResourceFailed',
  'CreateResourceFailed',
  'UpdateResourceFailed',
  'DeleteResourceFailed',
  'ConflictOccurred',
  'NamespaceNotExists',
] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];

/** A condition's reason when it is False (OpenKruise's wording, which clients may match on). */
export const REASON_SUCCEEDED = 'Succeeded';

export type OwnerReference = {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
};

export type CopyMeta = {
  name: string;
  namespace: string;
  uid?: string;
  resourceVersion?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
  deletionTimestamp?: string;
  [k: string]: unknown;
};

/** A ConfigMap or Secret as observed: a copy of ours, OpenKruise's, or someone else's object. */
export type DistributedObject = {
  apiVersion: string;
  kind: DistributedKind;
  metadata: CopyMeta;
  [k: string]: unknown;
};

/** What the reconciler needs to know about a Namespace. */
export type NamespaceFacts = {
  name: string;
  labels?: Record<string, string>;
  /** 'Terminating' once the namespace has a deletionTimestamp. */
  phase?: 'Active' | 'Terminating';
};
