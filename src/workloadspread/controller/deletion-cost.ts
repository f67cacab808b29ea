// controller.kubernetes.io/pod-deletion-cost for a WorkloadSpread's pods (../shared/SEMANTICS.md §3.5), so a
// scale-down removes pods from the right subsets first. With n subsets and subset index i: pods
// within maxReplicas (or in an unlimited subset) cost 100·(n−i); the surplus beyond maxReplicas,
// the pods the workload would delete first, cost −100·(i+1); pods in no subset −100·(n+1). Pods
// of older versions see the subsets in reverse order. Only Deployments, ReplicaSets and CloneSets
// honour the annotation.
import { scaledLimit } from '../subset-state.js';
import type { Pod, WorkloadSpread } from '../types.js';
import { groupOf } from '../types.js';
import { podVersion } from '../workloads.js';
import { deletionOrder, isPodActive, subsetOfPod } from './pods.js';

export function honoursDeletionCost(ws: WorkloadSpread): boolean {
  const ref = ws.spec.targetRef;
  const group = groupOf(ref?.apiVersion);
  return (group === 'apps' && (ref?.kind === 'Deployment' || ref?.kind === 'ReplicaSet')) || (group === 'apps.kruise.io' && ref?.kind === 'CloneSet');
}

/**
 * The cost each active pod should carry, by pod name. `latestVersion` is the version key of the
 * workload's current template; undefined treats every version as current.
 */
export function deletionCosts(ws: WorkloadSpread, pods: readonly Pod[], workloadReplicas: number, latestVersion?: string): Map<string, number> {
  const specSubsets = ws.spec.subsets ?? [];
  const n = specSubsets.length;
  const costs = new Map<string, number>();
  const byVersion = new Map<string, Pod[]>();
  for (const pod of pods.filter(isPodActive)) {
    const v = podVersion(pod);
    byVersion.set(v, [...(byVersion.get(v) ?? []), pod]);
  }
  for (const [version, members] of byVersion) {
    const order = latestVersion === undefined || version === latestVersion ? specSubsets : [...specSubsets].reverse();
    order.forEach((subset, i) => {
      const inSubset = members.filter((p) => subsetOfPod(p, ws) === subset.name).sort(deletionOrder);
      const max = scaledLimit(subset.maxReplicas ?? null, workloadReplicas);
      const surplus = max < 0 ? 0 : Math.max(0, inSubset.length - max);
      inSubset.forEach((p, k) => costs.set(p.metadata?.name ?? '', k < surplus ? -100 * (i + 1) : 100 * (n - i)));
    });
    for (const p of members) if (!subsetOfPod(p, ws)) costs.set(p.metadata?.name ?? '', -100 * (n + 1));
  }
  return costs;
}
