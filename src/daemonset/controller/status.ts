// A DaemonSet's status as OpenKruise computes it (updateDaemonSetStatus): per node that should
// run the pod, whether it runs one (the oldest bound one counts), ready, available, updated; pods on
// nodes that should not run one are misscheduled; numberUnavailable = desired − available;
// daemonSetHash the current revision's hash. Also when the next pod becomes available (a wake-up
// for minReadySeconds). Pure.
import { podAvailability, type Pod } from '../../workload/pods.js';
import { podOrder } from './placement.js';
import { isAvailable, isReady, isUpdated, type DaemonSetRun } from './run.js';

export const STATUS_FIELDS = [
  'observedGeneration', 'desiredNumberScheduled', 'currentNumberScheduled', 'numberMisscheduled', 'numberReady',
  'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable', 'daemonSetHash', 'collisionCount',
] as const;

export type DaemonSetStatusCounts = {
  observedGeneration: number;
  desiredNumberScheduled: number;
  currentNumberScheduled: number;
  numberMisscheduled: number;
  numberReady: number;
  updatedNumberScheduled: number;
  numberAvailable: number;
  numberUnavailable: number;
  daemonSetHash: string;
  collisionCount?: number;
};

export function daemonSetStatus(run: DaemonSetRun, collisionCount: number): { status: DaemonSetStatusCounts; wakeAt?: number } {
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  let wakeAt: number | undefined;
  for (const [node, e] of run.eligibility) {
    const pods: Pod[] = [...(run.podsByNode.get(node) ?? [])];
    const scheduled = pods.length > 0;
    if (!e.shouldRun) {
      if (scheduled) misscheduled++;
      continue;
    }
    desired++;
    if (!scheduled) continue;
    current++;
    const pod = pods.sort(podOrder)[0]!;
    if (isReady(pod)) {
      ready++;
      if (isAvailable(run, pod)) available++;
      else {
        const at = podAvailability(pod, run.ds.spec.minReadySeconds ?? 0, run.now.getTime()).at;
        if (at !== undefined) wakeAt = Math.min(wakeAt ?? Infinity, at);
      }
    }
    if (isUpdated(run, pod)) updated++;
  }
  return {
    status: {
      observedGeneration: run.ds.metadata.generation ?? 0,
      desiredNumberScheduled: desired,
      currentNumberScheduled: current,
      numberMisscheduled: misscheduled,
      numberReady: ready,
      updatedNumberScheduled: updated,
      numberAvailable: available,
      numberUnavailable: desired - available,
      daemonSetHash: run.hash,
      ...(collisionCount > 0 || run.ds.status?.collisionCount !== undefined ? { collisionCount } : {}),
    },
    ...(wakeAt !== undefined ? { wakeAt } : {}),
  };
}
