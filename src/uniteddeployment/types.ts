// UnitedDeployment (apps.kruise.io/v1alpha1): the labels and annotations OpenKruise's controller
// writes on subset workloads, the four workload kinds a subset can be, and the loose shape the
// webhooks and the controller read (an admitted or listed object is untrusted).
import type { IntOrString } from '../kube/intstr.js';
import type { LabelSelector } from '../kube/selectors.js';

export const UD_API_VERSION = 'apps.kruise.io/v1alpha1';
export const UD_KIND = 'UnitedDeployment';

/** SubSetNameLabelKey: on each subset workload, its selector and its pod template. */
export const SUBSET_NAME_LABEL = 'apps.kruise.io/subset-name';
/** ControllerRevisionHashLabelKey: the UnitedDeployment revision a workload (and its pods) were made from. */
export const UD_REVISION_LABEL = 'apps.kruise.io/controller-revision-hash';
/** AnnotationSubsetPatchKey: the subset's patch, as applied to the workload. */
export const SUBSET_PATCH_ANNOTATION = 'apps.kruise.io/subset-patch';

export const DEFAULT_RESCHEDULE_CRITICAL_SECONDS = 30;
export const DEFAULT_UNSCHEDULABLE_DURATION_SECONDS = 300;
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** The template field that is set → the subset workload's kind. */
export const TEMPLATE_KINDS = {
  statefulSetTemplate: { apiVersion: 'apps/v1', kind: 'StatefulSet' },
  advancedStatefulSetTemplate: { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' },
  cloneSetTemplate: { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' },
  deploymentTemplate: { apiVersion: 'apps/v1', kind: 'Deployment' },
} as const;
export type TemplateField = keyof typeof TEMPLATE_KINDS;
export const TEMPLATE_FIELDS = Object.keys(TEMPLATE_KINDS) as TemplateField[];
export type WorkloadKind = (typeof TEMPLATE_KINDS)[TemplateField];

export type Meta = {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  resourceVersion?: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: { apiVersion?: string; kind?: string; name?: string; uid?: string; controller?: boolean; blockOwnerDeletion?: boolean }[];
};

export type WorkloadTemplate = { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };

export type Subset = {
  name?: string;
  nodeSelectorTerm?: { matchExpressions?: unknown[]; matchFields?: unknown[] };
  tolerations?: unknown[];
  replicas?: IntOrString | null;
  minReplicas?: IntOrString | null;
  maxReplicas?: IntOrString | null;
  patch?: unknown;
};

export type UnitedDeploymentSpec = {
  replicas?: number | null;
  selector?: LabelSelector | null;
  template?: Partial<Record<TemplateField, WorkloadTemplate | null>> | null;
  topology?: {
    subsets?: Subset[] | null;
    scheduleStrategy?: { type?: string; adaptive?: { rescheduleCriticalSeconds?: number | null; unschedulableDuration?: number | null; reserveUnschedulablePods?: boolean | null } | null } | null;
  } | null;
  updateStrategy?: { type?: string; manualUpdate?: { partitions?: Record<string, number> | null } | null } | null;
  revisionHistoryLimit?: number | null;
};

export type SubsetCondition = { type: string; status: string; lastTransitionTime?: string; reason?: string; message?: string };
export type SubsetStatus = { name?: string; replicas?: number; readyReplicas?: number; partition?: number; reservedPods?: number; conditions?: SubsetCondition[] };
export type UdCondition = { type?: string; status?: string; lastTransitionTime?: string; reason?: string; message?: string };

export type UnitedDeploymentStatus = {
  observedGeneration?: number;
  replicas?: number;
  readyReplicas?: number;
  updatedReplicas?: number;
  reservedPods?: number;
  updatedReadyReplicas?: number;
  collisionCount?: number;
  currentRevision?: string;
  subsetReplicas?: Record<string, number>;
  subsetStatuses?: SubsetStatus[];
  conditions?: UdCondition[];
  updateStatus?: { updatedRevision?: string; currentPartitions?: Record<string, number> };
  labelSelector?: string;
};

export type UnitedDeploymentLike = {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  spec: UnitedDeploymentSpec;
  status?: UnitedDeploymentStatus;
};

/** A subset workload as listed (any of the four kinds). */
export type Workload = {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  spec: Record<string, unknown> & { replicas?: number; template?: Record<string, unknown> };
  status?: { replicas?: number; readyReplicas?: number; updatedReplicas?: number; conditions?: { type?: string; status?: string; message?: string; reason?: string }[] };
};

/** Which of the four templates is set (the first, in OpenKruise's order). */
export function templateFieldOf(spec: UnitedDeploymentSpec): TemplateField | undefined {
  return TEMPLATE_FIELDS.find((f) => spec.template?.[f]);
}

export const isAdaptive = (spec: UnitedDeploymentSpec): boolean => spec.topology?.scheduleStrategy?.type === 'Adaptive';
export const rescheduleCriticalMs = (spec: UnitedDeploymentSpec): number =>
  (spec.topology?.scheduleStrategy?.adaptive?.rescheduleCriticalSeconds ?? DEFAULT_RESCHEDULE_CRITICAL_SECONDS) * 1000;
export const unschedulableDurationMs = (spec: UnitedDeploymentSpec): number =>
  (spec.topology?.scheduleStrategy?.adaptive?.unschedulableDuration ?? DEFAULT_UNSCHEDULABLE_DURATION_SECONDS) * 1000;
