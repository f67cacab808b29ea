// The workload controllers' PodUnavailableBudget port (src/workload/disruption.ts), for in-place
// updates and deletions, over observed PUBs: the same rules as the webhook's check (§4.4 rules 1–3, 5–8), on the status
// the PUB reconciler last wrote, with an allowance spent per plan so several pods of one PUB are
// not all allowed against the same count. A status that does not describe the current generation
// allows nothing. The status may also predate pods the workload has made unavailable since (a
// CloneSet's in-place update starts with a status write the webhook never sees, so the ledger is
// not spent): those the status cannot have counted are taken off the allowance. The webhook and
// its ledger stay the authority where they see the disruption. Pure.
import type { DisruptionBudgetSource, DisruptionVerdict } from '../workload/disruption.js';
import type { Pod } from '../workload/pods.js';
import { isPodAvailableForBudget } from './pod-state.js';
import { NO_PROTECT_ANNOTATION, protectedOperations, RELATED_PUB_ANNOTATION, type PodUnavailableBudget } from './types.js';

/** The PUB a pod counts toward (namespace/name), unless it names none or is not protected. */
function protectingPub(pod: Pod): string | undefined {
  const name = pod.metadata.annotations?.[RELATED_PUB_ANNOTATION];
  return name && pod.metadata.annotations?.[NO_PROTECT_ANNOTATION] !== 'true' ? `${pod.metadata.namespace}/${name}` : undefined;
}

const isPendingIn = (status: PodUnavailableBudget['status'], pod: Pod) =>
  pod.metadata.name in (status?.disruptedPods ?? {}) || pod.metadata.name in (status?.unavailablePods ?? {});

export const pubDisruptionBudgets: DisruptionBudgetSource = ({ budgets, pods }) => {
  const byKey = new Map(budgets.map((b) => [`${b.metadata?.namespace ?? ''}/${b.metadata?.name ?? ''}`, b]));
  // The observed pods (not terminating) each PUB would count as unavailable now.
  const unavailableNow = new Map<string, number>();
  for (const pod of pods) {
    const key = protectingPub(pod);
    if (!key || pod.metadata.deletionTimestamp) continue;
    if (isPendingIn(byKey.get(key)?.status, pod) || !isPodAvailableForBudget(pod)) unavailableNow.set(key, (unavailableNow.get(key) ?? 0) + 1);
  }
  const spent = new Map<string, number>();
  const request = (pod: Pod, operation: 'UPDATE' | 'DELETE'): DisruptionVerdict => {
    const key = protectingPub(pod);
    if (!key || !isPodAvailableForBudget(pod)) return { allowed: true };
    const name = key.slice(key.indexOf('/') + 1);
    const pub = byKey.get(key);
    if (!pub) return { allowed: true };
    const status = pub.status;
    if (!status || status.observedGeneration !== pub.metadata?.generation) {
      return { allowed: false, reason: `podunavailablebudget "${name}" has no current status yet` };
    }
    if (status.desiredAvailable === 0 || !protectedOperations(pub.metadata?.annotations).includes(operation)) return { allowed: true };
    if (isPendingIn(status, pod)) return { allowed: true };
    // The status counted at most totalReplicas − currentAvailable pods unavailable; more now are
    // news to it. (An unready surge pod beyond totalReplicas is counted too: cautious, never over.)
    const unseen = Math.max(0, (unavailableNow.get(key) ?? 0) - Math.max(0, status.totalReplicas - status.currentAvailable));
    const left = status.unavailableAllowed - unseen - (spent.get(key) ?? 0);
    if (left <= 0) return { allowed: false, reason: `podunavailablebudget "${name}" allows no more unavailable pods` };
    spent.set(key, (spent.get(key) ?? 0) + 1);
    return { allowed: true };
  };
  return { requestUpdate: (pod) => request(pod, 'UPDATE'), requestDelete: (pod) => request(pod, 'DELETE') };
};
