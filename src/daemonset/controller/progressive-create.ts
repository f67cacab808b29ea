// v1beta1's spec.scaleStrategy.partitionedScaling, or v1alpha1's
// `daemonset.kruise.io/progressive-create-pod: "true"`: the pods a RollingUpdate DaemonSet with a non-zero
// partition creates are held by that partition too (OpenKruise's manage → GetNodesNeedingPods):
// at most desired − new − partition are created, on the first nodes by name, where `desired` is
// the nodes that should run a pod and `new` those already running an updated one. The partition is
// scaled against the recorded status.desiredNumberScheduled, rounded down, as upstream does.
// Pure.
import { kruiseScaledValue } from '../../kube/intstr.js';
import type { StoredDaemonSet as DaemonSet } from '../types.js';

export const PROGRESSIVE_CREATE_POD_ANNOTATION = 'daemonset.kruise.io/progressive-create-pod';

export type CreationCounts = { desired: number; updated: number };

/**
 * OpenKruise 1.9's isDaemonSetCreationProgressively: v1beta1's scaleStrategy.partitionedScaling,
 * which its conversion writes as the annotation on v1alpha1 (and the annotation reads as the field).
 */
export function isCreationProgressive(ds: DaemonSet): boolean {
  const scale = (ds.spec as { scaleStrategy?: { partitionedScaling?: unknown } | null }).scaleStrategy;
  return scale?.partitionedScaling === true || ds.metadata?.annotations?.[PROGRESSIVE_CREATE_POD_ANNOTATION] === 'true';
}

/** The partition that holds creations back, or undefined when creations are not held. */
function holdingPartition(ds: DaemonSet): number | undefined {
  if (!isCreationProgressive(ds)) return undefined;
  const rolling = ds.spec.updateStrategy?.type === 'RollingUpdate' ? ds.spec.updateStrategy.rollingUpdate : undefined;
  if (rolling?.partition === undefined || rolling.partition === null) return undefined;
  const scaled = kruiseScaledValue(rolling.partition, ds.status?.desiredNumberScheduled ?? 0, false);
  // An unparsable partition: upstream logs it and creates on every node.
  return typeof scaled === 'number' && scaled !== 0 ? scaled : undefined;
}

/** GetNodesNeedingPods: the nodes to create on, sorted by name. */
export function nodesToCreateOn(ds: DaemonSet, needing: readonly string[], counts: CreationCounts): string[] {
  const sorted = [...needing].sort();
  const partition = holdingPartition(ds);
  if (partition === undefined) return sorted;
  const held = Math.max(Math.min(partition, counts.desired), 0);
  return sorted.slice(0, Math.max(counts.desired - counts.updated - held, 0));
}
