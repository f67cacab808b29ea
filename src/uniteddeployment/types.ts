// UnitedDeployment (apps.kruise.io/v1alpha1): the labels and annotations OpenKruise's controller
// writes on subset workloads, the four workload kinds a subset can be, and the loose shape the
// webhooks and the controller read (an admitted or listed object is untrusted).
import type {
  UnitedDeploymentCondition,
  UnitedDeploymentSpec,
  UnitedDeploymentStatus,
  UnitedDeploymentSubset,
  UnitedDeploymentSubsetCondition,
  UnitedDeploymentSubsetStatus,
} from '../api/apps/uniteddeployment.js';
import type { Loose, ObjectMeta } from '../api/kind.js';

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

export type Meta = ObjectMeta;

export type WorkloadTemplate = { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };

// The shapes as the webhooks and the controller read them (admitted and listed objects are
// untrusted): src/api's, every field optional. The four templates are read through one view.
export type Subset = Loose<UnitedDeploymentSubset>;
export type UnitedDeploymentSpecLike = Loose<Omit<UnitedDeploymentSpec, 'replicas' | 'selector' | 'template'>> & {
  /** null as a client may send it (OpenKruise's *int32). */
  replicas?: number | null;
  selector?: UnitedDeploymentSpec['selector'];
  template?: Partial<Record<TemplateField, WorkloadTemplate | null>> | null;
};
export type SubsetCondition = Loose<UnitedDeploymentSubsetCondition>;
export type SubsetStatus = Loose<UnitedDeploymentSubsetStatus>;
export type UdCondition = Loose<UnitedDeploymentCondition>;
export type UnitedDeploymentStatusLike = Loose<UnitedDeploymentStatus>;

export type UnitedDeploymentLike = {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  spec: UnitedDeploymentSpecLike;
  status?: UnitedDeploymentStatusLike;
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
export function templateFieldOf(spec: UnitedDeploymentSpecLike): TemplateField | undefined {
  return TEMPLATE_FIELDS.find((f) => spec.template?.[f]);
}

export const isAdaptive = (spec: UnitedDeploymentSpecLike): boolean => spec.topology?.scheduleStrategy?.type === 'Adaptive';
export const rescheduleCriticalMs = (spec: UnitedDeploymentSpecLike): number =>
  (spec.topology?.scheduleStrategy?.adaptive?.rescheduleCriticalSeconds ?? DEFAULT_RESCHEDULE_CRITICAL_SECONDS) * 1000;
export const unschedulableDurationMs = (spec: UnitedDeploymentSpecLike): number =>
  (spec.topology?.scheduleStrategy?.adaptive?.unschedulableDuration ?? DEFAULT_UNSCHEDULABLE_DURATION_SECONDS) * 1000;
