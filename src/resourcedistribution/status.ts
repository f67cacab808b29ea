// A ResourceDistribution's status as OpenKruise computes it (calculateNewStatus in
// pkg/controller/resourcedistribution/utils.go): counts, and always all six conditions in a fixed
// order — True with the failed namespaces, or False with reason "Succeeded". Pure.
import type { ResourceDistributionCondition, ResourceDistributionStatus } from '../api/apps/resourcedistribution.js';
import { canonicalJson } from './canonical-json.js';
import { CONDITION_TYPES, REASON_SUCCEEDED, type ConditionType, type ResourceDistribution } from './types.js';

/** The status this controller computes: every field set. */
export type DistributionStatus = Required<ResourceDistributionStatus>;

/** Namespaces that failed, by condition, each with the reason recorded when there are any. */
export type Failures = Partial<Record<ConditionType, { reason: string; namespaces: string[] }>>;

export function computeStatus(
  rd: ResourceDistribution,
  counts: { desired: number; succeeded: number },
  failures: Failures,
  now: string,
): DistributionStatus {
  const old = new Map((rd.status?.conditions ?? []).map((c) => [c.type, c]));
  const conditions = CONDITION_TYPES.map((type): ResourceDistributionCondition => {
    const f = failures[type];
    const failed = !!f && f.namespaces.length > 0;
    const status = failed ? 'True' : 'False';
    const prev = old.get(type);
    const lastTransitionTime = prev?.status === status && prev.lastTransitionTime ? prev.lastTransitionTime : now;
    return failed
      ? { type, status, lastTransitionTime, reason: f.reason, failedNamespace: [...f.namespaces].sort() }
      : { type, status, lastTransitionTime, reason: REASON_SUCCEEDED };
  });
  return {
    desired: counts.desired,
    succeeded: counts.succeeded,
    failed: counts.desired - counts.succeeded,
    observedGeneration: rd.metadata.generation ?? 0,
    conditions,
  };
}

/** Whether writing `next` would change anything (OpenKruise skips the write when equal). */
export function statusChanged(rd: ResourceDistribution, next: DistributionStatus): boolean {
  return canonicalJson(rd.status ?? {}) !== canonicalJson(next);
}
