// The StatefulSet section's table, milestones and goal line for `npm run bench:workloads`. Figures
// only: the goal is compared and printed, never asserted.
import { goalLines, s1, watchedRolloutLines } from '../../cluster/watched-report.js';
import { MAX_UNAVAILABLE, STATEFULSET_NAMESPACE, type StatefulSetRollouts } from './rollout.js';

/** Ours (Advanced StatefulSet, in place, 3 at a time) against the native OrderedReady rollout, wall time. */
export const GOAL_VS_NATIVE = 0.25;

export function statefulSetLines(r: StatefulSetRollouts): string[] {
  return [...watchedRolloutLines(r, STATEFULSET_NAMESPACE), `  bring-up of both together: ${s1(r.bringUpMs)} s`];
}

export function statefulSetGoals(r: StatefulSetRollouts): string[] {
  return goalLines(r, `Advanced StatefulSet (in place, maxUnavailable ${MAX_UNAVAILABLE}) ≤ ${GOAL_VS_NATIVE}× apps/v1 OrderedReady`, GOAL_VS_NATIVE);
}
