// A PUB's status from its budget (../shared/SEMANTICS.md §4.5), and the merge patch that writes it. The maps
// are shaped as OpenKruise's `omitempty` writes them: an empty one is left out, never `{}`; in the
// patch, entries that went away are written as null, and a map that emptied as null for the whole
// field (how a merge patch deletes a key). Pure.
//
// Every disruption the edge admitted is readable in status for a moment (`withAdmitted`), as
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

/** How long after its admission a disruption stays readable in status, confirmed or not. */
export const SHOWN_FOR_MS = 2_500;

const msOf = (t: unknown): number => (t instanceof Date ? t.getTime() : typeof t === 'string' ? Date.parse(t) : Number.NaN);

/**
 * `next` with the disruptions this run's resync confirmed already (the pod is gone), kept readable
 * a moment: each entry the ledger held before the resync (`admitted`) that status never showed,
 * and each entry status shows (`shown`) admitted less than SHOWN_FOR_MS ago. Answers whether any
 * was kept, so the controller comes back to drop them.
 */
export function withAdmitted(next: PodUnavailableBudgetStatus, admitted: PubBudgetState | undefined, shown: Partial<PodUnavailableBudgetStatus> | undefined, now: number): { status: PodUnavailableBudgetStatus; added: boolean } {
  let added = false;
  const out: PodUnavailableBudgetStatus = { ...next };
  for (const k of MAPS) {
    const already = shown?.[k] ?? {};
    const keep: Record<string, number> = {};
    for (const [pod, at] of Object.entries(admitted?.[k] ?? {})) if (!Object.hasOwn(already, pod) || now - at < SHOWN_FOR_MS) keep[pod] = at;
    for (const [pod, t] of Object.entries(already)) if (now - msOf(t) < SHOWN_FOR_MS) keep[pod] ??= msOf(t);
    const extra = Object.entries(keep).filter(([pod]) => !Object.hasOwn(next[k] ?? {}, pod));
    if (!extra.length) continue;
    added = true;
    out[k] = Object.fromEntries(Object.entries({ ...next[k], ...times(Object.fromEntries(extra)) }).sort()) as PodUnavailableBudgetStatus[typeof k];
  }
  return { status: out, added };
}
