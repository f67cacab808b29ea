// Which PUB protects a pod (../shared/SEMANTICS.md §4.3): resolve the pod's workload through its controller
// owner — a ReplicaSet counts as its own controller (a Deployment, or any other kind: Argo
// Rollouts, kruise#2571) — then take the first PUB of the namespace, in list order, whose
// targetRef names that workload, or, for PUBs without targetRef or pods without a resolvable
// workload, whose non-empty selector matches the pod's labels. The webhook, the controller's
// back-fill and the budget source share this. Pure.
//
// Differences from OpenKruise (§4.3), all towards protecting more: the final workload's existence
// is not checked (only the ReplicaSet hop needs an object), and a ReplicaSet owned by a kind other
// than Deployment resolves to that owner instead of to the ReplicaSet.
import { inferredDeployment } from '../kube/deployment-owner.js';
import { compileSelector, selectorMatches } from '../kube/selectors.js';
import { parseGroup } from './validate.js';
import type { PodUnavailableBudget } from './types.js';

export type OwnerReference = { apiVersion?: string; kind?: string; name?: string; uid?: string; controller?: boolean };
export type Owned = { metadata?: { name?: string; namespace?: string; ownerReferences?: OwnerReference[] } };
export type PodLike = Owned & { metadata?: { labels?: Record<string, string> } };

/** A workload as a PUB targetRef names it: group (from apiVersion), kind and name. */
export type WorkloadRef = { group: string; kind: string; name: string };

const controllerOf = (o: Owned): OwnerReference | undefined => o.metadata?.ownerReferences?.find((r) => r.controller === true);

function refOf(owner: OwnerReference): WorkloadRef | undefined {
  const g = parseGroup(owner.apiVersion ?? '');
  if ('error' in g || !owner.kind || !owner.name) return undefined;
  return { group: g.group, kind: owner.kind, name: owner.name };
}

/**
 * The pod's workload, or undefined (no controller; a ReplicaSet not in `replicaSets` whose
 * Deployment cannot be inferred from its name). `replicaSets` holds the ReplicaSets of the pod's
 * namespace by name.
 */
export function podWorkload(pod: PodLike, replicaSets: ReadonlyMap<string, Owned>): WorkloadRef | undefined {
  const owner = controllerOf(pod);
  if (!owner) return undefined;
  const ref = refOf(owner);
  if (!ref || !(ref.group === 'apps' && ref.kind === 'ReplicaSet')) return ref;
  const rs = replicaSets.get(ref.name);
  if (!rs) {
    const deployment = inferredDeployment(owner, pod.metadata?.labels);
    return deployment ? refOf(deployment) : undefined;
  }
  const rsOwner = controllerOf(rs);
  return (rsOwner && refOf(rsOwner)) ?? ref;
}

function targetsWorkload(pub: PodUnavailableBudget, w: WorkloadRef): boolean {
  const ref = pub.spec?.targetRef;
  if (!ref) return false;
  const g = parseGroup(ref.apiVersion ?? '');
  return 'group' in g && g.group === w.group && ref.kind === w.kind && ref.name === w.name;
}

function selectsPod(pub: PodUnavailableBudget, labels: Readonly<Record<string, string>>): boolean {
  const sel = pub.spec?.selector;
  if (!sel || Object.keys(sel.matchLabels ?? {}).length + (sel.matchExpressions ?? []).length === 0) return false;
  return selectorMatches(compileSelector(sel as Parameters<typeof compileSelector>[0]), labels);
}

/** Whether `pub` covers the pod whose workload is `workload` (undefined: none resolved). */
export function pubCoversPod(pub: PodUnavailableBudget, pod: PodLike, workload: WorkloadRef | undefined): boolean {
  if (pub.spec?.targetRef && workload) return targetsWorkload(pub, workload);
  return selectsPod(pub, pod.metadata?.labels ?? {});
}

/** The first PUB of the pod's namespace (list order) covering it. */
export function relatedPub(pod: PodLike, pubs: readonly PodUnavailableBudget[], workload: WorkloadRef | undefined): PodUnavailableBudget | undefined {
  const ns = pod.metadata?.namespace;
  return pubs.find((p) => p.metadata?.namespace === ns && pubCoversPod(p, pod, workload));
}

/** ReplicaSets of one namespace, by name, for podWorkload. */
export function replicaSetsIn(namespace: string, all: readonly Owned[]): Map<string, Owned> {
  return new Map(all.filter((r) => r.metadata?.namespace === namespace).map((r) => [r.metadata?.name ?? '', r]));
}
