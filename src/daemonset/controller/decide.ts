// The Advanced DaemonSet controller's decision, per DaemonSet (OpenKruise's syncDaemonSet): the
// revisions, then placement (manage.ts); only when placement has nothing to write, in-place
// updates are carried on (refresh.ts) and, unless paused or OnDelete, the rolling update planned
// (rolling.ts). Then the status. A DaemonSet that selects every pod gets a Warning and nothing
// else, as in OpenKruise; one that validation refuses gets a Warning and no pod writes. Pure.
import { formatFieldErrors } from '../../kube/field-errors.js';
import type { Plan } from '../../reconcile/types.js';
import { emptyPlan } from '../../reconcile/types.js';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import { readyAgainWakeMs } from '../../workload/pod-conditions.js';
import { defaultedDaemonSet } from '../defaults.js';
import { planDaemonSetRevisions } from '../revisions.js';
import { daemonSetRef, type StoredDaemonSet as DaemonSet } from '../types.js';
import { validateDaemonSet } from '../validate.js';
import { claimDaemonPods } from './claims.js';
import { planPlacement } from './manage.js';
import type { DaemonSetObserved } from './observe.js';
import { nodeEligibility, podsByNode, type NodeEligibility } from './placement.js';
import { refreshPods, restoreReadiness } from './refresh.js';
import { planRollingUpdate } from './rolling.js';
import { event, isAvailable, isUpdated, type DaemonSetRun } from './run.js';
import { daemonSetStatus, STATUS_FIELDS } from './status.js';

/**
 * While pods are still to become available or go and no event may tell us (a Lambda without the
 * pod status observer), come back this soon. A safety net: pod and node changes run it at once.
 */
export const WAITING_REQUEUE_MS = 3_000;

/**
 * While a pod of ours is terminating: its node gets its next pod once it is gone, and a pod's
 * deletion sends no event (only status changes do), so look again this soon.
 */
export const TERMINATING_REQUEUE_MS = 1_000;

const isPaused = (ds: DaemonSet) => ds.spec.updateStrategy?.rollingUpdate?.paused === true;

function decideOne(input: DaemonSet, ownedBefore: readonly Pod[], nodes: readonly Node[], o: DaemonSetObserved, now: Date, plan: Plan): number | undefined {
  const sel = input.spec.selector;
  if (sel && Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) {
    plan.events.push({ regarding: { ...daemonSetRef(input), ...(input.metadata.uid ? { uid: input.metadata.uid } : {}) }, type: 'Warning', reason: 'SelectingAll', message: 'This DaemonSet is selecting all pods. A non-empty selector is required.' });
    return undefined;
  }
  const ds = defaultedDaemonSet(input);
  const claims = claimDaemonPods(ds, ownedBefore, o.orphans ?? []);
  const owned = claims.pods;
  const revisions = planDaemonSetRevisions(ds, o.revisions, owned);
  const eligibility = new Map<string, NodeEligibility>(nodes.map((n) => [n.metadata.name, nodeEligibility(n, ds)]));
  const placed = podsByNode(owned);
  const run: DaemonSetRun = {
    ds,
    nodes: new Map(nodes.map((n) => [n.metadata.name, n])),
    eligibility,
    podsByNode: placed.byNode,
    unplaced: placed.unplaced,
    podNames: new Set(owned.map((p) => p.metadata.name)),
    hash: revisions.hash,
    current: revisions.current,
    old: revisions.old,
    now,
    plan: emptyPlan(),
    touched: new Set(),
    deferredReady: new Map(),
    readied: new Set(),
  };
  const errs = validateDaemonSet(input);
  if (errs.length) {
    const message = formatFieldErrors(errs);
    event(run, 'Warning', 'InvalidSpec', `DaemonSet ${ds.metadata.name} is invalid and is not acted on: ${message}`);
  } else {
    run.plan.writes.push(...claims.writes, ...revisions.writes);
    // An adopted or released pod was written this run: its next write waits for the next run.
    for (const w of claims.writes) if (w.op === 'patch') run.touched.add(w.target.name);
    if (!planPlacement(run)) {
      refreshPods(run);
      if (ds.spec.updateStrategy?.type === 'RollingUpdate' && !isPaused(ds)) planRollingUpdate(run);
      restoreReadiness(run);
    }
  }

  const { status, wakeAt } = daemonSetStatus(run, revisions.collisionCount);
  const stored = (input.status ?? {}) as Record<string, unknown>;
  if (STATUS_FIELDS.some((k) => stored[k] !== (status as Record<string, unknown>)[k])) {
    plan.status.push({
      target: daemonSetRef(ds),
      status: { ...status },
      ...(input.metadata.resourceVersion ? { resourceVersion: input.metadata.resourceVersion } : {}),
      reason: `DaemonSet ${ds.metadata.name}: ${status.numberReady}/${status.desiredNumberScheduled} ready, ${status.updatedNumberScheduled} updated`,
    });
  }
  plan.writes.push(...run.plan.writes);
  plan.status.push(...run.plan.status);
  plan.events.push(...run.plan.events);
  if (errs.length) return undefined;

  const wrote = run.plan.writes.length + run.plan.status.length > 0;
  // Pods on nodes that are gone are left to the pod GC: nothing here waits for them.
  const pods = [...run.podsByNode].filter(([node]) => run.nodes.has(node)).flatMap(([, ps]) => ps);
  const settled = !wrote && status.currentNumberScheduled === status.desiredNumberScheduled && status.numberMisscheduled === 0 && pods.every((p) => !p.metadata.deletionTimestamp && isAvailable(run, p));
  const terminating = pods.some((p) => p.metadata.deletionTimestamp);
  const readyAgain = readyAgainWakeMs(run.plan.status, pods.some((p) => !isUpdated(run, p)));
  const wakes = [wakeAt === undefined ? undefined : Math.max(wakeAt - now.getTime(), 0), run.wakeMs, readyAgain, settled ? undefined : WAITING_REQUEUE_MS, terminating ? TERMINATING_REQUEUE_MS : undefined].filter((w): w is number => w !== undefined);
  return wakes.length ? Math.min(...wakes) : undefined;
}

export function decideDaemonSets(o: DaemonSetObserved, now: Date): Plan {
  const plan = emptyPlan();
  let requeue: number | undefined;
  for (const ds of o.daemonSets) {
    const after = decideOne(ds, o.podsByOwner.get(ds.metadata.uid ?? '') ?? [], o.nodes, o, now, plan);
    if (after !== undefined) requeue = Math.min(requeue ?? Infinity, after);
  }
  if (requeue !== undefined) plan.requeueAfterMs = requeue;
  return plan;
}
