// The disruptions a PUB's budget resync starts from. OpenKruise's controller starts every sync from
// status.disruptedPods and status.unavailablePods (buildDisruptedAndUnavailablePods): an entry
// stays while its pod is there, for DeletionTimeout (20 s) after the disruption was admitted, or
// UpdatedDelayCheckTime (10 s) for an in-place update. A ledger that already holds the PUB keeps
// its own entries, which are at least as new; the status's entries it does not hold are added
// (OpenKruise admitted them while it ran, e.g. between a first seeding and the takeover), so a
// disruption recorded a moment ago keeps counting instead of being handed back. Pure.
type Pending = { disruptedPods?: Record<string, number>; unavailablePods?: Record<string, number> };

export function pendingToKeep(held: Pending | undefined, recorded: Pending | undefined): { disruptedPods: Record<string, number>; unavailablePods: Record<string, number> } {
  return {
    disruptedPods: { ...(recorded?.disruptedPods ?? {}), ...(held?.disruptedPods ?? {}) },
    unavailablePods: { ...(recorded?.unavailablePods ?? {}), ...(held?.unavailablePods ?? {}) },
  };
}

/** Entries only the status records, which the ledger dropped already when it held the PUB: their expiry was reported then. */
export function reportedBefore(held: Pending | undefined, recorded: Pending | undefined, key: keyof Pending): Set<string> {
  if (!held) return new Set();
  return new Set(Object.keys(recorded?.[key] ?? {}).filter((pod) => !Object.hasOwn(held[key] ?? {}, pod)));
}
