// A CloneSet's status as OpenKruise reports it (cloneset_status.go): counts of pods ready,
// available, at the update revision; expectedUpdatedReplicas from partition; the current revision
// moving to the update revision once every pod runs it; the label selector for the scale
// subresource; and conditions for a spec the controller cannot act on. Pure.
import { partitionReplicas } from '../../kube/intstr.js';
import { formatLabelSelector, type LabelSelector } from '../../kube/selectors.js';
import { isPodReadyCondition, podAvailability } from '../../workload/pods.js';
import type { CloneSetCondition, CloneSetStatus } from '../../api/apps/cloneset.js';
import type { StoredCloneSet } from '../types.js';
import { isAvailable, isUpdated, type CloneSetRun } from './run.js';

export function cloneSetStatus(run: CloneSetRun, collisionCount: number): { status: CloneSetStatus; wakeAt?: number } {
  const { cs, pods, now } = run;
  const minReady = cs.spec.minReadySeconds ?? 0;
  let ready = 0;
  let available = 0;
  let updated = 0;
  let updatedReady = 0;
  let updatedAvailable = 0;
  let wakeAt: number | undefined;
  for (const pod of pods) {
    const isNew = isUpdated(run, pod);
    const isReady = isPodReadyCondition(pod);
    const avail = isAvailable(run, pod);
    const at = podAvailability(pod, minReady, now.getTime()).at;
    if (at !== undefined) wakeAt = Math.min(wakeAt ?? Infinity, at);
    ready += isReady ? 1 : 0;
    available += avail ? 1 : 0;
    updated += isNew ? 1 : 0;
    updatedReady += isNew && isReady ? 1 : 0;
    updatedAvailable += isNew && avail ? 1 : 0;
  }
  const replicas = cs.spec.replicas ?? 1;
  const status: CloneSetStatus = {
    observedGeneration: cs.metadata.generation ?? 0,
    replicas: pods.length,
    readyReplicas: ready,
    availableReplicas: available,
    updatedReplicas: updated,
    updatedReadyReplicas: updatedReady,
    updatedAvailableReplicas: updatedAvailable,
    expectedUpdatedReplicas: Math.max(replicas - partitionReplicas(cs.spec.updateStrategy?.partition, replicas), 0),
    updateRevision: run.updateRevision,
    currentRevision: updated === pods.length && pods.length === replicas ? run.updateRevision : run.currentRevision,
    collisionCount,
    labelSelector: formatLabelSelector(cs.spec.selector as LabelSelector | undefined),
  };
  return { status, ...(wakeAt !== undefined ? { wakeAt } : {}) };
}

export const STATUS_FIELDS = ['observedGeneration', 'replicas', 'readyReplicas', 'availableReplicas', 'updatedReplicas', 'updatedReadyReplicas', 'updatedAvailableReplicas', 'expectedUpdatedReplicas', 'updateRevision', 'currentRevision', 'collisionCount', 'labelSelector'] as const;

/** The conditions with `next` set: kept (with its transition time) when nothing about it changed. */
export function withCondition(cs: StoredCloneSet, next: CloneSetCondition | undefined, type: CloneSetCondition['type']): CloneSetCondition[] {
  const current = (cs.status?.conditions ?? []).filter((c) => c.type !== type);
  const prior = (cs.status?.conditions ?? []).find((c) => c.type === type);
  if (!next) return current;
  if (prior && prior.status === next.status && prior.reason === next.reason && prior.message === next.message) return [...current, prior];
  return [...current, next];
}
