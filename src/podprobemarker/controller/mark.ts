// What a pod's probe results make of it (pure):
// - results the reconciler probed itself (./prober.ts), as OpenKruise's NodePodProbe controller
//   applies its agent's (updatePodProbeStatus): the condition `podConditionType` set True
//   (Succeeded) or False (Failed) with the probe's message, replaced only when its status or message
//   changes, the first probe of a condition type winning; the policy of the result's state sets its
//   labels and annotations, the other state's policy has its keys removed;
// - results the pod's runtime reported as that condition (OpenKruise's serverless mode,
//   markServerlessPod), for probes not probed here: the policy whose state matches the condition's
//   status sets its labels and annotations; nothing is removed.
import type { PodProbeMarker, ProbeMarkerPolicy } from '../../api/apps/podprobemarker.js';
import { podCondition, type Pod, type PodCondition } from '../../workload/pods.js';
import { stateOfConditionStatus } from '../types.js';
import type { ProbeResult } from './results.js';
import { targetKey } from './targets.js';

type Keyed = Map<string, string | null>;
export type Marking = {
  conditions?: PodCondition[];
  /** The labels and annotations to set (value) or remove (null). */
  labels: Record<string, string | null>;
  annotations: Record<string, string | null>;
};

function apply(policy: ProbeMarkerPolicy | undefined, labels: Keyed, annotations: Keyed, remove: boolean): void {
  if (!policy) return;
  for (const [k, v] of Object.entries(policy.labels ?? {})) labels.set(k, remove ? null : v);
  for (const [k, v] of Object.entries(policy.annotations ?? {})) annotations.set(k, remove ? null : v);
}

/** The keys whose wanted value differs from the pod's. */
function changes(have: Record<string, string> | undefined, want: Keyed): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [k, v] of want) {
    const present = have !== undefined && Object.prototype.hasOwnProperty.call(have, k);
    if (v === null ? present : have?.[k] !== v) out[k] = v;
  }
  return out;
}

/** SetPodConditionIfMsgChanged. */
function setCondition(conditions: PodCondition[], c: PodCondition): void {
  const i = conditions.findIndex((x) => x.type === c.type);
  if (i < 0) conditions.push(c);
  else if (conditions[i]!.status !== c.status || (conditions[i]!.message ?? '') !== (c.message ?? '')) conditions[i] = c;
}

export function markPod(pod: Pod, markers: readonly PodProbeMarker[], results: ReadonlyMap<string, ProbeResult>): Marking | undefined {
  const labels: Keyed = new Map();
  const annotations: Keyed = new Map();
  for (const ppm of markers) {
    for (const probe of ppm.spec?.probes ?? []) {
      if (!probe.podConditionType || !(probe.markerPolicy ?? []).length || results.has(targetKey(pod, ppm, probe))) continue;
      const state = stateOfConditionStatus(podCondition(pod, probe.podConditionType)?.status);
      for (const policy of probe.markerPolicy ?? []) if (state && policy.state === state) apply(policy, labels, annotations, false);
    }
  }
  const before = pod.status?.conditions ?? [];
  const conditions = before.map((c) => ({ ...c }));
  const typesSet = new Set<string>();
  for (const ppm of markers) {
    for (const probe of ppm.spec?.probes ?? []) {
      const r = results.get(targetKey(pod, ppm, probe));
      if (!r) continue;
      const type = probe.podConditionType ?? '';
      if (type && !typesSet.has(type)) {
        typesSet.add(type);
        setCondition(conditions, { type, status: r.state === 'Succeeded' ? 'True' : 'False', lastProbeTime: r.probedAt, lastTransitionTime: r.changedAt, ...(r.message ? { message: r.message } : {}) });
      }
      const policies = probe.markerPolicy ?? [];
      apply(policies.find((p) => p.state !== r.state), labels, annotations, true);
      apply(policies.find((p) => p.state === r.state), labels, annotations, false);
    }
  }
  const conditionsChanged = conditions.length !== before.length || conditions.some((c, i) => c !== before[i] && JSON.stringify(c) !== JSON.stringify(before[i]));
  const marking: Marking = { labels: changes(pod.metadata.labels, labels), annotations: changes(pod.metadata.annotations, annotations), ...(conditionsChanged ? { conditions } : {}) };
  return conditionsChanged || Object.keys(marking.labels).length || Object.keys(marking.annotations).length ? marking : undefined;
}
