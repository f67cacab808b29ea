// An Advanced StatefulSet's status (updateStatus, computeReplicaStatus, completeRollingUpdate in
// OpenKruise's stateful_set_control.go / stateful_set_utils.go), from the pods as observed: a
// run's own writes show in the next run's status. currentRevision moves to the update revision
// once every pod is updated and ready (RollingUpdate only). Pure.
import { formatLabelSelector, type LabelSelector } from '../../kube/selectors.js';
import type { Pod } from '../../workload/pods.js';
import type { StatefulSetStatus } from '../../api/apps/statefulset.js';
import { availability, isCreated, isRunningAndReady, isTerminating, podRevision, type StsRun } from './run.js';

/** The status fields this controller computes, all set. */
export type ComputedStatus = Required<Pick<StatefulSetStatus,
  'observedGeneration' | 'replicas' | 'readyReplicas' | 'availableReplicas' | 'currentReplicas' | 'updatedReplicas' | 'updatedReadyReplicas' | 'updatedAvailableReplicas' | 'currentRevision' | 'updateRevision' | 'collisionCount' | 'labelSelector'>>;

/** The fields compared to tell whether the stored status is stale (inconsistentStatus, plus the updated-ready counts). */
export const STATUS_FIELDS = ['observedGeneration', 'replicas', 'readyReplicas', 'availableReplicas', 'currentReplicas', 'updatedReplicas', 'updatedReadyReplicas', 'updatedAvailableReplicas', 'currentRevision', 'updateRevision', 'collisionCount', 'labelSelector'] as const;

export function statefulSetStatus(run: StsRun, pods: readonly Pod[], collisionCount: number): ComputedStatus {
  const s: ComputedStatus = {
    observedGeneration: run.set.metadata.generation ?? 0,
    replicas: 0,
    readyReplicas: 0,
    availableReplicas: 0,
    currentReplicas: 0,
    updatedReplicas: 0,
    updatedReadyReplicas: 0,
    updatedAvailableReplicas: 0,
    currentRevision: run.currentRevision,
    updateRevision: run.updateRevision,
    collisionCount,
    labelSelector: formatLabelSelector(run.set.spec.selector as LabelSelector | undefined),
  };
  for (const pod of pods) {
    if (!isCreated(pod)) continue;
    s.replicas++;
    const revision = podRevision(pod);
    if (isRunningAndReady(pod)) {
      s.readyReplicas++;
      const available = availability(run, pod).available;
      if (available) s.availableReplicas++;
      if (revision === run.updateRevision) {
        s.updatedReadyReplicas++;
        if (available) s.updatedAvailableReplicas++;
      }
    }
    if (!isTerminating(pod)) {
      if (revision === run.currentRevision) s.currentReplicas++;
      if (revision === run.updateRevision) s.updatedReplicas++;
    }
  }
  if ((run.set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' && s.updatedReplicas === s.replicas && s.readyReplicas === s.replicas) {
    s.currentReplicas = s.updatedReplicas;
    s.currentRevision = s.updateRevision;
  }
  return s;
}
