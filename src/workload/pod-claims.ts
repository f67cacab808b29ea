// Which pods a workload claims, as Kubernetes' ControllerRefManager.ClaimPods decides it (what
// OpenKruise's StatefulSet and DaemonSet controllers call every sync):
// - a pod it controls stays its own while its selector matches; one that no longer matches is
//   released (its owner reference removed), unless the workload is being deleted;
// - an orphan (no controller reference) its selector matches is adopted, unless the workload or
//   the pod is being deleted: this is how a workload re-created over the pods an `apps/v1` one
//   left behind (deleted with propagationPolicy Orphan) takes them over without restarting them;
// - a pod another controller controls is never touched.
// Adoption and release are merge patches preconditioned on the pod's resourceVersion: a pod that
// changed in between is decided afresh by the next run. Pure.
import type { ControllerReference } from '../kube/owner-reference.js';
import { matchesLabelSelector, selectorProblems, type LabelSelector } from '../kube/selectors.js';
import type { ObjectRef, Write } from '../reconcile/types.js';
import type { Pod } from './pods.js';

type OwnerReference = { apiVersion?: string; kind?: string; name?: string; uid?: string; controller?: boolean; blockOwnerDeletion?: boolean };

export type ClaimingWorkload = {
  metadata: { name?: string; namespace?: string; uid?: string; deletionTimestamp?: string | null };
  spec: { selector?: LabelSelector | null };
};

export type PodClaims = {
  /** The pods the workload controls once the writes land: its own that still match, and the adopted ones. */
  pods: Pod[];
  writes: Write[];
};

const ownerReferences = (pod: Pod): OwnerReference[] => (pod.metadata.ownerReferences as OwnerReference[] | undefined) ?? [];

export const controllerOf = (pod: Pod): OwnerReference | undefined => ownerReferences(pod).find((o) => o.controller);

/** Pods no controller owns (what ClaimPods may adopt). */
export const orphanPods = (pods: readonly Pod[]): Pod[] => pods.filter((p) => !controllerOf(p));

const namespaceOf = (w: ClaimingWorkload): string | undefined => w.metadata.namespace;

const podRef = (pod: Pod): ObjectRef => ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace });

/** A selector that selects something definite: an invalid or empty one claims nothing. */
function usable(selector: LabelSelector | null | undefined): selector is LabelSelector {
  if (!selector || selectorProblems(selector).length) return false;
  return Object.keys(selector.matchLabels ?? {}).length + (selector.matchExpressions ?? []).length > 0;
}

/**
 * `owned`: the pods whose controller reference names the workload (whatever their labels);
 * `orphans`: pods in its namespace without a controller; `ref`: the reference an adopted pod gets;
 * `what`: how the workload is named in the writes' reasons (e.g. "DaemonSet ds-a").
 */
export function claimPods(workload: ClaimingWorkload, owned: readonly Pod[], orphans: readonly Pod[], ref: ControllerReference, what: string): PodClaims {
  const selector = workload.spec.selector;
  // Validation refuses such a workload; what it holds stays as it is.
  if (!usable(selector)) return { pods: [...owned], writes: [] };
  const deleting = Boolean(workload.metadata.deletionTimestamp);
  const matches = (pod: Pod) => matchesLabelSelector(selector, pod.metadata.labels ?? {});
  const pods: Pod[] = [];
  const writes: Write[] = [];
  for (const pod of owned) {
    if (matches(pod) || deleting) {
      pods.push(pod);
      continue;
    }
    const kept = ownerReferences(pod).filter((o) => o.uid !== workload.metadata.uid);
    writes.push({
      op: 'patch', target: podRef(pod), patchType: 'merge',
      patch: { metadata: { resourceVersion: pod.metadata.resourceVersion, ownerReferences: kept } },
      reason: `${what}: release pod ${pod.metadata.name}, its labels no longer match the selector`,
    });
  }
  if (!deleting) {
    for (const pod of orphans) {
      if (controllerOf(pod) || pod.metadata.deletionTimestamp || !matches(pod)) continue;
      if (namespaceOf(workload) !== undefined && pod.metadata.namespace !== namespaceOf(workload)) continue;
      const adopted = [...ownerReferences(pod), ref];
      writes.push({
        op: 'patch', target: podRef(pod), patchType: 'merge',
        patch: { metadata: { resourceVersion: pod.metadata.resourceVersion, ownerReferences: adopted } },
        reason: `${what}: adopt orphan pod ${pod.metadata.name}, its labels match the selector`,
      });
      pods.push({ ...pod, metadata: { ...pod.metadata, ownerReferences: adopted } });
    }
  }
  return { pods, writes };
}
