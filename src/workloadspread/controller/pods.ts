// Pod facts the WorkloadSpread controller needs: which subset a pod was placed in, its ledger key,
// whether it has been unschedulable too long (Adaptive), and the order a workload would delete
// pods in (kubecontroller.ActivePods), which decides who is surplus for deletion cost.
import { parseMatchedWorkloadSpread } from '../inject.js';
import type { Pod, WorkloadSpread } from '../types.js';

export { isPodActive } from '../webhook.js';

/** The subset of this WorkloadSpread the pod is annotated with, if it still exists in spec. */
export function subsetOfPod(pod: Pod, ws: WorkloadSpread): string | undefined {
  const m = parseMatchedWorkloadSpread(pod);
  if (!m || m.name !== ws.metadata?.name || !m.subset) return undefined;
  return ws.spec.subsets.some((s) => s.name === m.subset) ? m.subset : undefined;
}

/** The key the webhook recorded the pod under: the generated uid for pods admitted without a name. */
export function podKey(pod: Pod): string {
  return parseMatchedWorkloadSpread(pod)?.uid ?? pod.metadata?.name ?? '';
}

const time = (t: Date | string | undefined): number => (t === undefined ? Number.NaN : new Date(t).getTime());

/**
 * When a pending, unscheduled pod marked Unschedulable passes `criticalMs` since its creation
 * (OpenKruise GetTimeBeforePendingTimeout); undefined for any other pod.
 */
export function unschedulableDeadline(pod: Pod, criticalMs: number): number | undefined {
  if (pod.metadata?.deletionTimestamp || pod.status?.phase !== 'Pending' || pod.spec?.nodeName) return undefined;
  const unschedulable = (pod.status?.conditions ?? []).some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable');
  const created = time(pod.metadata?.creationTimestamp as Date | string | undefined);
  return unschedulable && Number.isFinite(created) ? created + criticalMs : undefined;
}

const PHASE_RANK: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
const readySince = (p: Pod) => {
  const c = (p.status?.conditions ?? []).find((x) => x.type === 'Ready' && x.status === 'True');
  return c ? time(c.lastTransitionTime as Date | string | undefined) : undefined;
};
const restarts = (p: Pod) => Math.max(0, ...(p.status?.containerStatuses ?? []).map((s) => s.restartCount ?? 0));

/** Negative when `a` would be deleted before `b`. */
export function deletionOrder(a: Pod, b: Pod): number {
  const assigned = Number(Boolean(a.spec?.nodeName)) - Number(Boolean(b.spec?.nodeName));
  if (assigned) return assigned;
  const phase = (PHASE_RANK[a.status?.phase ?? ''] ?? 0) - (PHASE_RANK[b.status?.phase ?? ''] ?? 0);
  if (phase) return phase;
  const ra = readySince(a);
  const rb = readySince(b);
  if ((ra === undefined) !== (rb === undefined)) return ra === undefined ? -1 : 1;
  if (ra !== undefined && rb !== undefined && ra !== rb) return rb - ra; // ready for less time goes first
  const restart = restarts(b) - restarts(a);
  if (restart) return restart;
  const ca = time(a.metadata?.creationTimestamp as Date | string | undefined);
  const cb = time(b.metadata?.creationTimestamp as Date | string | undefined);
  if (Number.isNaN(ca) !== Number.isNaN(cb)) return Number.isNaN(ca) ? -1 : 1;
  return Number.isNaN(ca) ? 0 : cb - ca; // newer first
}
