// The workload controllers' PodUnavailableBudget port (src/workload/disruption.ts), for in-place
// updates and deletions, over observed PUBs: the same rules as the webhook's check (§4.4 rules 1–3, 5–8), on the status
// the PUB reconciler last wrote, with an allowance spent per plan so several pods of one PUB are
// not all allowed against the same count. A status that does not describe the current generation
// allows nothing. The webhook and its ledger stay the authority; this only keeps the controller
// from planning updates that will be refused. Pure.
import type { DisruptionBudgetSource, DisruptionVerdict } from '../workload/disruption.js';
import type { Pod } from '../workload/pods.js';
import { isPodAvailableForBudget } from './pod-state.js';
import { NO_PROTECT_ANNOTATION, protectedOperations, RELATED_PUB_ANNOTATION } from './types.js';

export const pubDisruptionBudgets: DisruptionBudgetSource = ({ budgets }) => {
  const byKey = new Map(budgets.map((b) => [`${b.metadata?.namespace ?? ''}/${b.metadata?.name ?? ''}`, b]));
  const spent = new Map<string, number>();
  const request = (pod: Pod, operation: 'UPDATE' | 'DELETE'): DisruptionVerdict => {
    const name = pod.metadata.annotations?.[RELATED_PUB_ANNOTATION];
    if (!name || pod.metadata.annotations?.[NO_PROTECT_ANNOTATION] === 'true' || !isPodAvailableForBudget(pod)) return { allowed: true };
    const key = `${pod.metadata.namespace}/${name}`;
    const pub = byKey.get(key);
    if (!pub) return { allowed: true };
    const status = pub.status;
    if (!status || status.observedGeneration !== pub.metadata?.generation) {
      return { allowed: false, reason: `podunavailablebudget "${name}" has no current status yet` };
    }
    if (status.desiredAvailable === 0 || !protectedOperations(pub.metadata?.annotations).includes(operation)) return { allowed: true };
    if (pod.metadata.name in (status.disruptedPods ?? {}) || pod.metadata.name in (status.unavailablePods ?? {})) return { allowed: true };
    const left = status.unavailableAllowed - (spent.get(key) ?? 0);
    if (left <= 0) return { allowed: false, reason: `podunavailablebudget "${name}" allows no more unavailable pods` };
    spent.set(key, (spent.get(key) ?? 0) + 1);
    return { allowed: true };
  };
  return { requestUpdate: (pod) => request(pod, 'UPDATE'), requestDelete: (pod) => request(pod, 'DELETE') };
};
