// What the controller computes for one PUB from what it observed (../shared/SEMANTICS.md §4.5): its pods
// (targetRef: the workload's pods; selector: matching pods of the namespace), the expected count
// (workload scale, or `pub.kruise.io/protect-total-replicas`), desiredAvailable, and each pod's
// fact for the ledger. A workload whose scale cannot be read (an unknown kind, kruise#2571) does
// not make the budget "allow everything": its observed pods stand in for its scale, and the
// assessment reports it. A PUB without pods yet (kruise#1857) is assessed like any other. Pure.
import { isActivePod, type Pod } from '../../workload/pods.js';
import { scaledValue } from '../../kube/intstr.js';
import type { PodFact } from '../budget-state.js';
import { isPodAvailableForBudget } from '../pod-state.js';
import { podWorkload, pubCoversPod, type Owned, type WorkloadRef } from '../related.js';
import type { PubResyncRequest } from '../resync.js';
import { NO_PROTECT_ANNOTATION, PROTECT_TOTAL_REPLICAS_ANNOTATION, protectedOperations, type PodUnavailableBudget } from '../types.js';

/** A workload's scale, or why it could not be read. */
export type Scale = number | { error: string };
export const workloadKey = (namespace: string, w: WorkloadRef): string => `${namespace}/${w.group}/${w.kind}/${w.name}`;

export type PubAssessment = {
  resync: PubResyncRequest;
  /** Active pods the PUB covers (for back-fill and reporting). */
  pods: Pod[];
  /** Workloads whose scale could not be read, with why. */
  unknownWorkloads: { workload: string; error: string }[];
  /** The spec cannot be evaluated (e.g. a bad percentage): the budget allows nothing. */
  specError?: string;
};

/** Kinds whose `spec.replicas` defaults to 1 when left out (by the API server or OpenKruise's defaulting). */
const REPLICAS_DEFAULT_TO_ONE = new Set(['/ReplicationController', 'apps/Deployment', 'apps/ReplicaSet', 'apps/StatefulSet', 'apps.kruise.io/CloneSet', 'apps.kruise.io/StatefulSet', 'apps.kruise.io/UnitedDeployment']);

/**
 * A workload's scale from the object: its `spec.replicas`. Left out, it is 1 only for the kinds
 * known to default it; for any other kind it is unknown (kruise#2571: a custom workload without
 * replicas must not shrink the budget to one pod and so allow everything).
 */
export function scaleOfWorkload(w: WorkloadRef, obj: { spec?: { replicas?: unknown } }): Scale {
  const replicas = obj.spec?.replicas;
  if (typeof replicas === 'number') return replicas;
  if (replicas === undefined || replicas === null) {
    return REPLICAS_DEFAULT_TO_ONE.has(`${w.group}/${w.kind}`) ? 1 : { error: `${w.kind}/${w.name} has no spec.replicas` };
  }
  return { error: 'spec.replicas is not a number' };
}

export function targetWorkload(pub: PodUnavailableBudget): WorkloadRef | undefined {
  const ref = pub.spec?.targetRef;
  if (!ref?.kind || !ref.name) return undefined;
  const parts = (ref.apiVersion ?? '').split('/');
  return { group: parts.length === 2 ? parts[0]! : '', kind: ref.kind, name: ref.name };
}

const sameWorkload = (a: WorkloadRef | undefined, b: WorkloadRef | undefined) => !!a && !!b && a.group === b.group && a.kind === b.kind && a.name === b.name;

function factOf(pod: Pod): PodFact {
  if (pod.metadata.annotations?.[NO_PROTECT_ANNOTATION] === 'true') return 'unprotected';
  return isActivePod(pod) && isPodAvailableForBudget(pod) ? 'available' : 'unavailable';
}

/** Status times (RFC 3339) as the ledger keeps them; one that does not parse counts from `at`. */
function recordedTimes(m: Record<string, unknown> | null | undefined, at: number): Record<string, number> | undefined {
  const entries = Object.entries(m ?? {});
  if (!entries.length) return undefined;
  return Object.fromEntries(entries.map(([pod, t]) => [pod, (t instanceof Date ? t.getTime() : typeof t === 'string' ? Date.parse(t) : Number.NaN) || at]));
}

/** What the PUB's status says is in flight, for a ledger that has no record of the PUB. */
function recordedInFlight(pub: PodUnavailableBudget, at: number): PubResyncRequest['recorded'] | undefined {
  const disruptedPods = recordedTimes(pub.status?.disruptedPods, at);
  const unavailablePods = recordedTimes(pub.status?.unavailablePods, at);
  if (!disruptedPods && !unavailablePods) return undefined;
  return { ...(disruptedPods ? { disruptedPods } : {}), ...(unavailablePods ? { unavailablePods } : {}) };
}

export function assessPub(
  pub: PodUnavailableBudget,
  namespacePods: readonly Pod[],
  replicaSets: ReadonlyMap<string, Owned>,
  scales: ReadonlyMap<string, Scale>,
  observedAt: number,
): PubAssessment {
  const ns = pub.metadata?.namespace ?? '';
  const target = pub.spec?.targetRef ? targetWorkload(pub) : undefined;
  const workloadOf = new Map(namespacePods.map((p) => [p, podWorkload(p, replicaSets)]));
  const covered = namespacePods.filter((p) => (target ? sameWorkload(workloadOf.get(p), target) : pubCoversPod(pub, p, undefined)));
  const active = covered.filter(isActivePod);

  const unknownWorkloads: PubAssessment['unknownWorkloads'] = [];
  const scaleOf = (w: WorkloadRef, podsOfIt: number): number => {
    const s = scales.get(workloadKey(ns, w));
    if (typeof s === 'number') return s;
    unknownWorkloads.push({ workload: `${w.kind}/${w.name}`, error: s?.error ?? 'not observed' });
    return podsOfIt;
  };
  let expected: number;
  const total = pub.metadata?.annotations?.[PROTECT_TOTAL_REPLICAS_ANNOTATION];
  if (total) expected = Number.parseInt(total, 10) || 0;
  else if (target) expected = scaleOf(target, active.length);
  else {
    // Distinct workloads count their scale once; pods without a workload count one each.
    const byWorkload = new Map<string, { w: WorkloadRef; n: number }>();
    let loose = 0;
    for (const p of active) {
      const w = workloadOf.get(p);
      if (!w) loose++;
      else {
        const k = workloadKey(ns, w);
        byWorkload.set(k, { w, n: (byWorkload.get(k)?.n ?? 0) + 1 });
      }
    }
    expected = loose + [...byWorkload.values()].reduce((sum, { w, n }) => sum + scaleOf(w, n), 0);
  }

  const { maxUnavailable, minAvailable } = pub.spec ?? {};
  let desired: number | { error: string };
  if (maxUnavailable !== undefined && maxUnavailable !== null) {
    const m = scaledValue(maxUnavailable, expected, true);
    desired = typeof m === 'number' ? Math.max(0, expected - m) : m;
  } else desired = scaledValue(minAvailable ?? 0, expected, true);
  const specError = typeof desired === 'number' ? undefined : desired.error;
  const recorded = recordedInFlight(pub, observedAt);

  return {
    resync: {
      pub: pub.metadata?.name ?? '',
      uid: pub.metadata?.uid ?? '',
      generation: pub.metadata?.generation ?? 0,
      // An unusable spec protects everything rather than nothing.
      desiredAvailable: typeof desired === 'number' ? desired : Math.max(expected, covered.length),
      totalReplicas: expected,
      protectOperations: protectedOperations(pub.metadata?.annotations),
      pods: Object.fromEntries(covered.map((p) => [p.metadata.name, factOf(p)])),
      observedAt,
      ...(recorded ? { recorded } : {}),
    },
    pods: active,
    unknownWorkloads,
    ...(specError ? { specError } : {}),
  };
}
