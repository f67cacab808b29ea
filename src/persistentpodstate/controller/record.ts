// A PersistentPodState's new status (OpenKruise persistent_pod_state_controller.go, Reconcile): for
// each ready pod bound to a node, the node's values of the topology keys and the pod's values of
// the recorded annotation keys, unless already recorded for that node with the same keys; with
// retention WhenScaled (the default), a recorded pod whose ordinal is outside the replicas (reserved
// ordinals skipped) and that no longer exists is forgotten. No workload, or one being deleted:
// nothing recorded. Pure.
import { isPodReadyCondition, type Pod } from '../../workload/pods.js';
import type { Node } from '../../workload/nodes.js';
import type { PodState } from '../../api/apps/persistentpodstate.js';
import type { StoredPersistentPodState } from '../types.js';

export type Workload = { replicas: number; reserveOrdinals: Set<number>; deleting: boolean };

const sameKeys = (a: Record<string, string> | null | undefined, keys: Set<string>) => {
  const have = Object.keys(a ?? {});
  return have.length === keys.size && have.every((k) => keys.has(k));
};

/** isInStatefulSetReplicas: the first `replicas` ordinals that are not reserved. */
export function inReplicas(index: number, w: Workload): boolean {
  let counted = 0;
  for (let i = 0; counted < w.replicas; i++) {
    if (w.reserveOrdinals.has(i)) continue;
    counted++;
    if (i === index) return true;
  }
  return false;
}

/** strconv.Atoi of what follows the last '-'. */
function ordinalOf(podName: string): number | undefined {
  const text = podName.slice(podName.lastIndexOf('-') + 1);
  return /^[+-]?\d+$/.test(text) ? Number(text) : undefined;
}

export function recordedStatus(pps: StoredPersistentPodState, workload: Workload | undefined, pods: readonly Pod[], nodes: ReadonlyMap<string, Node>): { observedGeneration: number; podStates?: Record<string, PodState> } {
  const observedGeneration = pps.metadata.generation ?? 0;
  if (!workload || workload.deleting) return { observedGeneration };
  const spec = pps.spec ?? {};
  const topologyKeys = new Set([...(spec.requiredPersistentTopology?.nodeTopologyKeys ?? []), ...(spec.preferredPersistentTopology ?? []).flatMap((t) => t.preference?.nodeTopologyKeys ?? [])]);
  const annotationKeys = new Set((spec.persistentPodAnnotations ?? []).map((a) => a.key ?? ''));
  const states: Record<string, PodState> = { ...(pps.status?.podStates ?? {}) };
  for (const pod of pods) {
    const nodeName = pod.spec.nodeName;
    if (!isPodReadyCondition(pod) || !nodeName) continue;
    const old = states[pod.metadata.name];
    if (old && old.nodeName === nodeName && sameKeys(old.nodeTopologyLabels, topologyKeys) && sameKeys(old.annotations, annotationKeys)) continue;
    const node = nodes.get(nodeName);
    if (!node) continue;
    const nodeLabels = node.metadata.labels ?? {};
    const podAnnotations = pod.metadata.annotations ?? {};
    const nodeTopologyLabels: Record<string, string> = {};
    for (const k of [...topologyKeys].sort()) if (k in nodeLabels) nodeTopologyLabels[k] = nodeLabels[k]!;
    const annotations: Record<string, string> = {};
    for (const k of [...annotationKeys].sort()) if (k in podAnnotations) annotations[k] = podAnnotations[k]!;
    states[pod.metadata.name] = { nodeName, nodeTopologyLabels, annotations };
  }
  if (spec.persistentPodStateRetentionPolicy !== 'WhenDeleted') {
    const live = new Set(pods.map((p) => p.metadata.name));
    for (const name of Object.keys(states)) {
      const index = ordinalOf(name);
      if (index === undefined || inReplicas(index, workload)) continue;
      if (!live.has(name)) delete states[name];
    }
  }
  return { observedGeneration, podStates: states };
}
