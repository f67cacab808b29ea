// A PUB's status from its budget (SEMANTICS.md §4.5), and the merge patch that writes it: map
// entries that went away are written as null, which is how a merge patch deletes a key. Pure.
import { rfc3339 } from '../../sidecarset/controller/pod.js';
import type { PubBudgetState } from '../budget-state.js';
import type { PodUnavailableBudgetStatus } from '../types.js';

const times = (m: Record<string, number>): Record<string, string> => Object.fromEntries(Object.entries(m).sort().map(([k, t]) => [k, rfc3339(new Date(t))]));

export function statusOf(state: PubBudgetState): PodUnavailableBudgetStatus {
  return {
    observedGeneration: state.generation,
    disruptedPods: times(state.disruptedPods),
    unavailablePods: times(state.unavailablePods),
    unavailableAllowed: state.unavailableAllowed,
    currentAvailable: state.currentAvailable,
    desiredAvailable: state.desiredAvailable,
    totalReplicas: state.totalReplicas,
  };
}

/** The budget the last written status describes (the controller's fallback without a ledger). */
export function stateFromStatus(pub: string, uid: string, status: Partial<PodUnavailableBudgetStatus> | undefined, at: number): PubBudgetState | undefined {
  if (!status) return undefined;
  const ms = (m: Record<string, string> | undefined) => Object.fromEntries(Object.entries(m ?? {}).map(([k, t]) => [k, Date.parse(t) || at]));
  return {
    pub, uid, generation: status.observedGeneration ?? 0, desiredAvailable: status.desiredAvailable ?? 0, totalReplicas: status.totalReplicas ?? 0,
    currentAvailable: status.currentAvailable ?? 0, unavailableAllowed: status.unavailableAllowed ?? 0, protectOperations: [], pods: {},
    disruptedPods: ms(status.disruptedPods), unavailablePods: ms(status.unavailablePods), resyncedAt: at, observedAt: at, refusals: {},
  };
}

/** The merge patch turning `current` into `next`, or undefined when they are equal. */
export function statusPatch(current: Partial<PodUnavailableBudgetStatus> | undefined, next: PodUnavailableBudgetStatus): Record<string, unknown> | undefined {
  const mapPatch = (cur: Record<string, string> | undefined, nxt: Record<string, string>) => {
    const out: Record<string, string | null> = { ...nxt };
    for (const k of Object.keys(cur ?? {})) if (!(k in nxt)) out[k] = null;
    return out;
  };
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
  const scalars = ['observedGeneration', 'unavailableAllowed', 'currentAvailable', 'desiredAvailable', 'totalReplicas'] as const;
  const changed =
    scalars.some((k) => current?.[k] !== next[k]) ||
    !same(sortKeys(current?.disruptedPods), next.disruptedPods) ||
    !same(sortKeys(current?.unavailablePods), next.unavailablePods);
  if (!changed) return undefined;
  return { ...next, disruptedPods: mapPatch(current?.disruptedPods, next.disruptedPods ?? {}), unavailablePods: mapPatch(current?.unavailablePods, next.unavailablePods ?? {}) };
}

const sortKeys = (m: Record<string, string> | undefined) => (m ? Object.fromEntries(Object.entries(m).sort()) : m);
