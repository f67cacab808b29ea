// A SidecarSet's status as OpenKruise counts it (calculateStatus and inconsistentStatus in
// pkg/controller/sidecarset/sidecarset_processor.go). Pure.
//
// The pods counted are the matching pods (pod-state.ts matchingPods): selected by the set's
// selector and namespace scope, active, named in `kruise.io/sidecarset-injected-list` and still
// carrying all its sidecars — so pods created before the set, or by another revision's name, are
// not "matched".
import type { SidecarSetStatus } from '../../api/apps/sidecarset.js';
import type { SidecarSet } from '../types.js';
import { isPodReadyForSet, isPodSidecarUpdated, isPodStateConsistent } from './pod-state.js';
import type { Pod } from '../../workload/pods.js';

/** The status this controller computes: every field set. */
export type ComputedSidecarSetStatus = Required<SidecarSetStatus>;

/**
 * matched: all matching pods; updated: the pod records the set's current hash; ready: the
 * sidecars run their spec (isPodStateConsistent) and the pod is Running and Ready with every
 * hot-upgrade idle container on the empty image (isPodReadyForSet).
 */
export function computeStatus(set: SidecarSet, pods: readonly Pod[], latestRevision: string, collisionCount: number): ComputedSidecarSetStatus {
  let updatedPods = 0;
  let readyPods = 0;
  let updatedReadyPods = 0;
  for (const pod of pods) {
    const updated = isPodSidecarUpdated(set, pod);
    if (updated) updatedPods += 1;
    if (isPodStateConsistent(set, pod) && isPodReadyForSet(set, pod)) {
      readyPods += 1;
      if (updated) updatedReadyPods += 1;
    }
  }
  return {
    observedGeneration: set.metadata?.generation ?? 0,
    matchedPods: pods.length,
    updatedPods,
    readyPods,
    updatedReadyPods,
    latestRevision,
    collisionCount,
  };
}

/** inconsistentStatus: whether OpenKruise would write `next` over the set's current status. */
export function statusChanged(set: SidecarSet, next: ComputedSidecarSetStatus): boolean {
  const cur = set.status;
  return (
    next.observedGeneration > (cur?.observedGeneration ?? 0) ||
    next.matchedPods !== (cur?.matchedPods ?? 0) ||
    next.updatedPods !== (cur?.updatedPods ?? 0) ||
    next.readyPods !== (cur?.readyPods ?? 0) ||
    next.updatedReadyPods !== (cur?.updatedReadyPods ?? 0) ||
    next.latestRevision !== (cur?.latestRevision ?? '') ||
    cur?.collisionCount === undefined ||
    cur.collisionCount !== next.collisionCount
  );
}
