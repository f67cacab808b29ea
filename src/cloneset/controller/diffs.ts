// How far a CloneSet is from what its spec asks, in numbers: the heart of OpenKruise's CloneSet
// controller (calculateDiffsWithExpectation, pkg/controller/cloneset/sync/cloneset_sync_utils.go).
// From the pods at the update and at older revisions, partition, maxSurge, maxUnavailable and
// the pods asked to be deleted, it derives how many pods to create (and how many of those at the
// current revision), how many to delete, how many ready pods a deletion may take, and how many
// pods to update (negative: roll back to the current revision). Scaling and updating read the
// same numbers, so surge pods made for an update are removed once the update is done. Pure.
import { kruiseScaledValue, partitionReplicas } from '../../kube/intstr.js';
import { lifecycleState } from '../../workload/lifecycle.js';
import type { Pod } from '../../workload/pods.js';
import { DEFAULT_MAX_UNAVAILABLE } from '../defaults.js';
import type { StoredCloneSet } from '../types.js';

export type ExpectationDiffs = {
  /** Pods to create, and how many of those should be at the current (old) revision. */
  scaleUpNum: number;
  scaleUpNumOldRevision: number;
  /** Pods to delete beyond those already asked for, and how many of those should be old. */
  scaleDownNum: number;
  scaleDownNumOldRevision: number;
  /** scaleUpNum as scaleStrategy.maxUnavailable allows it now. */
  scaleUpLimit: number;
  /** How many ready pods deleting may take now (updateStrategy.maxUnavailable). */
  deleteReadyLimit: number;
  /** Pods kept above replicas for now, and how many of them old. */
  useSurge: number;
  useSurgeOldRevision: number;
  /** > 0: pods to move to the update revision; < 0: to move back to the current revision. */
  updateNum: number;
  /** The most pods that may be unavailable while updating. */
  updateMaxUnavailable: number;
};

export type DiffOptions = {
  /** Is this pod at the update revision? */
  isUpdated: (pod: Pod) => boolean;
  /** IsPodAvailable: Normal (or no) lifecycle state, ready for minReadySeconds, InPlaceUpdateReady. */
  isAvailable: (pod: Pod) => boolean;
  /** Is this pod asked to be deleted (podsToDelete, the specified-delete label)? */
  isSpecifiedDelete: (pod: Pod) => boolean;
  /** OpenKruise's CloneSetPartitionRollback feature gate. */
  partitionRollback: boolean;
  /** scaleStrategy.excludePreparingDelete (or the controller flag). */
  excludePreparingDelete?: boolean;
};

const num = (v: number | { error: string }): number => (typeof v === 'number' ? v : 0);
const sameSign = (a: number, b: number) => (a > 0 && b < 0) || (a < 0 && b > 0);

export function expectationDiffs(cs: StoredCloneSet, pods: readonly Pod[], currentRevision: string, updateRevision: string, o: DiffOptions): ExpectationDiffs {
  const res: ExpectationDiffs = { scaleUpNum: 0, scaleUpNumOldRevision: 0, scaleDownNum: 0, scaleDownNumOldRevision: 0, scaleUpLimit: 0, deleteReadyLimit: 0, useSurge: 0, useSurgeOldRevision: 0, updateNum: 0, updateMaxUnavailable: 0 };
  const strategy = cs.spec.updateStrategy ?? {};
  const replicas = cs.spec.replicas ?? 1;
  const partition = partitionReplicas(strategy.partition, replicas);
  const maxSurge = strategy.paused ? 0 : num(kruiseScaledValue(strategy.maxSurge ?? 0, replicas, true));
  const maxUnavailable = num(kruiseScaledValue(strategy.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE, replicas, maxSurge === 0));
  const scaleMaxUnavailable = cs.spec.scaleStrategy?.maxUnavailable === undefined ? Number.MAX_SAFE_INTEGER : num(kruiseScaledValue(cs.spec.scaleStrategy.maxUnavailable, replicas, true));

  const n = { new: 0, newActive: 0, old: 0, oldActive: 0, unavailableNew: 0, unavailableOld: 0, toDeleteNew: 0, toDeleteOld: 0, preDeletingNew: 0, preDeletingOld: 0 };
  for (const pod of pods) {
    const isNew = o.isUpdated(pod);
    if (isNew) n.new++;
    else n.old++;
    if (lifecycleState(pod) === 'PreparingDelete') {
      if (isNew) n.preDeletingNew++;
      else n.preDeletingOld++;
      continue;
    }
    if (isNew) n.newActive++;
    else n.oldActive++;
    if (o.isSpecifiedDelete(pod)) {
      if (isNew) n.toDeleteNew++;
      else n.toDeleteOld++;
    } else if (!o.isAvailable(pod)) {
      if (isNew) n.unavailableNew++;
      else n.unavailableOld++;
    }
  }

  let updateOldDiff = n.oldActive - partition;
  let updateNewDiff = n.newActive - (replicas - partition);
  const totalUnavailable = n.preDeletingNew + n.preDeletingOld + n.unavailableNew + n.unavailableOld;
  if (updateRevision === currentRevision || !o.partitionRollback) {
    updateOldDiff = Math.max(updateOldDiff, 0);
    updateNewDiff = Math.min(updateNewDiff, 0);
  }

  if (maxSurge > 0) {
    // Surge for deletions asked while too few pods are available: replace first, delete after.
    let scaleSurge = 0;
    let scaleOldSurge = 0;
    const toDelete = n.toDeleteNew + n.toDeleteOld;
    if (toDelete > 0) {
      scaleSurge = Math.min(Math.max(totalUnavailable + toDelete - maxUnavailable, 0), toDelete);
      if (scaleSurge > n.toDeleteNew) scaleOldSurge = scaleSurge - n.toDeleteNew;
    }
    // Surge for updating (or rolling back): the smaller side of the exchange.
    let updateSurge = 0;
    let updateOldSurge = 0;
    if (sameSign(updateOldDiff, updateNewDiff)) {
      if (Math.abs(updateOldDiff) <= Math.abs(updateNewDiff)) {
        updateSurge = Math.abs(updateOldDiff);
        if (updateOldDiff < 0) updateOldSurge = updateSurge;
      } else {
        updateSurge = Math.abs(updateNewDiff);
        if (updateNewDiff > 0) updateOldSurge = updateSurge;
      }
    }
    // Scaling and updating never happen in one pass, so the larger need decides.
    if (scaleSurge >= updateSurge) {
      res.useSurge = Math.min(maxSurge, scaleSurge);
      res.useSurgeOldRevision = Math.min(res.useSurge, scaleOldSurge);
    } else {
      res.useSurge = Math.min(maxSurge, updateSurge);
      res.useSurgeOldRevision = Math.min(res.useSurge, updateOldSurge);
    }
  }

  let currentTotal = pods.length;
  let currentTotalOld = n.old;
  if (o.excludePreparingDelete) {
    currentTotal -= n.preDeletingOld + n.preDeletingNew;
    currentTotalOld -= n.preDeletingOld;
  }
  const expectedTotal = replicas + res.useSurge;
  const expectedTotalOld = partition + res.useSurgeOldRevision;

  if (expectedTotal - currentTotal > 0) {
    res.scaleUpNum = expectedTotal - currentTotal;
    res.scaleUpNumOldRevision = Math.max(expectedTotalOld - currentTotalOld, 0);
    res.scaleUpLimit = Math.min(res.scaleUpNum, Math.max(scaleMaxUnavailable - totalUnavailable, 0));
  }
  const down = currentTotal - n.toDeleteOld - n.toDeleteNew - expectedTotal;
  if (down > 0) {
    res.scaleDownNum = down;
    res.scaleDownNumOldRevision = Math.max(currentTotalOld - n.toDeleteOld - expectedTotalOld, 0);
  }
  if (n.toDeleteNew > 0 || n.toDeleteOld > 0 || res.scaleDownNum > 0) {
    res.deleteReadyLimit = Math.max(maxUnavailable + (pods.length - replicas) - totalUnavailable, 0);
  }

  res.updateNum = Math.abs(updateOldDiff) <= Math.abs(updateNewDiff) ? updateOldDiff : 0 - updateNewDiff || 0;
  if (res.updateNum !== 0) res.updateMaxUnavailable = maxUnavailable + pods.length - replicas;
  return res;
}
