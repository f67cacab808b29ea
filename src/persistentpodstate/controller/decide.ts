// The PersistentPodState controller's plan: each PersistentPodState in scope gets its recorded
// status (./record.ts); each StatefulSet in scope gets the PersistentPodState its annotations ask
// for created or brought up to date (./generate.ts), or, once it stops asking, the one it
// generated deleted. Pure.
import type { KubeObject } from '../../kube/http.js';
import { emptyPlan, type Plan } from '../../reconcile/types.js';
import { PPS_API_VERSION, PPS_KIND, type StoredPersistentPodState } from '../types.js';
import { generatedObject, generatedSpec, wantsGenerated, type StatefulSetLike } from './generate.js';
import { stateKey, targetOf, type PersistentPodStateObserved } from './observe.js';
import { recordedStatus, type Workload } from './record.js';

const ref = (p: StoredPersistentPodState) => ({ apiVersion: PPS_API_VERSION, kind: PPS_KIND, name: p.metadata.name, namespace: p.metadata.namespace });

function workloadOf(sts: StatefulSetLike | undefined): Workload | undefined {
  if (!sts) return undefined;
  const reserved = (sts.spec?.reserveOrdinals ?? []).filter((o): o is number => typeof o === 'number');
  return { replicas: sts.spec?.replicas ?? 1, reserveOrdinals: new Set(reserved), deleting: !!sts.metadata.deletionTimestamp };
}

const canonical = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b))) : x));

function decideGenerated(plan: Plan, sts: StatefulSetLike, all: readonly StoredPersistentPodState[]): void {
  if (sts.metadata.deletionTimestamp) return;
  const existing = all.find((p) => p.metadata.namespace === sts.metadata.namespace && p.metadata.name === sts.metadata.name);
  const why = `${sts.kind} ${sts.metadata.name}`;
  if (wantsGenerated(sts)) {
    if (!existing) {
      plan.writes.push({ op: 'create', object: generatedObject(sts), reason: `${why}: auto-generate its PersistentPodState` });
      return;
    }
    const spec = generatedSpec(sts);
    if (canonical(spec) === canonical(existing.spec ?? {})) return;
    plan.writes.push({ op: 'update', object: { ...(existing as unknown as KubeObject), spec } as KubeObject, reason: `${why}: its persistent-pod-state annotations changed` });
    return;
  }
  const generatedByIt = ((existing?.metadata.ownerReferences ?? []) as { uid?: string; controller?: boolean }[]).some((o) => o.controller && o.uid === sts.metadata.uid);
  if (existing && generatedByIt) {
    plan.writes.push({ op: 'delete', target: ref(existing), ...(existing.metadata.uid ? { preconditions: { uid: existing.metadata.uid } } : {}), reason: `${why}: no longer asks for a PersistentPodState` });
  }
}

export function decidePersistentPodStates(o: PersistentPodStateObserved): Plan {
  const plan = emptyPlan();
  for (const sts of o.workloads) decideGenerated(plan, sts, o.states);
  for (const pps of o.states) {
    const status = recordedStatus(pps, workloadOf(targetOf(pps, o.workloads)), o.podsByState.get(stateKey(pps)) ?? [], o.nodes);
    const stored = { observedGeneration: pps.status?.observedGeneration ?? 0, ...(pps.status?.podStates && Object.keys(pps.status.podStates).length ? { podStates: pps.status.podStates } : {}) };
    const next = { observedGeneration: status.observedGeneration, ...(status.podStates && Object.keys(status.podStates).length ? { podStates: status.podStates } : {}) };
    if (canonical(stored) === canonical(next)) continue;
    plan.status.push({
      target: ref(pps),
      // A merge patch cannot drop map entries by leaving them out: forgotten pods are set to null.
      status: { observedGeneration: next.observedGeneration, podStates: { ...Object.fromEntries(Object.keys(pps.status?.podStates ?? {}).map((k) => [k, null])), ...(next.podStates ?? {}) } },
      ...(pps.metadata.resourceVersion ? { resourceVersion: pps.metadata.resourceVersion } : {}),
      reason: `PersistentPodState ${pps.metadata.name}: ${Object.keys(next.podStates ?? {}).length} pod states recorded`,
    });
  }
  return plan;
}
