// Condemned pods (processCondemned in OpenKruise's stateful_set_control.go): pods whose ordinal is
// out of range or reserved, highest ordinal first. Their PVCs first get the owners the retention
// policy asks for (whenScaled Delete: the pod, so the PVC goes with it). OrderedReady deletes one at
// a time, waiting for terminating ones and for every other pod to be Running and Available (the
// first unhealthy pod may go regardless); Parallel deletes them all, in slow-start batches. Pure.
import type { Pod } from '../../workload/pods.js';
import { claimWithPolicyOwners, existingClaims, pvcObject } from './claims.js';
import { deleteOrPrepare } from './delete.js';
import type { PassResult } from './replicas.js';
import { availability, isRunningAndReady, isTerminating, wakeIn, write, type StsRun } from './run.js';
import { ordinalOf } from '../ordinals.js';

export function planCondemned(run: StsRun, condemned: readonly Pod[], firstUnhealthy: Pod | undefined, monotonic: boolean): PassResult {
  for (const pod of condemned) {
    for (const claim of existingClaims(run.set, ordinalOf(pod.metadata.name), run.pvcs)) {
      const fixed = claimWithPolicyOwners(run.set, claim, pod, true);
      if (fixed) write(run, { op: 'update', object: pvcObject(fixed), reason: `PVC ${claim.metadata.name} of scaled-down pod ${pod.metadata.name} gets the owners persistentVolumeClaimRetentionPolicy asks for` });
    }
  }
  for (const pod of condemned) {
    if (isTerminating(pod)) {
      if (monotonic) return 'exit';
      continue;
    }
    if (monotonic && pod !== firstUnhealthy) {
      if (!isRunningAndReady(pod)) return 'exit';
      const a = availability(run, pod);
      if (!a.available) {
        if (a.waitMs > 0) wakeIn(run, a.waitMs);
        return 'exit';
      }
    }
    const slowStart = monotonic ? undefined : { group: 'delete-condemned', unit: pod.metadata.name };
    const outcome = deleteOrPrepare(run, pod, `pod ${pod.metadata.name} is out of the ordinal range (scale down)`, slowStart);
    if (monotonic && outcome.modified) return 'exit';
  }
  return 'continue';
}
