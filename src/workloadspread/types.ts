// WorkloadSpread names shared by the webhook, the edge ledger and the controller: annotation and
// label keys, OpenKruise's timeouts, and the small shapes passed between them (../shared/SEMANTICS.md §3).
import type { V1Pod } from '@kubernetes/client-node';

export type {
  WorkloadSpread,
  WorkloadSpreadSpec,
  WorkloadSpreadStatus,
  WorkloadSpreadSubset,
  WorkloadSpreadSubsetCondition,
  WorkloadSpreadSubsetStatus,
  WorkloadSpreadTargetReference,
  WorkloadSpreadTargetFilter,
} from '../api/apps/workloadspread.js';

export type Pod = V1Pod;

export const WS_GROUP = 'apps.kruise.io';
export const WS_VERSION = 'v1alpha1';
export const WS_API_VERSION = `${WS_GROUP}/${WS_VERSION}`;
export const WS_KIND = 'WorkloadSpread';

/** Pod annotation naming the WorkloadSpread and subset a pod was placed in (Go JSON, §3.3 step 4). */
export const MATCHED_WORKLOADSPREAD_ANNOTATION = 'apps.kruise.io/matched-workloadspread';
/** Read by the ReplicaSet and CloneSet controllers when choosing pods to remove on scale-down. */
export const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
export const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
/** The version key of pods whose workload does not keep versioned subset statuses. */
export const VERSION_IGNORED = 'versionIgnored';

/** Key in kruise-configuration listing custom workloads WorkloadSpread may target. */
export const CUSTOM_WORKLOAD_WHITELIST_KEY = 'WorkloadSpread_Watch_Custom_Workload_WhiteList';

/** A webhook-recorded creation not seen by the controller within this long is forgotten (OpenKruise CreatPodTimeout). */
export const CREATE_POD_TIMEOUT_MS = 30_000;
/** A webhook-recorded deletion whose pod is still active after this long is forgotten (OpenKruise DeletePodTimeout). */
export const DELETE_POD_TIMEOUT_MS = 15_000;
/** An unschedulable subset becomes schedulable again after this long (OpenKruise MaxScheduledFailedDuration). */
export const MAX_SCHEDULED_FAILED_MS = 300_000;

/** The parsed matched-workloadspread annotation. `uid` stands for the pod name when the pod had none yet. */
export type MatchedWorkloadSpread = { name: string; subset: string; uid?: string };

/** A group/kind/name reference, as targetRef and owner references are compared (version ignored). */
export type GroupKindName = { group: string; kind: string; name: string };

/** The group of an apiVersion ("apps/v1" → "apps", "v1" → ""). */
export function groupOf(apiVersion: string | undefined): string {
  const v = apiVersion ?? '';
  const slash = v.indexOf('/');
  return slash < 0 ? '' : v.slice(0, slash);
}
