// The replicas pass (processReplica in OpenKruise's stateful_set_control.go), ordinal by ordinal:
// a failed or succeeded pod is deleted (to be recreated), a missing one is created with its PVCs
// (at the current revision below the partition, else the update revision), a Pending one gets
// its missing PVCs, each pod's state is refreshed, and identity, storage and PVC owners are fixed.
// OrderedReady stops at the first pod that is not yet Running and Available (or was just
// created); Parallel goes on, and scaleStrategy.maxUnavailable stops it once that many pods are
// unavailable. A terminating pod holds up only OrderedReady (kruise PR#2109). Pure.
import type { Pod } from '../../workload/pods.js';
import { lifecycleState, isPodAllHooked } from '../../workload/lifecycle.js';
import { claimWithPolicyOwners, existingClaims, hasStaleClaim, missingClaims, pvcObject } from './claims.js';
import { deleteOrPrepare } from './delete.js';
import { identityLabels, podName, storageMatches, withClaimVolumes } from './new-pod.js';
import { refreshPod } from './refresh.js';
import {
  availability,
  eventNote,
  isCreated,
  isFailedOrSucceeded,
  isPending,
  isTerminating,
  lifecycleOf,
  untouched,
  updatePod,
  wakeIn,
  write,
  type StsRun,
} from './run.js';

/** A replica slot: the pod at an ordinal in range, observed or to be created this run. */
export type Slot = { ordinal: number; pod: Pod };

/** What the pass tells the caller: stop the run (OrderedReady waits), or go on to condemned pods and updates. */
export type PassResult = 'exit' | 'continue';

/** Counts down scaleStrategy.maxUnavailable; true once it is used up (decreaseAndCheckMaxUnavailable). */
export class ScaleBudget {
  constructor(private left: number | undefined) {}
  get limited(): boolean {
    return this.left !== undefined;
  }
  spend(): boolean {
    if (this.left === undefined) return false;
    this.left -= 1;
    return this.left <= 0;
  }
}

const CREATE_GROUP = 'create-pods';

function create(run: StsRun, slot: Slot, monotonic: boolean): void {
  const { pod, ordinal } = slot;
  const unit = { group: CREATE_GROUP, unit: pod.metadata.name };
  const slowStart = monotonic ? undefined : unit;
  for (const claim of missingClaims(run.set, ordinal, run.pvcs)) {
    write(run, { op: 'create', object: pvcObject(claim), reason: `PVC ${claim.metadata.name} for pod ${pod.metadata.name}`, ...(slowStart ? { slowStart } : {}) });
  }
  run.touched.add(pod.metadata.name);
  write(run, {
    op: 'create',
    object: pod as never,
    reason: `pod ${pod.metadata.name} is missing (revision ${pod.metadata.labels?.['controller-revision-hash']})`,
    ...(slowStart ? { slowStart } : {}),
    event: eventNote(run, 'Normal', 'SuccessfulCreate', `create Pod ${pod.metadata.name} in StatefulSet ${run.set.metadata.name} successful`),
  });
}

/** identityMatches + storageMatches + the PVC owners the retention policy asks for. */
function enforceInvariants(run: StsRun, slot: Slot): void {
  const { pod, ordinal } = slot;
  const name = podName(run.set, ordinal);
  for (const claim of existingClaims(run.set, ordinal, run.pvcs)) {
    const fixed = claimWithPolicyOwners(run.set, claim, pod, false);
    if (fixed) write(run, { op: 'update', object: pvcObject(fixed), reason: `PVC ${claim.metadata.name} gets the owners persistentVolumeClaimRetentionPolicy asks for` });
  }
  if (!untouched(run, pod)) return;
  const wantLabels = identityLabels(run.set, ordinal, run.gates.PodIndexLabel);
  const labelsMatch = pod.metadata.name === name && Object.entries(wantLabels).every(([k, v]) => pod.metadata.labels?.[k] === v);
  const storageOk = storageMatches(run.set, pod, ordinal);
  if (labelsMatch && storageOk) return;
  const next: Pod = {
    ...pod,
    metadata: { ...pod.metadata, labels: { ...(pod.metadata.labels ?? {}), ...wantLabels } },
    ...(storageOk ? {} : { spec: { ...pod.spec, volumes: withClaimVolumes(run.set, ordinal, pod.spec.volumes as never) } }),
  };
  if (!storageOk) {
    for (const claim of missingClaims(run.set, ordinal, run.pvcs)) write(run, { op: 'create', object: pvcObject(claim), reason: `PVC ${claim.metadata.name} for pod ${pod.metadata.name}` });
  }
  updatePod(run, pod, next, `pod ${pod.metadata.name} gets its StatefulSet identity back`);
}

function processReplica(run: StsRun, slot: Slot, monotonic: boolean, scale: ScaleBudget): 'exit' | 'break' | 'next' {
  const { pod } = slot;
  if (isCreated(pod) && isFailedOrSucceeded(pod)) {
    if (scale.spend()) return 'break';
    if (!isTerminating(pod)) deleteOrPrepare(run, pod, `pod ${pod.metadata.name} is ${pod.status?.phase} and is recreated`);
    return 'exit';
  }
  if (!isCreated(pod)) {
    if (hasStaleClaim(run.set, pod.metadata.name, undefined, existingClaims(run.set, slot.ordinal, run.pvcs))) return 'exit';
    create(run, slot, monotonic);
    if (monotonic) return 'exit';
    return scale.spend() ? 'break' : 'next';
  }
  if (isPending(pod)) {
    for (const claim of missingClaims(run.set, slot.ordinal, run.pvcs)) {
      write(run, { op: 'create', object: pvcObject(claim), reason: `PVC ${claim.metadata.name} is missing for pending pod ${pod.metadata.name}` });
    }
  }
  if (isTerminating(pod)) {
    if (monotonic) return 'exit';
    if (scale.spend()) return 'break';
  }
  if (untouched(run, pod) && !isTerminating(pod)) refreshPod(run, pod);
  if (monotonic || scale.limited) {
    const a = availability(run, pod);
    if (!a.available) {
      if (a.waitMs > 0) wakeIn(run, a.waitMs);
      if (monotonic) return 'exit';
      if (scale.spend()) return 'break';
    }
  }
  if (!isTerminating(pod)) enforceInvariants(run, slot);
  return 'next';
}

/**
 * Runs the replicas pass over the slots in ordinal order. `exit` (OrderedReady only): nothing
 * more this run; the pod events that follow bring the next.
 */
export function planReplicas(run: StsRun, slots: readonly Slot[], monotonic: boolean, scale: ScaleBudget): PassResult {
  for (const slot of slots) {
    const r = processReplica(run, slot, monotonic, scale);
    if (r === 'exit' && monotonic) return 'exit';
    if (r === 'break') break;
  }
  return 'continue';
}

/** The lifecycle state a new pod starts in: PreparingNormal only while a preNormal hook is not all on it. */
export function initialState(run: StsRun, pod: Pod): 'Normal' | 'PreparingNormal' {
  const preNormal = lifecycleOf(run.set)?.preNormal;
  return !preNormal || isPodAllHooked(preNormal, pod) ? 'Normal' : 'PreparingNormal';
}

export const isPreparingDelete = (pod: Pod): boolean => lifecycleState(pod) === 'PreparingDelete';
