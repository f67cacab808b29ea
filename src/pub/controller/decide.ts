// The PUB reconciler's decisions (../shared/SEMANTICS.md §4.5), pure: each PUB's status from its ledger's
// resync answer (without a ledger's record, from the disruptions its last status holds and this
// observation), the Events the edge could not write — `PubPreventPodDeletion` for refused
// disruptions, `NotDeleted` for allowed ones that never happened — a Warning when a workload's
// scale is unknown (kruise#2571), and the `kruise.io/related-pub` back-fill on pods created
// before their PUB.
import { emptyPlan, type EventNote, type Plan, type Write } from '../../reconcile/types.js';
import { isActivePod, type Pod } from '../../workload/pods.js';
import type { PubBudgetState } from '../budget-state.js';
import { podWorkload, relatedPub, replicaSetsIn } from '../related.js';
import { resyncBudget } from '../resync.js';
import { pubLedgerRef } from '../ledger.js';
import { PREVENT_EVENT_MESSAGE, PREVENT_EVENT_REASON, PUB_API_VERSION, PUB_KIND, RELATED_PUB_ANNOTATION, type PodUnavailableBudget } from '../types.js';
import type { PubAssessment } from './assess.js';
import { pubKey, type LedgerAnswer, type PubObserved } from './observe.js';
import { statusOf, statusPatch, withAdmitted } from './status.js';

/** While disruptions are pending, run again soon so they are confirmed or expired promptly. */
export const PENDING_REQUEUE_MS = 10_000;
/**
 * While some of a PUB's pods are not available (starting, or not yet created by their workload),
 * run again soon: their becoming available raises the budget, and where no watch triggers a run
 * (Lambda) this wake-up is how the controller learns of it.
 */
export const AVAILABILITY_REQUEUE_MS = 3_000;
/** Disruptions kept readable though already confirmed (status.ts, withAdmitted) are looked at again this soon. */
export const SHOWN_REQUEUE_MS = 1_000;

const podRef = (namespace: string, name: string) => ({ apiVersion: 'v1', kind: 'Pod', namespace, name });
const pubRef = (pub: PodUnavailableBudget) => ({ apiVersion: PUB_API_VERSION, kind: PUB_KIND, namespace: pub.metadata?.namespace ?? '', name: pub.metadata?.name ?? '', ...(pub.metadata?.uid ? { uid: pub.metadata.uid } : {}) });

function budgetEvents(pub: PodUnavailableBudget, a: PubAssessment, answer: LedgerAnswer | undefined, expiredDisrupted: readonly string[]): EventNote[] {
  const ns = pub.metadata?.namespace ?? '';
  const name = pub.metadata?.name ?? '';
  const events: EventNote[] = [];
  if (answer && 'state' in answer && answer.state) {
    for (const pod of Object.keys(answer.state.refusals).sort()) {
      events.push({ regarding: podRef(ns, pod), type: 'Warning', reason: PREVENT_EVENT_REASON, message: PREVENT_EVENT_MESSAGE });
    }
  }
  for (const pod of expiredDisrupted) {
    events.push({ regarding: podRef(ns, pod), type: 'Warning', reason: 'NotDeleted', message: `podunavailablebudget "${name}" allowed disrupting this pod, but it was not disrupted within 20s` });
  }
  if (answer && 'error' in answer) {
    events.push({ regarding: pubRef(pub), type: 'Warning', reason: 'BudgetSyncFailed', message: `the budget at the edge could not be read, so disruptions are refused once it is stale: ${answer.error}` });
  }
  for (const u of a.unknownWorkloads) {
    events.push({ regarding: pubRef(pub), type: 'Warning', reason: 'UnknownWorkload', message: `the scale of ${u.workload} cannot be read (${u.error}); its observed pods are protected as its replicas` });
  }
  if (a.specError) events.push({ regarding: pubRef(pub), type: 'Warning', reason: 'InvalidSpec', message: `${a.specError}; every pod stays protected` });
  return events;
}

/** Pods of the observed namespaces without `kruise.io/related-pub` that a PUB covers. */
function backfillWrites(o: PubObserved): Write[] {
  const writes: Write[] = [];
  for (const pod of o.pods as Pod[]) {
    if (!isActivePod(pod) || pod.metadata.annotations?.[RELATED_PUB_ANNOTATION]) continue;
    const hit = relatedPub(pod, o.pubs, podWorkload(pod, replicaSetsIn(pod.metadata.namespace, o.replicaSets)));
    const name = hit?.metadata?.name;
    if (!name) continue;
    writes.push({
      op: 'patch',
      target: podRef(pod.metadata.namespace, pod.metadata.name),
      patchType: 'merge',
      patch: { metadata: { annotations: { [RELATED_PUB_ANNOTATION]: name } } },
      reason: `podunavailablebudget "${name}" covers this pod, which was created before it`,
    });
  }
  return writes;
}

export function decidePubs(o: PubObserved, now: Date): Plan {
  const plan: Plan = { ...emptyPlan(), ledgers: [] };
  let pending = false;
  let waiting = false;
  let unconfirmedShown = false;
  for (const pub of o.pubs) {
    const a = o.assessments.get(pubKey(pub));
    if (!a) continue;
    const answer = o.ledger.get(pubKey(pub));
    // The resync the edge will apply, predicted on the budget as read: status and Events follow it.
    // Disruptions the edge admits meanwhile are kept by the resync itself and show up next run.
    // Without a budget (a new ledger, or no edge at all) the resync adopts what status records.
    const base = answer && 'state' in answer ? answer.state ?? undefined : undefined;
    const local = resyncBudget(base, a.resync, now.getTime());
    const state: PubBudgetState = local.next;
    const expired: readonly string[] = local.result.expired.disrupted;
    if (answer) {
      const seen = answer && 'state' in answer && answer.state ? answer.state.refusals : {};
      plan.ledgers!.push({
        ref: pubLedgerRef(pub.metadata?.namespace ?? '', pub.metadata?.name ?? ''),
        op: 'resync',
        request: { ...a.resync, acknowledgedRefusals: Object.fromEntries(Object.entries(seen).map(([pod, r]) => [pod, r.lastAt])) },
        reason: `budget: ${state.unavailableAllowed} more may be disrupted (${state.currentAvailable} available, ${state.desiredAvailable} desired)`,
      });
    }
    const inFlight = Object.keys(state.disruptedPods).length + Object.keys(state.unavailablePods).length;
    pending ||= inFlight > 0;
    // Pods unavailable for another reason than a disruption this budget admitted.
    waiting ||= state.currentAvailable + inFlight < state.totalReplicas;
    const shown = withAdmitted(statusOf(state), base, pub.status, now.getTime());
    unconfirmedShown ||= shown.added;
    const patch = statusPatch(pub.status, shown.status);
    if (patch) {
      plan.status.push({
        target: pubRef(pub),
        status: patch,
        ...(pub.metadata?.resourceVersion ? { resourceVersion: pub.metadata.resourceVersion } : {}),
        reason: `budget: ${state.unavailableAllowed} more may be disrupted (${state.currentAvailable} available, ${state.desiredAvailable} desired)`,
      });
    }
    plan.events.push(...budgetEvents(pub, a, answer, expired));
  }
  plan.writes.push(...backfillWrites(o));
  if (unconfirmedShown) plan.requeueAfterMs = SHOWN_REQUEUE_MS;
  else if (waiting) plan.requeueAfterMs = AVAILABILITY_REQUEUE_MS;
  else if (pending) plan.requeueAfterMs = PENDING_REQUEUE_MS;
  if (!plan.ledgers!.length) delete plan.ledgers;
  return plan;
}
