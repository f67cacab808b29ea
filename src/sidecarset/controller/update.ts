// Rolling in-place upgrade of sidecars (pkg/controller/sidecarset/sidecarset_strategy.go
// GetNextUpgradePods / calculateUpgradeCount, sidecarset_processor.go updatePodSidecarContainer /
// updatePodSidecarAndHash). Only images can change in a running pod, so a pod is upgraded in place
// only when its without-image hash equals the set's; otherwise it is "not upgradable" and skipped
// (the pod must be recreated to get the new sidecars). Pure.
import type { Write } from '../../reconcile/types.js';
import { compileSelector, selectorMatches } from '../../kube/selectors.js';
import { INPLACE_UPDATE_STATE_ANNOTATION } from '../../workload/sidecar-update-state.js';
import { type SidecarSet } from '../types.js';
import { patchPodMetadata, withInPlaceUpdateState, withUpdatedHashEntry } from './annotations.js';
import type { DisruptionBudget } from '../../workload/disruption.js';
import { applyHotUpgradeSwap } from './hotupgrade.js';
import { sortUpdateOrder } from './order.js';
import {
  isHotUpgradeContainer,
  isPodReadyForSet,
  isPodSidecarUpdated,
  isPodStateConsistent,
  setName,
  sidecarSetUpgradability,
} from './pod-state.js';
import { findContainer, podKey, type Pod } from '../../workload/pods.js';
import { partitionReplicas, scaledValue } from '../../kube/intstr.js';

/** maxUnavailable: 1 when unset; a percentage of the matching pods, rounded up; unusable ⇒ 0. */
export function maxUnavailableOf(set: SidecarSet, total: number): number {
  const v = set.spec?.updateStrategy?.maxUnavailable;
  if (v === undefined || v === null) return 1;
  const n = scaledValue(v, total, true);
  return typeof n === 'number' ? n : 0;
}

export type UpgradeSelection = {
  /** Pods to update in place now, in update order. */
  upgrade: Pod[];
  /** Pods whose sidecars changed beyond images: they cannot be updated in place. */
  notUpgradable: Pod[];
  /** Pods next in line that their PodUnavailableBudget does not let go now. */
  blocked: { pod: Pod; reason: string }[];
};

/**
 * GetNextUpgradePods: among the matching pods, those not yet updated, selected by
 * updateStrategy.selector and upgradable with their last update complete, in update order; minus
 * `partition` of them (the last in order); then as many as maxUnavailable allows, counting pods
 * already updated but not yet consistent or ready. A pod that is not ready costs nothing (it is
 * unavailable anyway). Each pod must also get past `budget`; a refused pod is skipped without
 * taking a slot.
 */
export function selectPodsToUpgrade(set: SidecarSet, pods: readonly Pod[], budget: DisruptionBudget): UpgradeSelection {
  const strategy = set.spec?.updateStrategy ?? {};
  const selector = strategy.selector ? compileSelector(strategy.selector) : undefined;
  const isSelected = (pod: Pod) => !selector || selectorMatches(selector, pod.metadata.labels ?? {});

  const waiting: number[] = [];
  const notUpgradable: Pod[] = [];
  pods.forEach((pod, i) => {
    if (isPodSidecarUpdated(set, pod) || !isSelected(pod)) return;
    const { canUpgrade, consistent } = sidecarSetUpgradability(set, pod);
    if (canUpgrade && consistent) waiting.push(i);
    else if (!canUpgrade) notUpgradable.push(pod);
  });

  let order = sortUpdateOrder(strategy, pods, waiting);
  const partition = partitionReplicas(strategy.partition, pods.length);
  if (order.length - partition <= 0) return { upgrade: [], notUpgradable, blocked: [] };
  order = order.slice(0, order.length - partition);

  const maxUnavailable = maxUnavailableOf(set, pods.length);
  let unavailable = pods.filter((p) => isPodSidecarUpdated(set, p) && (!isPodStateConsistent(set, p) || !isPodReadyForSet(set, p))).length;
  const upgrade: Pod[] = [];
  const blocked: UpgradeSelection['blocked'] = [];
  for (const i of order) {
    const pod = pods[i]!;
    const ready = isPodReadyForSet(set, pod);
    if (ready && unavailable >= maxUnavailable) break;
    const verdict = budget.requestUpdate(pod);
    if (!verdict.allowed) {
      blocked.push({ pod, reason: verdict.reason });
      continue;
    }
    if (ready) unavailable += 1;
    upgrade.push(pod);
  }
  return { upgrade, notUpgradable, blocked };
}

/**
 * updatePodSidecarContainer + updatePodSidecarAndHash on a copy of the pod: every sidecar whose
 * image differs takes the set's image (a HotUpgrade sidecar swaps, hotupgrade.ts), the hash entry
 * records the set's hash and `latestRevision`, the in-place update state records the imageIDs of
 * the changed containers, and patchPodMetadata is applied again.
 */
export function upgradePod(set: SidecarSet, pod: Pod, latestRevision: string, now: Date): { draft: Pod; changed: string[] } | { error: string } {
  const draft = structuredClone(pod);
  const changed: string[] = [];
  for (const sidecar of set.spec?.containers ?? []) {
    if (isHotUpgradeContainer(sidecar)) {
      const name = applyHotUpgradeSwap(set, sidecar, draft);
      if (name) changed.push(name);
      continue;
    }
    const container = findContainer(draft, sidecar.name);
    if (!container || container.image === sidecar.image) continue;
    container.image = sidecar.image ?? '';
    changed.push(container.name);
  }
  const annotations = { ...(draft.metadata.annotations ?? {}), ...withUpdatedHashEntry(draft.metadata.annotations ?? {}, set, latestRevision, now) };
  draft.metadata.annotations = annotations;
  annotations[INPLACE_UPDATE_STATE_ANNOTATION] = withInPlaceUpdateState(draft, set, changed, now);
  const patched = patchPodMetadata(annotations, set.spec?.patchPodMetadata);
  if ('error' in patched) return { error: `sidecarset ${JSON.stringify(setName(set))}: spec.patchPodMetadata: ${patched.error}` };
  draft.metadata.annotations = patched.annotations;
  return { draft, changed };
}

/**
 * The write turning `pod` into `draft`: a strategic merge patch of the changed annotations and
 * container images (containers merge by name), with the pod's resourceVersion as precondition.
 */
export function podPatch(pod: Pod, draft: Pod, reason: string): Write {
  const annotations: Record<string, string> = {};
  for (const [k, v] of Object.entries(draft.metadata.annotations ?? {})) if (pod.metadata.annotations?.[k] !== v) annotations[k] = v;
  const containers = draft.spec.containers
    .filter((c) => findContainer(pod, c.name)?.image !== c.image)
    .map((c) => ({ name: c.name, image: c.image }));
  return {
    op: 'patch',
    target: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace },
    patchType: 'strategic',
    patch: {
      metadata: { resourceVersion: pod.metadata.resourceVersion, ...(Object.keys(annotations).length ? { annotations } : {}) },
      ...(containers.length ? { spec: { containers } } : {}),
    },
    reason,
  };
}

/** `ns/a, ns/b` (at most `max` names, then a count). */
export function podList(pods: readonly Pod[], max = 10): string {
  const names = pods.slice(0, max).map(podKey);
  return pods.length > max ? `${names.join(', ')} and ${pods.length - max} more` : names.join(', ');
}
