// `daemonset.kruise.io/progressive-create-pod: "true"` (v1alpha1; v1beta1's
// spec.scaleStrategy.partitionedScaling): the pods a RollingUpdate DaemonSet with a non-zero
// partition creates are held by that partition too (OpenKruise's manage → GetNodesNeedingPods):
// at most desired − new − partition are created, on the first nodes by name, where `desired` is
// the nodes that should run a pod and `new` those already running an updated one. The partition is
// scaled against the recorded status.desiredNumberScheduled, rounded down, as upstream does.
// Pure.
import { kruiseScaledValue } from '../../kube/intstr.js';
import type { StoredDaemonSet as DaemonSet } from '../types.js';

export const PROGRESSIVE_CREATE_POD_ANNOTATION = 'daemonset.kruise.io/progressive-create-pod';

export type CreationCounts = { desired: number; updated: number };

/** The partition that holds creations back, or undefined when creations are not held. */
function holdingPartition(ds: DaemonSet): number | undefined {
  if (ds.metadata?.annotations?.[PROGRESSIVE_CREATE_POD_ANNOTATION] !== 'true') return undefined;
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
