// Pure: the pod-status observer's two questions. Which pods the API server should send it (one
// webhook entry per pod label the features declare, since a selector ANDs its terms and "any of
// these labels" takes several entries), and which workload's reconciler an admitted status
// change should run: the pod's controller, if it is one of the declared kinds and something it
// waits on changed (src/kube/pod-progress.ts).
import type { AdmittedRequest } from './admitted.js';
import { admittedRef } from './admitted-ref.js';
import type { ChangeEvent, WorkloadPods } from './contracts.js';
import { podProgressChanges } from '../kube/pod-progress.js';
import { asObj } from '../kube/projection.js';

export const POD_STATUS_REASON = 'pod-status';

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/**
 * One webhook entry per distinct pod label, named `<kind>.<stem>` after the first kind declaring
 * it (e.g. `cloneset.observe-pod-status.kruise-serverless.io`), so names stay put as kinds are added.
 */
export function workloadPodSelectors(workloads: readonly WorkloadPods[], stem: string): { name: string; objectSelector: { matchExpressions: { key: string; operator: 'Exists' }[] } }[] {
  const byLabel = new Map<string, WorkloadPods>();
  for (const w of workloads) if (!byLabel.has(w.podLabel)) byLabel.set(w.podLabel, w);
  return [...byLabel.values()].map((w) => ({
    name: `${w.kind.toLowerCase()}.${stem}`,
    objectSelector: { matchExpressions: [{ key: w.podLabel, operator: 'Exists' }] },
  }));
}

type OwnerReference = { apiVersion?: unknown; kind?: unknown; name?: unknown; controller?: unknown };

/** The declared workload that controls the pod (its controller owner reference, any version of the group). */
export function controllingWorkload(pod: unknown, workloads: readonly WorkloadPods[]): { apiVersion: string; kind: string; name: string } | undefined {
  const refs = asObj(asObj(pod).metadata).ownerReferences;
  const owner = (Array.isArray(refs) ? (refs as OwnerReference[]) : []).find((r) => r?.controller === true);
  if (!owner || typeof owner.apiVersion !== 'string' || typeof owner.kind !== 'string' || typeof owner.name !== 'string' || !owner.name) return undefined;
  const group = groupOf(owner.apiVersion);
  // The declared apiVersion, not the reference's: events are routed to the reconciler of exactly that apiVersion.
  const declared = workloads.find((w) => w.kind === owner.kind && groupOf(w.apiVersion) === group);
  return declared ? { apiVersion: declared.apiVersion, kind: declared.kind, name: owner.name } : undefined;
}

/** The change event for an allowed, persisted pod status update that a declared workload waits on. */
export function workloadPodEvent(clusterId: string, a: AdmittedRequest & { allowed?: boolean }, workloads: readonly WorkloadPods[]): ChangeEvent | undefined {
  if (a.allowed === false || a.dryRun || a.operation !== 'UPDATE' || a.group !== '' || a.kind !== 'Pod' || a.subResource !== 'status') return undefined;
  const owner = controllingWorkload(a.object, workloads);
  if (!owner || podProgressChanges(a.oldObject, a.object).length === 0) return undefined;
  const admitted = admittedRef(a);
  return { clusterId, ...owner, ...(a.namespace ? { namespace: a.namespace } : {}), reason: POD_STATUS_REASON, ...(admitted ? { admitted } : {}) };
}
