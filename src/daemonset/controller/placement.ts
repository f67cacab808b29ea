// Where a DaemonSet's pods are and should be (OpenKruise's getNodesToDaemonPods and
// nodeShouldRunDaemonPod, with Kubernetes' daemon util): the node each pod is bound or pinned
// to, the order pods of one node are compared in, and whether each node should run the pod. Pure.
import { daemonNodeEligibility } from '../../workload/node-eligibility.js';
import type { Node, SchedulingSpec } from '../../workload/nodes.js';
import { targetNodeName } from '../../workload/node-pinning.js';
import { timeOf, type Pod } from '../../workload/pods.js';
import type { StoredDaemonSet as DaemonSet } from '../types.js';

export type NodeEligibility = { shouldRun: boolean; shouldContinueRunning: boolean; reason?: string };

/** nodeShouldRunDaemonPod: the template's nodeName, nodeSelector, required affinity and taints (with the daemon tolerations). */
export function nodeEligibility(node: Node, ds: DaemonSet): NodeEligibility {
  return daemonNodeEligibility(node, (ds.spec.template?.spec ?? {}) as SchedulingSpec);
}

/** The DaemonSet's pods by target node; pods with none are returned apart. */
export function podsByNode(pods: readonly Pod[]): { byNode: Map<string, Pod[]>; unplaced: Pod[] } {
  const byNode = new Map<string, Pod[]>();
  const unplaced: Pod[] = [];
  for (const pod of pods) {
    const node = targetNodeName(pod);
    if (node === undefined) unplaced.push(pod);
    else byNode.set(node, [...(byNode.get(node) ?? []), pod]);
  }
  return { byNode, unplaced };
}

/** podByCreationTimestampAndPhase: bound pods first, then older first, then by name. */
export function podOrder(a: Pod, b: Pod): number {
  const boundA = Boolean(a.spec.nodeName);
  const boundB = Boolean(b.spec.nodeName);
  if (boundA !== boundB) return boundA ? -1 : 1;
  const ta = timeOf(a.metadata.creationTimestamp);
  const tb = timeOf(b.metadata.creationTimestamp);
  if (ta !== tb) return ta - tb;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

/** findUpdatedPodsOnNode: the node's one new and one old pod (terminating ones ignored); ok false when there are more. */
export function updatedPodsOnNode(pods: readonly Pod[], isUpdated: (p: Pod) => boolean): { newPod?: Pod; oldPod?: Pod; ok: boolean } {
  let newPod: Pod | undefined;
  let oldPod: Pod | undefined;
  for (const pod of pods) {
    if (pod.metadata.deletionTimestamp) continue;
    if (isUpdated(pod)) {
      if (newPod) return { ok: false };
      newPod = pod;
    } else {
      if (oldPod) return { ok: false };
      oldPod = pod;
    }
  }
  return { ...(newPod ? { newPod } : {}), ...(oldPod ? { oldPod } : {}), ok: true };
}
