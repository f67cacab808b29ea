// The Advanced StatefulSet controller's decision, per set (updateStatefulSet in OpenKruise's
// stateful_set_control.go): the revisions (created when new), the replicas pass (create, recreate,
// refresh, fix identity; OrderedReady stops at the first pod not yet available), condemned pods
// (scale down, highest ordinal first), then the rolling update; the status; the wake-ups.
// Each pod gets at most one write per run: unlike OpenKruise, refreshing one pod's state does not
// hold back updating another. Pure.
import { FEATURE_GATE_DEFAULTS, type FeatureGates } from '../../reconcile/feature-gates.js';
import type { Plan } from '../../reconcile/types.js';
import { emptyPlan } from '../../reconcile/types.js';
import { ignoreDisruptionBudgets, type DisruptionBudgetSource } from '../../workload/disruption.js';
import { withLifecycleState } from '../../workload/lifecycle.js';
import { isActivePod, type Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { inOrdinalRange, liveOrdinals, ordinalOf, ordinalRange, parentAndOrdinal } from '../ordinals.js';
import { formatFieldErrors } from '../../kube/field-errors.js';
import { defaultedStatefulSet } from '../defaults.js';
import { planStatefulSetRevisions } from '../revisions.js';
import { validateStatefulSet } from '../validate.js';
import { statefulSetRef, type StoredStatefulSet } from '../types.js';
import { planCondemned } from './condemned.js';
import { newStatefulSetPod, type Template } from './new-pod.js';
import { templateOfRevision } from '../../workload/template-revision.js';
import type { StatefulSetObserved } from './observe.js';
import { initialState, planReplicas, ScaleBudget, type Slot } from './replicas.js';
import { availability, event, isHealthy, isMonotonic, isUpdated, podRevision, replicasOf, scaleMaxUnavailableOf, type StsRun } from './run.js';
import { readyAgainWakeMs } from '../../workload/pod-conditions.js';
import { STATUS_FIELDS, statefulSetStatus } from './status.js';
import { planRollingUpdate } from './update.js';
import { claimStatefulSetPods } from './pod-claims.js';

/**
 * While pods are still to become available and no event may tell us (a Lambda without the pod
 * status observer), come back this soon. A safety net: pod changes run the set at once.
 */
export const WAITING_REQUEUE_MS = 3_000;

export type DecideOptions = { gates?: FeatureGates; budgets?: DisruptionBudgetSource };

/** isCurrentRevisionNeeded: a new pod at `ordinal` is created at the current revision (below the partition). */
function atCurrentRevision(run: StsRun, ordinal: number, slots: ReadonlyMap<number, Pod>): boolean {
  const strategy = run.set.spec.updateStrategy;
  if ((strategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return false;
  const ru = strategy?.rollingUpdate;
  if (!ru) return ordinal < run.range.start + (run.set.status?.currentReplicas ?? 0);
  const partition = ru.partition ?? 0;
  if (!ru.unorderedUpdate) return liveOrdinals(run.range).filter((o) => o < ordinal).length + 1 <= partition;
  const notUpdated = [...slots].filter(([o, p]) => o !== ordinal && !isUpdated(run, p)).length;
  return notUpdated < partition;
}

/** The replica slots in ordinal order: observed pods, and the pods to create where one is missing. */
function buildSlots(run: StsRun, pods: readonly Pod[]): Slot[] {
  const byOrdinal = new Map<number, Pod>();
  for (const pod of pods) {
    const o = ordinalOf(pod.metadata.name);
    if (o >= 0 && inOrdinalRange(o, run.range)) byOrdinal.set(o, pod);
  }
  const template = (revision: string): Template => templateOfRevision(run.revisions.get(revision)) ?? (run.set.spec.template as Template);
  for (const ordinal of liveOrdinals(run.range)) {
    if (byOrdinal.has(ordinal)) continue;
    const revision = atCurrentRevision(run, ordinal, byOrdinal) ? run.currentRevision : run.updateRevision;
    const pod = newStatefulSetPod(run.set, ordinal, { revision, template: template(revision), state: 'Normal', podIndexLabel: run.gates.PodIndexLabel, now: run.now });
    byOrdinal.set(ordinal, initialState(run, pod) === 'Normal' ? pod : withLifecycleState(pod, 'PreparingNormal', run.now));
  }
  return liveOrdinals(run.range).map((ordinal) => ({ ordinal, pod: byOrdinal.get(ordinal)! }));
}

function decideOne(input: StoredStatefulSet, ownedBefore: readonly Pod[], o: StatefulSetObserved, now: Date, plan: Plan, opts: DecideOptions): number | undefined {
  const gates = opts.gates ?? FEATURE_GATE_DEFAULTS;
  // Stored objects have the webhook's defaults; one stored before the webhook is read with them.
  const set = defaultedStatefulSet(input as never) as StoredStatefulSet;
  const errs = validateStatefulSet(input as never);
  const claims = claimStatefulSetPods(set, ownedBefore, o.orphans ?? []);
  const owned = claims.pods;
  const history = planStatefulSetRevisions(set, o.revisions, owned);
  const revisions = new Map<string, ControllerRevision>(o.revisions.map((r) => [r.metadata.name, r]));
  revisions.set(history.update.metadata.name, history.update);
  const start = gates.StatefulSetStartOrdinal ? (set.spec.ordinals?.start ?? 0) : 0;
  const run: StsRun = {
    set,
    now,
    gates,
    budget: (opts.budgets ?? ignoreDisruptionBudgets)({ budgets: o.budgets, pods: owned.filter(isActivePod), now }),
    range: ordinalRange(replicasOf(set), start, set.spec.reserveOrdinals),
    revisions,
    currentRevision: history.currentRevision,
    updateRevision: history.updateRevision,
    pvcs: o.pvcs,
    plan: emptyPlan(),
    touched: new Set(),
    readied: new Set(),
  };
  run.plan.writes.push(...claims.writes, ...history.writes);
  // An adopted or released pod was written this run: its next write waits for the next run.
  for (const w of claims.writes) if (w.op === 'patch') run.touched.add(w.target.name);

  // Pods whose name encodes no ordinal are not ours to manage.
  const pods = owned.filter((p) => parentAndOrdinal(p.metadata.name).ordinal >= 0);
  const slots = buildSlots(run, pods);
  const condemned = pods.filter((p) => !inOrdinalRange(ordinalOf(p.metadata.name), run.range)).sort((a, b) => ordinalOf(b.metadata.name) - ordinalOf(a.metadata.name));
  const unhealthy = [...slots.map((s) => s.pod), ...condemned].filter((p) => !isHealthy(p));
  const firstUnhealthy = unhealthy.sort((a, b) => ordinalOf(a.metadata.name) - ordinalOf(b.metadata.name))[0];

  const monotonic = isMonotonic(set);
  if (errs.length) {
    // A spec the webhook would refuse (stored before it was installed, or with it bypassed): no pod
    // is touched; told once per generation.
    if (set.status?.observedGeneration !== set.metadata.generation) event(run, 'Warning', 'InvalidSpec', `StatefulSet ${set.metadata.name} is invalid and is not acted on: ${formatFieldErrors(errs)}`);
    run.plan.writes.length = 0;
  }
  const passed =
    !errs.length &&
    planReplicas(run, slots, monotonic, new ScaleBudget(scaleMaxUnavailableOf(set))) === 'continue' &&
    planCondemned(run, condemned, firstUnhealthy, monotonic) === 'continue';
  if (passed && (set.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') planRollingUpdate(run, slots);

  const status = statefulSetStatus(run, pods, history.collisionCount);
  const current = (set.status ?? {}) as Record<string, unknown>;
  if (STATUS_FIELDS.some((k) => current[k] !== status[k])) {
    plan.status.push({
      target: statefulSetRef(set),
      status: { ...status },
      ...(set.metadata.resourceVersion ? { resourceVersion: set.metadata.resourceVersion } : {}),
      reason: `StatefulSet ${set.metadata.name}: ${status.readyReplicas}/${replicasOf(set)} ready, ${status.updatedReplicas} updated`,
    });
  }
  plan.writes.push(...run.plan.writes);
  plan.status.push(...run.plan.status);
  plan.events.push(...run.plan.events);

  const live = slots.map((s) => s.pod);
  const settled = condemned.length === 0 && live.every((p) => Boolean(p.metadata.uid) && availability(run, p).available) && live.every((p) => isUpdated(run, p) || podRevision(p) === run.currentRevision);
  const wrote = run.plan.writes.length + run.plan.status.length > 0;
  const readyAgain = readyAgainWakeMs(run.plan.status, live.some((p) => !isUpdated(run, p)));
  const wakes = [run.wakeMs, readyAgain, wrote || !settled ? WAITING_REQUEUE_MS : undefined].filter((w): w is number => w !== undefined);
  return wakes.length ? Math.min(...wakes) : undefined;
}

export function decideStatefulSets(o: StatefulSetObserved, now: Date, opts: DecideOptions = {}): Plan {
  const plan = emptyPlan();
  let requeue: number | undefined;
  for (const set of o.sets) {
    const after = decideOne(set, o.podsByOwner.get(set.metadata.uid ?? '') ?? [], o, now, plan, opts);
    if (after !== undefined) requeue = Math.min(requeue ?? Infinity, after);
  }
  if (requeue !== undefined) plan.requeueAfterMs = requeue;
  return plan;
}
