// The CloneSet controller's decision, per CloneSet (OpenKruise's syncCloneSet): the revisions
// (created when new), then scaling (scale.ts); only when scaling has nothing to write, pod states
// are refreshed (refresh.ts) and pods are updated (update.ts). Then the status. With
// PreDownloadImageForInPlaceUpdate, the update revision's new images are pre-pulled (predownload.ts). A stored CloneSet that validation would refuse gets a Warning
// Event and a `FailedScale` condition and no pod writes. Pure.
import type { FeatureGates } from '../../reconcile/feature-gates.js';
import { FEATURE_GATE_DEFAULTS } from '../../reconcile/feature-gates.js';
import { formatFieldErrors } from '../../kube/field-errors.js';
import type { Plan } from '../../reconcile/types.js';
import { emptyPlan } from '../../reconcile/types.js';
import { ignoreDisruptionBudgets, type DisruptionBudgetSource } from '../../workload/disruption.js';
import { isActivePod, rfc3339, type Pod } from '../../workload/pods.js';
import { readyAgainWakeMs } from '../../workload/pod-conditions.js';
import { stillSelected } from '../../workload/pod-list-query.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { defaultedCloneSet } from '../defaults.js';
import { INSTANCE_ID_LABEL, cloneSetRef, type StoredCloneSet } from '../types.js';
import { validateCloneSet } from '../validate.js';
import type { CloneSetObserved } from './observe.js';
import { refreshPods, restoreReadiness } from './refresh.js';
import { chooseUpdateRevision } from './revision-choice.js';
import { event, isAvailable, isUpdated, type CloneSetRun } from './run.js';
import { planImagePreDownload } from './predownload.js';
import { planScale } from './scale.js';
import { truncatePodsToDelete } from './pods-to-delete.js';
import type { CloneSetCondition, CloneSetStatus } from '../../api/apps/cloneset.js';
import { cloneSetStatus, STATUS_FIELDS, withCondition } from './status.js';
import { planUpdates } from './update.js';

/**
 * While pods are still to become available and no event may tell us (a Lambda without the pod
 * status observer), come back this soon. A safety net: pod changes run the CloneSet at once.
 */
export const WAITING_REQUEUE_MS = 3_000;

export type DecideOptions = { gates?: FeatureGates; budgets?: DisruptionBudgetSource };

const FAILED_SCALE: CloneSetCondition['type'] = 'FailedScale';

function decideOne(input: StoredCloneSet, owned: readonly Pod[], o: CloneSetObserved, now: Date, plan: Plan, opts: DecideOptions): number | undefined {
  const cs = defaultedCloneSet(input) as StoredCloneSet;
  const errs = validateCloneSet(input);
  const revision = chooseUpdateRevision(cs, o.revisions, owned);
  const revisions = new Map<string, ControllerRevision>(o.revisions.map((r) => [r.metadata.name, r]));
  revisions.set(revision.update.metadata.name, revision.update);
  // A pod relabelled out of the selector is no longer the CloneSet's (OpenKruise releases it); its
  // instance id stays taken (ownedIds).
  const selected = stillSelected(cs.spec.selector);
  const pods = owned.filter((p) => isActivePod(p) && selected(p));
  const run: CloneSetRun = {
    cs,
    pods,
    pvcs: o.pvcsByOwner?.get(cs.metadata.uid ?? '') ?? [],
    ownedIds: new Set(owned.map((p) => p.metadata.labels?.[INSTANCE_ID_LABEL] ?? '')),
    revisions,
    updateRevision: revision.name,
    currentRevision: revision.currentRevision || revision.name,
    now,
    gates: opts.gates ?? FEATURE_GATE_DEFAULTS,
    budget: (opts.budgets ?? ignoreDisruptionBudgets)({ budgets: o.budgets ?? [], pods, now }),
    ...(o.nodeLabels ? { nodeLabels: o.nodeLabels } : {}),
    plan: emptyPlan(),
    touched: new Set(),
    deferredReady: new Map(),
    readied: new Set(),
  };
  let condition: CloneSetCondition | undefined;
  if (errs.length) {
    const message = formatFieldErrors(errs);
    condition = { type: FAILED_SCALE, status: 'True', reason: 'InvalidSpec', message, lastTransitionTime: rfc3339(now) };
    const prior = input.status?.conditions?.find((c) => c.type === FAILED_SCALE);
    if (prior?.message !== message) event(run, 'Warning', 'InvalidSpec', `CloneSet ${cs.metadata.name} is invalid and is not acted on: ${message}`);
  } else {
    run.plan.writes.push(...revision.writes);
    if (run.gates.PreDownloadImageForInPlaceUpdate) planImagePreDownload(run, o.revisions, o.imagePullJobs ?? []);
    // Unlike OpenKruise, refreshing some pods does not hold back updating others: every decision
    // reads this run's observed state (pods refreshed now count as they were, never as more
    // available), and each pod gets at most one write.
    if (!planScale(run)) {
      refreshPods(run);
      planUpdates(run);
      restoreReadiness(run);
    }
    const truncate = truncatePodsToDelete(input, pods);
    if (truncate) run.plan.writes.push(truncate);
  }

  const { status, wakeAt } = cloneSetStatus(run, revision.collisionCount);
  const conditions = withCondition(input, condition, FAILED_SCALE);
  const current: Partial<CloneSetStatus> = input.status ?? {};
  const conditionsChanged = JSON.stringify(conditions) !== JSON.stringify(current.conditions ?? []);
  if (STATUS_FIELDS.some((k) => current[k] !== status[k]) || conditionsChanged) {
    plan.status.push({
      target: cloneSetRef(cs),
      status: { ...status, ...(conditions.length || current.conditions ? { conditions } : {}) },
      ...(input.metadata.resourceVersion ? { resourceVersion: input.metadata.resourceVersion } : {}),
      reason: `CloneSet ${cs.metadata.name}: ${status.readyReplicas}/${cs.spec.replicas ?? 1} ready, ${status.updatedReplicas} updated`,
    });
  }
  plan.writes.push(...run.plan.writes);
  plan.status.push(...run.plan.status);
  plan.events.push(...run.plan.events);
  if (errs.length) return undefined;

  const replicas = cs.spec.replicas ?? 1;
  const settled = pods.length === replicas && pods.every((p) => isUpdated(run, p) || status.expectedUpdatedReplicas !== replicas) && pods.every((p) => isAvailable(run, p));
  const wrote = run.plan.writes.length + run.plan.status.length > 0;
  const readyAgain = readyAgainWakeMs(run.plan.status, pods.some((p) => !isUpdated(run, p)));
  const wakes = [wakeAt === undefined ? undefined : Math.max(wakeAt - now.getTime(), 0), run.wakeMs, readyAgain, wrote || !settled ? WAITING_REQUEUE_MS : undefined].filter((w): w is number => w !== undefined);
  return wakes.length ? Math.min(...wakes) : undefined;
}

export function decideCloneSets(o: CloneSetObserved, now: Date, opts: DecideOptions = {}): Plan {
  const plan = emptyPlan();
  let requeue: number | undefined;
  for (const cs of o.cloneSets) {
    const after = decideOne(cs, o.podsByOwner.get(cs.metadata.uid ?? '') ?? [], o, now, plan, opts);
    if (after !== undefined) requeue = Math.min(requeue ?? Infinity, after);
  }
  if (requeue !== undefined) plan.requeueAfterMs = requeue;
  return plan;
}
