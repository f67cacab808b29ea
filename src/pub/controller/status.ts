// A PUB's status from its budget (../shared/SEMANTICS.md §4.5), and the merge patch that writes it. The maps
// are shaped as OpenKruise's `omitempty` writes them: an empty one is left out, never `{}`; in the
// patch, entries that went away are written as null, and a map that emptied as null for the whole
// field (how a merge patch deletes a key). Pure.
//
// Every disruption the edge admitted shows in status at least once (`withAdmitted`), as
// OpenKruise's webhook writes it there before its controller sees the pod go: a run that finds
// the pod already gone would otherwise confirm the entry before anyone could read it.
import { mapFieldPatch, omitEmpty } from '../../kube/merge-patch.js';
import { rfc3339 } from '../../workload/pods.js';
import type { PubBudgetState } from '../budget-state.js';
import type { PodUnavailableBudgetStatus } from '../types.js';

const times = (m: Record<string, number>): Record<string, string> => Object.fromEntries(Object.entries(m).sort().map(([k, t]) => [k, rfc3339(new Date(t))]));

export function statusOf(state: PubBudgetState): PodUnavailableBudgetStatus {
  const disruptedPods = omitEmpty(times(state.disruptedPods));
  const unavailablePods = omitEmpty(times(state.unavailablePods));
  return {
    observedGeneration: state.generation,
    ...(disruptedPods ? { disruptedPods } : {}),
    ...(unavailablePods ? { unavailablePods } : {}),
    unavailableAllowed: state.unavailableAllowed,
    currentAvailable: state.currentAvailable,
    desiredAvailable: state.desiredAvailable,
    totalReplicas: state.totalReplicas,
  };
}

const MAPS = ['disruptedPods', 'unavailablePods'] as const;
const SCALARS = ['observedGeneration', 'unavailableAllowed', 'currentAvailable', 'desiredAvailable', 'totalReplicas'] as const;

/** A stored map and a built one read the same: `{}` stored is not the same as left out (it is to be removed). */
const mapText = (m: Record<string, unknown> | null | undefined) => (m === undefined || m === null ? '-' : JSON.stringify(Object.fromEntries(Object.entries(m).sort())));

/** The merge patch turning `current` into `next`, or undefined when they are equal. */
export function statusPatch(current: Partial<PodUnavailableBudgetStatus> | undefined, next: PodUnavailableBudgetStatus): Record<string, unknown> | undefined {
  const changed = SCALARS.some((k) => current?.[k] !== next[k]) || MAPS.some((k) => mapText(current?.[k]) !== mapText(omitEmpty(next[k])));
  if (!changed) return undefined;
  const patch: Record<string, unknown> = { ...next };
  for (const k of MAPS) {
    const field = mapFieldPatch(current?.[k], next[k]);
    if (field === undefined) delete patch[k];
    else patch[k] = field;
  }
  return patch;
}

/**
 * `next` with the disruptions the ledger held before this run's resync (`admitted`) that status
 * has not shown yet (`shown`): the resync may have confirmed them already (the pod is gone), but
 * they appear once, until the next run. Answers whether any was added.
 */
export function withAdmitted(next: PodUnavailableBudgetStatus, admitted: PubBudgetState | undefined, shown: Partial<PodUnavailableBudgetStatus> | undefined): { status: PodUnavailableBudgetStatus; added: boolean } {
  let added = false;
  const out: PodUnavailableBudgetStatus = { ...next };
  for (const k of MAPS) {
    const unshown = Object.entries(admitted?.[k] ?? {}).filter(([pod]) => !Object.hasOwn(shown?.[k] ?? {}, pod) && !Object.hasOwn(next[k] ?? {}, pod));
    if (!unshown.length) continue;
    added = true;
    out[k] = Object.fromEntries(Object.entries({ ...next[k], ...times(Object.fromEntries(unshown)) }).sort()) as PodUnavailableBudgetStatus[typeof k];
  }
  return { status: out, added };
}
