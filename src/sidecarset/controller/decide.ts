// observed → Plan for SidecarSets, following OpenKruise's Processor.UpdateSidecarSet
// (pkg/controller/sidecarset/sidecarset_processor.go). Per set, in name order:
//   1. the matching pods (pod-state.ts);
//   2. the ControllerRevision for the current spec, and history truncation (revisions.ts);
//   3. the status (status.ts), written when OpenKruise would write it;
//   4. nothing more for `updateStrategy.type: NotUpdate` or `paused`;
//   5. hot upgrade: pods whose new sidecar container is up get the old one reset to the empty
//      image, and nothing else happens this round (hotupgrade.ts);
//   6. nothing more when every matching pod is updated;
//   7. the next pods to update in place under selector, partition, maxUnavailable and the
//      disruption budget; pods that cannot be updated in place are marked and reported (update.ts).
// Pure. The plan is computed before anything is applied: the status counts pods as observed, and a
// write that loses its resourceVersion precondition is simply decided again next run.
//
// Differences from OpenKruise, all from running as level-triggered invocations instead of an
// informer-fed process: no in-memory update expectations (every run LISTs afresh and every pod
// write carries the pod's resourceVersion); a pod updated this run gets its SidecarSetUpgradable
// condition on the next run (a status write in the same plan would race our own patch, so pods
// patched in a plan get no condition write in it, and each other pod at most one); two sets
// never write the same pod in one plan (the later set waits a round); while a rollout is in flight
// the plan asks to be run again soon, since pod changes do not trigger runs.
import { emptyPlan, type ObjectRef, type Plan } from '../../reconcile/types.js';
import { HASH_ANNOTATION, type SidecarSet } from '../types.js';
import { readInPlaceUpdateStates } from '../../workload/sidecar-update-state.js';
import { upgradableConditionWrite } from './condition.js';
import { ignoreDisruptionBudgets, type DisruptionBudget, type DisruptionBudgetSource } from '../../workload/disruption.js';
import { applyFlip, isPodInHotUpgrading, isReadyToFlip } from './hotupgrade.js';
import type { SidecarSetObserved } from './observe.js';
import { SIDECARSET_API_VERSION, SIDECARSET_KIND } from './observe.js';
import {
  hasHotUpgradeContainer,
  isPodReadyForSet,
  isPodSidecarUpdated,
  isPodStateConsistent,
  matchingPods,
  setName,
} from './pod-state.js';
import { podKey, type Pod } from '../../workload/pods.js';
import { planRevisions } from './revisions.js';
import { computeStatus, statusChanged, type ComputedSidecarSetStatus as SidecarSetStatus } from './status.js';
import { podList, podPatch, selectPodsToUpgrade, upgradePod } from './update.js';

/** How soon to look again while pods are being updated (pod changes do not trigger runs). */
export const ROLLOUT_REQUEUE_MS = 10_000;

export type DecideOptions = { budgets?: DisruptionBudgetSource };

type Context = {
  observed: SidecarSetObserved;
  now: Date;
  plan: Plan;
  budget: DisruptionBudget;
  /** Pods this plan patches: one spec write per pod per plan. */
  touched: Set<string>;
  /** SidecarSetUpgradable entries to record, per pod, written at the end for pods not patched. */
  conditions: Map<string, { pod: Pod; upgradable: Record<string, boolean> }>;
  inFlight: boolean;
};

function noteUpgradable(ctx: Context, pod: Pod, set: SidecarSet, upgradable: boolean): void {
  const entry = ctx.conditions.get(podKey(pod)) ?? { pod, upgradable: {} };
  entry.upgradable[setName(set)] = upgradable;
  ctx.conditions.set(podKey(pod), entry);
}

function setRef(set: SidecarSet): ObjectRef & { uid?: string } {
  return { apiVersion: SIDECARSET_API_VERSION, kind: SIDECARSET_KIND, name: setName(set), ...(set.metadata?.uid ? { uid: set.metadata.uid } : {}) };
}

function podRef(pod: Pod): ObjectRef & { uid?: string } {
  return { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace, ...(pod.metadata.uid ? { uid: pod.metadata.uid } : {}) };
}

function statusReason(s: SidecarSetStatus): string {
  return `${s.matchedPods} matched, ${s.updatedPods} updated, ${s.readyPods} ready, ${s.updatedReadyPods} updated and ready; latest revision ${s.latestRevision}`;
}

/** Pods updated in place by this set get SidecarSetUpgradable recorded as true (a round later, see above). */
function markUpdatedPods(set: SidecarSet, pods: readonly Pod[], ctx: Context): void {
  for (const pod of pods) {
    if (!isPodSidecarUpdated(set, pod)) continue;
    const states = readInPlaceUpdateStates(pod.metadata.annotations);
    if (states && states !== 'invalid' && states[setName(set)]) noteUpgradable(ctx, pod, set, true);
  }
}

/** Step 5: reset old hot-upgrade containers to the empty image. True when this round is spent on it. */
function flipHotUpgrades(set: SidecarSet, pods: readonly Pod[], ctx: Context): boolean {
  const due = pods.filter((p) => isReadyToFlip(set, p));
  if (due.length === 0) return false;
  const blocked: Pod[] = [];
  for (const pod of due) {
    if (ctx.touched.has(podKey(pod))) continue;
    const verdict = ctx.budget.requestUpdate(pod);
    if (!verdict.allowed) {
      blocked.push(pod);
      continue;
    }
    const draft = structuredClone(pod);
    const changed = applyFlip(set, draft, ctx.now);
    ctx.plan.writes.push(podPatch(pod, draft, `SidecarSet ${setName(set)}: hot upgrade done, reset ${changed.join(', ')} to the empty image`));
    ctx.plan.events.push({ regarding: podRef(pod), type: 'Normal', reason: 'ResetContainerSucceed', message: 'reset sidecar container image empty successfully' });
    ctx.touched.add(podKey(pod));
  }
  reportBlocked(set, blocked, ctx);
  ctx.inFlight = true;
  return true;
}

function reportBlocked(set: SidecarSet, blocked: readonly Pod[], ctx: Context): void {
  if (blocked.length === 0) return;
  ctx.plan.events.push({
    regarding: setRef(set),
    type: 'Normal',
    reason: 'PodUnavailableBudgetBlocked',
    message: `SidecarSet in-place update skipped ${blocked.length} pod(s) whose PodUnavailableBudget allows no disruption now: ${podList(blocked)}`,
  });
}

/** Step 7. */
function rollPods(set: SidecarSet, pods: readonly Pod[], latestRevision: string, ctx: Context): void {
  const name = setName(set);
  const { upgrade, notUpgradable, blocked } = selectPodsToUpgrade(set, pods, ctx.budget);
  for (const pod of notUpgradable) noteUpgradable(ctx, pod, set, false);
  if (notUpgradable.length > 0) {
    ctx.plan.events.push({
      regarding: setRef(set),
      type: 'Normal',
      reason: 'NotUpgradablePods',
      message: `SidecarSet in-place update detected ${notUpgradable.length} not upgradable pod(s) in this round, will skip them.`,
    });
  }
  reportBlocked(set, blocked.map((b) => b.pod), ctx);
  for (const pod of upgrade) {
    if (ctx.touched.has(podKey(pod))) continue;
    const result = upgradePod(set, pod, latestRevision, ctx.now);
    if ('error' in result) {
      ctx.plan.events.push({ regarding: setRef(set), type: 'Warning', reason: 'UpdatePodFailed', message: `pod ${podKey(pod)}: ${result.error}` });
      continue;
    }
    const what = result.changed.length ? `sidecar container(s) ${result.changed.join(', ')} take the new image` : 'its sidecars already run the new images';
    ctx.plan.writes.push(podPatch(pod, result.draft, `SidecarSet ${name} revision ${latestRevision}: ${what}`));
    ctx.touched.add(podKey(pod));
    ctx.inFlight = true;
  }
}

function decideOne(set: SidecarSet, ctx: Context): void {
  if (set.metadata?.deletionTimestamp) return;
  const { observed } = ctx;
  const pods = matchingPods(set, observed.pods, observed.namespaces);
  // An unusable selector: OpenKruise fails the reconcile and writes nothing (the webhook refuses such sets).
  if ('error' in pods) return;

  const revisions = planRevisions(set, observed.revisions, pods, observed.kruiseNamespace);
  ctx.plan.writes.push(...revisions.writes);
  const status = computeStatus(set, pods, revisions.latestRevision, revisions.collisionCount);
  if (statusChanged(set, status)) {
    ctx.plan.status.push({
      target: setRef(set),
      status,
      ...(set.metadata?.resourceVersion ? { resourceVersion: set.metadata.resourceVersion } : {}),
      reason: statusReason(status),
    });
  }
  markUpdatedPods(set, pods, ctx);

  const strategy = set.spec?.updateStrategy ?? {};
  if (strategy.type === 'NotUpdate' || strategy.paused) return;
  // Without the webhook's hash annotation nothing tells updated pods from others.
  if (!set.metadata?.annotations?.[HASH_ANNOTATION]) return;
  if (pods.some((p) => isPodSidecarUpdated(set, p) && (!isPodStateConsistent(set, p) || !isPodReadyForSet(set, p)))) ctx.inFlight = true;
  if (hasHotUpgradeContainer(set)) {
    if (pods.some((p) => isPodInHotUpgrading(set, p))) ctx.inFlight = true;
    if (flipHotUpgrades(set, pods, ctx)) return;
  }
  if (status.updatedPods >= status.matchedPods) return;
  rollPods(set, pods, revisions.latestRevision, ctx);
}

export function decideSidecarSets(observed: SidecarSetObserved, now: Date, opts: DecideOptions = {}): Plan {
  const plan = emptyPlan();
  const budget = (opts.budgets ?? ignoreDisruptionBudgets)({ budgets: observed.budgets, pods: observed.pods, now });
  const ctx: Context = { observed, now, plan, budget, touched: new Set(), conditions: new Map(), inFlight: false };
  const ordered = [...observed.sets].sort((a, b) => (setName(a) < setName(b) ? -1 : setName(a) > setName(b) ? 1 : 0));
  for (const set of ordered) decideOne(set, ctx);
  for (const [key, { pod, upgradable }] of ctx.conditions) {
    if (ctx.touched.has(key)) continue;
    const write = upgradableConditionWrite(pod, upgradable, now);
    if (write) plan.status.push(write);
  }
  if (ctx.inFlight) plan.requeueAfterMs = ROLLOUT_REQUEUE_MS;
  return plan;
}
