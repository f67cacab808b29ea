// In which order a SidecarSet updates its pods (SortUpdateIndexes in
// pkg/controller/sidecarset/sidecarset_strategy.go): the shared orders of src/workload/order.ts,
// ActivePods first, then priority, then scatter. Pure.
import type { SidecarSet } from '../types.js';
import type { Pod } from '../../workload/pods.js';
import { activePodsLess, byLess, expandScatterTerms, scatter, sortByPriority } from '../../workload/order.js';

/** SortUpdateIndexes: ActivePods order, then priority, then scatter. */
export function sortUpdateOrder(strategy: NonNullable<SidecarSet['spec']['updateStrategy']>, pods: readonly Pod[], indexes: readonly number[]): number[] {
  let out = [...indexes].sort(byLess((i, j) => activePodsLess(pods[i]!, pods[j]!)));
  out = sortByPriority(strategy.priorityStrategy, pods, out);
  if (strategy.scatterStrategy) out = scatter(expandScatterTerms(strategy.scatterStrategy, pods), pods, out);
  return out;
}
