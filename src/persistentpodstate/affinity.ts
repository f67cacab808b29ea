// What the pod webhook adds to a recreated pod (OpenKruise persistentPodStateMutatingPod and
// createNodeAffinity): the recorded values of requiredPersistentTopology's keys as nodeSelector
// entries, one preferred node affinity term per preferredPersistentTopology entry (In the
// recorded value of each key), and the annotation naming the PersistentPodState. A pod with no
// recorded topology labels is left alone (first creation). Pure.
import type { PersistentPodStateSpec, PodState } from '../api/apps/persistentpodstate.js';
import { INJECTED_ANNOTATION, sameTarget, isSupportedTarget, type StoredPersistentPodState } from './types.js';

type OwnerReference = { apiVersion?: string; kind?: string; name?: string; controller?: boolean };
export type PodLike = {
  metadata?: { name?: string; namespace?: string; annotations?: Record<string, string> | null; ownerReferences?: OwnerReference[] | null; [k: string]: unknown };
  spec?: { nodeSelector?: Record<string, string> | null; affinity?: { nodeAffinity?: { preferredDuringSchedulingIgnoredDuringExecution?: unknown[] | null; [k: string]: unknown } | null; [k: string]: unknown } | null; [k: string]: unknown };
  [k: string]: unknown;
};

type Preferred = { weight: number; preference: { matchExpressions?: { key: string; operator: 'In'; values: string[] }[] } };

export function nodeAffinityFor(spec: PersistentPodStateSpec, state: PodState): { nodeSelector?: Record<string, string>; preferred: Preferred[] } {
  const labels = state.nodeTopologyLabels ?? {};
  let nodeSelector: Record<string, string> | undefined;
  if (spec.requiredPersistentTopology) {
    nodeSelector = {};
    for (const key of spec.requiredPersistentTopology.nodeTopologyKeys ?? []) if (key in labels) nodeSelector[key] = labels[key]!;
  }
  const preferred = (spec.preferredPersistentTopology ?? []).map((item) => {
    const matchExpressions = (item.preference?.nodeTopologyKeys ?? []).filter((key) => key in labels).map((key) => ({ key, operator: 'In' as const, values: [labels[key]!] }));
    return { weight: item.weight ?? 0, preference: matchExpressions.length ? { matchExpressions } : {} };
  });
  return { ...(nodeSelector ? { nodeSelector } : {}), preferred };
}

/** The PersistentPodState of the pod's controller in its namespace, if any (SelectorPersistentPodState). */
export function persistentPodStateFor(pod: PodLike, namespace: string, all: readonly StoredPersistentPodState[]): StoredPersistentPodState | undefined {
  const owner = (pod.metadata?.ownerReferences ?? []).find((o) => o?.controller === true);
  if (!owner || !isSupportedTarget(owner.apiVersion, owner.kind)) return undefined;
  return all.find((p) => p.metadata.namespace === namespace && !p.metadata.deletionTimestamp && sameTarget(owner, p.spec?.targetRef));
}

export function steeredPod(pod: PodLike, pps: StoredPersistentPodState): PodLike | undefined {
  const state = pps.status?.podStates?.[pod.metadata?.name ?? ''];
  if (!state || !Object.keys(state.nodeTopologyLabels ?? {}).length || !pps.spec) return undefined;
  const { nodeSelector, preferred } = nodeAffinityFor(pps.spec, state);
  if (!Object.keys(nodeSelector ?? {}).length && !preferred.length) return undefined;
  const out = structuredClone(pod);
  const meta = (out.metadata ??= {});
  meta.annotations = { ...(meta.annotations ?? {}), [INJECTED_ANNOTATION]: pps.metadata.name };
  const spec = (out.spec ??= {});
  if (nodeSelector && Object.keys(nodeSelector).length) spec.nodeSelector = { ...(spec.nodeSelector ?? {}), ...nodeSelector };
  if (preferred.length) {
    const affinity = (spec.affinity ??= {});
    const nodeAffinity = (affinity.nodeAffinity ??= {});
    nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution = [...(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution ?? []), ...preferred];
  }
  return out;
}
