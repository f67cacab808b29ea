// OpenKruise's feature gates that change what a controller or webhook decides, set like
// kruise-manager's `--feature-gates` flag: `KS_FEATURE_GATES="CloneSetShortHash=true"` in the
// reconciler's and the edge's environment (Node, Lambda and the Worker alike). Defaults are
// OpenKruise's, except that PodUnavailableBudgetUpdateGate is on: workloads ask the budget before
// an in-place update. Pure.

export const FEATURE_GATE_DEFAULTS = {
  /** Raising a CloneSet's partition rolls updated pods back to the current revision. */
  CloneSetPartitionRollback: false,
  /** New CloneSet pods carry only the hash in controller-revision-hash. */
  CloneSetShortHash: false,
  /** CloneSet and Advanced StatefulSet count PreparingUpdate pods as updated while scaling. */
  PreparingUpdateAsUpdate: false,
  /** Workloads ask PodUnavailableBudgets before updating a pod in place. */
  PodUnavailableBudgetUpdateGate: true,
  /** Advanced StatefulSets number pods from spec.ordinals.start. */
  StatefulSetStartOrdinal: false,
  /** Advanced StatefulSet pods carry apps.kubernetes.io/pod-index. */
  PodIndexLabel: true,
  /** A CloneSet updating in place pre-pulls the new images through ImagePullJobs. */
  PreDownloadImageForInPlaceUpdate: false,
  /** A CloneSet recreates pods whose revision's volume-claim-template hash differs from the update revision's. */
  RecreatePodWhenChangeVCTInCloneSetGate: false,
  /** SidecarSet injection orders the injected sidecars by name (the edge's pod webhook). */
  EnableSortSidecarContainerByName: false,
} as const;

export type FeatureGate = keyof typeof FEATURE_GATE_DEFAULTS;
export type FeatureGates = Record<FeatureGate, boolean>;

export class FeatureGateError extends Error {
  override name = 'FeatureGateError';
}

/** Parses `A=true,B=false`; unknown gates and values other than true/false are errors. */
export function parseFeatureGates(spec: string | undefined): FeatureGates {
  const gates: FeatureGates = { ...FEATURE_GATE_DEFAULTS };
  for (const part of (spec ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const [name, value, extra] = part.split('=').map((s) => s.trim());
    if (!name || extra !== undefined || (value !== 'true' && value !== 'false')) throw new FeatureGateError(`feature gate "${part}": expected Name=true or Name=false`);
    if (!(name in FEATURE_GATE_DEFAULTS)) throw new FeatureGateError(`unknown feature gate "${name}"; known: ${Object.keys(FEATURE_GATE_DEFAULTS).join(', ')}`);
    gates[name as FeatureGate] = value === 'true';
  }
  return gates;
}
