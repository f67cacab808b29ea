// "May this pod be disrupted now?" — the controller's port to PodUnavailableBudgets (../shared/SEMANTICS.md
// §4.4). Changing a sidecar image in place restarts the container, so OpenKruise's pod validating
// webhook checks such an UPDATE against the pod's PUB and refuses it when the budget is spent.
// The controller asks first, so that it neither plans writes the webhook will refuse nor lets a
// refused pod take a slot of maxUnavailable; the webhook stays the authority.
//
// The budget is per plan: an allowed answer uses up budget for the rest of the plan, so several
// pods of one PUB are not all allowed against the same count. The PUB implementation (reading
// `kruise.io/related-pub`, status.unavailableAllowed, disruptedPods/unavailablePods, the protected
// operations) comes with src/pub/; until then `ignoreDisruptionBudgets` allows everything, which is
// what OpenKruise's controller itself does (it relies on the webhook alone). Pure.
import type { PodUnavailableBudget } from '../api/policy/podunavailablebudget.js';
import type { Pod } from './pods.js';

export type DisruptionVerdict = { allowed: true } | { allowed: false; reason: string };

export interface DisruptionBudget {
  /** May `pod` be updated in place (operation UPDATE) now? `allowed` consumes budget for this plan. */
  requestUpdate(pod: Pod): DisruptionVerdict;
  /** May `pod` be deleted now? Optional: budgets that do not say allow deletion (the webhook still guards). */
  requestDelete?(pod: Pod): DisruptionVerdict;
}

/** What a budget implementation may consult: the observed PUBs and pods, and the time. */
export type DisruptionFacts = { budgets: readonly PodUnavailableBudget[]; pods: readonly Pod[]; now: Date };

/** Builds one plan's budget from observed facts. */
export type DisruptionBudgetSource = (facts: DisruptionFacts) => DisruptionBudget;

/** Allows every disruption (no PUB implementation yet; the PUB webhook still guards the writes). */
export const ignoreDisruptionBudgets: DisruptionBudgetSource = () => ({ requestUpdate: () => ({ allowed: true }) });
