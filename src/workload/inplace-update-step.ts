// One pod's in-place update as a sequence of single writes, each decided afresh from the pod as
// read (pkg/util/inplaceupdate/inplace_update.go Update / Refresh / finishGracePeriod /
// updateNextBatch). A killed or repeated run re-reads the pod and picks up where it stands:
//
//   pod not at the target revision, update in place
//     1. InPlaceUpdateReady=False (pods with the readiness gate)           → set-not-ready
//     2. revision labels + state; with a grace period the pending update
//        goes into apps.kruise.io/inplace-update-grace, else the images    → update-pod (start | start-grace)
//   pod at its revision
//     3. grace pending: its revision is no longer the pod's               → update-pod (drop-grace)
//        not yet `updateTimestamp + graceSeconds`                          → wait-grace (a wake-up time)
//        else apply it                                                     → update-pod (finish-grace)
//     4. updated containers still on their old imageID                    → wait-completion (a pod status change wakes us)
//        later batches left by OpenKruise, pre-check passed                → update-pod (next-batch)
//     5. InPlaceUpdateReady not True (pods with the gate)                 → set-ready
//     6.                                                                  → done
//
// OpenKruise sends steps 1 and 2 in one pass; here they are two runs, each carrying the pod's
// resourceVersion, so a write based on a stale read is a conflict, never a lost update. Pure.
import type { StatusWrite } from '../reconcile/types.js';
import type { InPlaceUpdateSpec } from './inplace-update.js';
import { applyInPlaceUpdate, nextBatchSpec } from './inplace-update-apply.js';
import { hasNextBatch, inPlaceUpdatePendingReason } from './inplace-update-completion.js';
import { inPlaceUpdateNotReadyWrite, inPlaceUpdateReadyWrite } from './inplace-update-condition.js';
import { encodeInPlaceUpdateGrace, INPLACE_UPDATE_GRACE_KEY, readInPlaceUpdateGrace, withoutInPlaceUpdateGrace } from './inplace-update-grace.js';
import { readInPlaceUpdateState, withInPlaceUpdateState, type InPlaceUpdateState } from './inplace-update-state.js';
import { containerStatus, rfc3339, type Pod } from './pods.js';

export const CONTROLLER_REVISION_HASH = 'controller-revision-hash';

export type InPlaceUpdateStepOptions = {
  /** Whether `pod` is at `revision` (default: its controller-revision-hash label equals it). */
  isAtRevision?: (pod: Pod, revision: string) => boolean;
  /** The labels that put a pod at `revision` (default: controller-revision-hash). */
  revisionLabels?: (revision: string) => Record<string, string>;
  /** Further changes the update's first pod write makes (e.g. a lifecycle state label). */
  onStart?: (pod: Pod) => Pod;
};

export type UpdatePodStep = 'start' | 'start-grace' | 'finish-grace' | 'drop-grace' | 'next-batch';

export type InPlaceUpdateAction =
  | { type: 'set-not-ready'; write: StatusWrite }
  /** Replace the pod with `pod` (its resourceVersion is the precondition); wake at `wakeAt` if given. */
  | { type: 'update-pod'; step: UpdatePodStep; pod: Pod; reason: string; wakeAt?: Date }
  | { type: 'wait-grace'; until: Date }
  | { type: 'wait-completion'; reason: string }
  | { type: 'set-ready'; write: StatusWrite }
  | { type: 'done' }
  | { type: 'invalid'; reason: string };

const defaultIsAtRevision = (pod: Pod, revision: string) => pod.metadata.labels?.[CONTROLLER_REVISION_HASH] === revision;
const defaultRevisionLabels = (revision: string) => ({ [CONTROLLER_REVISION_HASH]: revision });
const wholeSeconds = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000);

function withAnnotations(pod: Pod, annotations: Record<string, string>, labels = pod.metadata.labels): Pod {
  return { ...pod, metadata: { ...pod.metadata, ...(labels ? { labels } : {}), annotations } };
}

function start(original: Pod, spec: InPlaceUpdateSpec, revision: string, now: Date, graceSeconds: number, labelsFor: (r: string) => Record<string, string>, onStart: (pod: Pod) => Pod): InPlaceUpdateAction {
  const pod = onStart(original);
  const state: InPlaceUpdateState = { revision, updateTimestamp: rfc3339(now), lastContainerStatuses: null };
  if (Object.keys(spec.images).length > 0) state.updateImages = true;
  const labels = { ...(pod.metadata.labels ?? {}), ...labelsFor(revision) };
  const annotations = withInPlaceUpdateState(withoutInPlaceUpdateGrace(pod.metadata.annotations), state);
  const name = pod.metadata.name;
  if (graceSeconds > 0) {
    annotations[INPLACE_UPDATE_GRACE_KEY] = encodeInPlaceUpdateGrace(spec, revision, graceSeconds);
    return {
      type: 'update-pod',
      step: 'start-grace',
      pod: withAnnotations(pod, annotations, labels),
      reason: `in-place update of pod ${name} to ${revision}: images follow after the ${graceSeconds}s grace period`,
      wakeAt: new Date(wholeSeconds(now).getTime() + graceSeconds * 1000),
    };
  }
  return {
    type: 'update-pod',
    step: 'start',
    pod: applyInPlaceUpdate(withAnnotations(pod, annotations, labels), spec, state, now),
    reason: `in-place update of pod ${name} to ${revision}`,
  };
}

/**
 * The next step of `pod`'s in-place update towards `revision`. `spec` is the update from the
 * pod's revision to `revision` (undefined to only carry on with what the pod records).
 */
export function inPlaceUpdateStep(
  pod: Pod,
  spec: InPlaceUpdateSpec | undefined,
  revision: string,
  now: Date,
  gracePeriodSeconds: number,
  opts: InPlaceUpdateStepOptions = {},
): InPlaceUpdateAction {
  const isAtRevision = opts.isAtRevision ?? defaultIsAtRevision;
  const name = pod.metadata.name;

  if (spec && !isAtRevision(pod, revision)) {
    const notReady = inPlaceUpdateNotReadyWrite(pod, now);
    if (notReady) return { type: 'set-not-ready', write: notReady };
    return start(pod, spec, revision, now, gracePeriodSeconds, opts.revisionLabels ?? defaultRevisionLabels, opts.onStart ?? ((p) => p));
  }

  const grace = readInPlaceUpdateGrace(pod.metadata.annotations);
  const state = readInPlaceUpdateState(pod.metadata.annotations);
  if (grace === 'invalid') return { type: 'invalid', reason: `pod ${name}: unreadable in-place update grace annotation` };
  if (state === 'invalid') return { type: 'invalid', reason: `pod ${name}: unreadable in-place update state annotation` };

  if (grace) {
    if (!state) return { type: 'invalid', reason: `pod ${name} has a pending in-place update but no in-place update state` };
    const cleared = withAnnotations(pod, withoutInPlaceUpdateGrace(pod.metadata.annotations));
    if (!isAtRevision(pod, grace.revision)) {
      return { type: 'update-pod', step: 'drop-grace', pod: cleared, reason: `pod ${name} is no longer at ${grace.revision}: its pending in-place update is dropped` };
    }
    const startedAt = Date.parse(state.updateTimestamp ?? '');
    if (!Number.isNaN(startedAt) && now.getTime() < startedAt + grace.graceSeconds * 1000) {
      return { type: 'wait-grace', until: new Date(startedAt + grace.graceSeconds * 1000) };
    }
    return {
      type: 'update-pod',
      step: 'finish-grace',
      pod: applyInPlaceUpdate(cleared, grace.spec, state, now),
      reason: `grace period over: in-place update of pod ${name} to ${grace.revision}`,
    };
  }

  if (state) {
    const pending = inPlaceUpdatePendingReason(pod, state);
    if (pending) return { type: 'wait-completion', reason: pending };
    if (hasNextBatch(state)) {
      for (const c of state.preCheckBeforeNext?.containersRequiredReady ?? []) {
        const cs = containerStatus(pod, c);
        if (!cs) return { type: 'wait-completion', reason: `container ${c} not found in pod status` };
        if (!cs.ready) return { type: 'wait-completion', reason: `waiting for container ${c} to be ready` };
      }
      return { type: 'update-pod', step: 'next-batch', pod: applyInPlaceUpdate(pod, nextBatchSpec(state), state, now), reason: `in-place update of pod ${name}: the remaining containers` };
    }
  }

  const ready = inPlaceUpdateReadyWrite(pod, now);
  if (ready) return { type: 'set-ready', write: ready };
  return { type: 'done' };
}
