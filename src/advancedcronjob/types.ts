// AdvancedCronJob (apps.kruise.io/v1alpha1): the names and keys OpenKruise's controller writes,
// and the loose shapes the webhooks and the controller read (an admitted or listed object is
// untrusted). The CRD types are in src/api/apps/advancedcronjob.ts.
import type { AdvancedCronJobSpec, AdvancedCronJobStatus } from '../api/apps/advancedcronjob.js';
import type { ObjectMeta } from '../api/kind.js';

export const ACJ_API_VERSION = 'apps.kruise.io/v1alpha1';
export const ACJ_KIND = 'AdvancedCronJob';
export const JOB_API_VERSION = 'batch/v1';
export const JOB_KIND = 'Job';
export const BROADCASTJOB_API_VERSION = 'apps.kruise.io/v1alpha1';
export const BROADCASTJOB_KIND = 'BroadcastJob';
/** v1beta1 only: the ImageListPullJobs a v1beta1 imageListPullJobTemplate makes, owned as OpenKruise 1.9 owns them. */
export const IMAGELISTPULLJOB_API_VERSION = 'apps.kruise.io/v1beta1';
export const IMAGELISTPULLJOB_KIND = 'ImageListPullJob';
export const ACJ_V1BETA1_API_VERSION = 'apps.kruise.io/v1beta1';

/** On each child: its scheduled time (RFC 3339, whole seconds, UTC). */
export const SCHEDULED_AT_ANNOTATION = 'apps.kruise.io/scheduled-at';

/** OpenKruise's defaults (SetDefaultsAdvancedCronJob). */
export const DEFAULT_SUCCESSFUL_HISTORY = 3;
export const DEFAULT_FAILED_HISTORY = 1;

export type ChildKind = typeof JOB_KIND | typeof BROADCASTJOB_KIND | typeof IMAGELISTPULLJOB_KIND;

export type Metadata = ObjectMeta;

export type AdvancedCronJobLike = {
  apiVersion?: string;
  kind?: string;
  metadata: Metadata;
  spec: Partial<AdvancedCronJobSpec> & { template?: AdvancedCronJobSpec['template'] & { imageListPullJobTemplate?: unknown } };
  status?: AdvancedCronJobStatus;
};

/** A Job, BroadcastJob or ImageListPullJob as the controller reads it. */
export type Child = {
  apiVersion?: string;
  kind?: string;
  metadata: Metadata;
  status?: { conditions?: { type?: string; status?: string }[]; startTime?: string; completionTime?: string; succeeded?: number; desired?: number };
};

/** Which kind of child the template makes (OpenKruise's FindTemplateKind: Job, then ImageListPullJob, then BroadcastJob). */
export function childKindOf(spec: AdvancedCronJobLike['spec']): ChildKind {
  if (spec.template?.jobTemplate) return JOB_KIND;
  return spec.template?.imageListPullJobTemplate ? IMAGELISTPULLJOB_KIND : BROADCASTJOB_KIND;
}

export function childApiVersion(kind: ChildKind): string {
  if (kind === IMAGELISTPULLJOB_KIND) return IMAGELISTPULLJOB_API_VERSION;
  return kind === JOB_KIND ? JOB_API_VERSION : BROADCASTJOB_API_VERSION;
}
