// Pods that existed before their WorkloadSpread carry no matched-workloadspread annotation: the
// controller puts each scheduled one into the subset its node fits best and patches the
// annotation (with the subset patch's metadata unless the WorkloadSpread says not to), as
// OpenKruise's getAndUpdateSuitableSubsetName does. Pure: the pods as adopted and the patches.
import { nodeMatchesSelectorTerms, toleratesTaint } from '../../workload/node-eligibility.js';
import type { Node, NodeSelectorTerm, Toleration } from '../../workload/nodes.js';
import { isRecord } from '../../kube/validation.js';
import { formatMatchedWorkloadSpread, parseMatchedWorkloadSpread } from '../inject.js';
import { scaledLimit } from '../subset-state.js';
import { strategicMergePod } from '../strategic-merge.js';
import { MATCHED_WORKLOADSPREAD_ANNOTATION, type Pod, type WorkloadSpread, type WorkloadSpreadSubset } from '../types.js';
import { podVersion } from '../workloads.js';

/** `"true"` (any case) on the WorkloadSpread: adopted pods get only the annotation, not the subset patch's metadata. */
export const IGNORE_PATCH_EXISTING_PODS_ANNOTATION = 'workloadspread.kruise.io/ignore-patch-existing-pods-metadata';

export type Adoption = { pod: string; subset: string; patch: { metadata: Record<string, unknown> } };
export type Adopted = { pods: Pod[]; adoptions: Adoption[] };

const MAX_INT32 = 2 ** 31 - 1;

/** Whether the pod names this WorkloadSpread and a subset (OpenKruise's !isNotMatchedWS). */
function placedBy(pod: Pod, ws: WorkloadSpread): boolean {
  const m = parseMatchedWorkloadSpread(pod);
  return m !== undefined && m.name === ws.metadata?.name && m.subset !== '';
}

type PodScheduling = { tolerations?: Toleration[]; affinity?: { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] } } } };

/** The pod's tolerations with the subset's tolerate the node's taints, and its required terms narrowed by the subset's match it. */
function fitsRequired(pod: Pod, node: Node, subset: WorkloadSpreadSubset): boolean {
  const spec = (pod.spec ?? {}) as PodScheduling;
  const tolerations = [...(spec.tolerations ?? []), ...((subset.tolerations ?? []) as Toleration[])];
  if ((node.spec?.taints ?? []).some((taint) => !tolerations.some((t) => toleratesTaint(t, taint)))) return false;
  const required = subset.requiredNodeSelectorTerm as NodeSelectorTerm | undefined;
  if (!required) return true;
  const own = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const terms = own.length
    ? own.map((t) => ({
        matchExpressions: [...(t.matchExpressions ?? []), ...(required.matchExpressions ?? [])],
        matchFields: [...(t.matchFields ?? []), ...(required.matchFields ?? [])],
      }))
    : [required];
  return nodeMatchesSelectorTerms(node, terms);
}

/** JSON with sorted keys, to compare a pod with the pod the subset's patch would make of it. */
function canonical(v: unknown): string {
  if (v instanceof Date) return JSON.stringify(v.toISOString());
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isRecord(v)) {
    return `{${Object.keys(v).filter((k) => v[k] !== undefined && v[k] !== null).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** 1 when applying the subset's patch leaves the pod as it is (annotations aside), else 0. */
function podPreferredScore(pod: Pod, subset: WorkloadSpreadSubset): number {
  const merged = strategicMergePod(pod as unknown as Record<string, unknown>, subset.patch);
  if (!merged.ok) return 0;
  const patched = merged.value as Pod;
  const metadata = { ...patched.metadata, annotations: pod.metadata?.annotations };
  return canonical({ ...patched, metadata }) === canonical(pod) ? 1 : 0;
}

/** OpenKruise matchesSubset: preferred node weight ×100, pod already as the patch makes it ×10, room left ×1; −1 when it does not fit. */
export function subsetScore(pod: Pod, node: Node, subset: WorkloadSpreadSubset, missing: number): number {
  if (!fitsRequired(pod, node, subset)) return -1;
  const preferred = ((subset.preferredNodeSelectorTerms ?? []) as { weight: number; preference: NodeSelectorTerm }[])
    .filter((t) => nodeMatchesSelectorTerms(node, [t.preference]))
    .reduce((sum, t) => sum + t.weight, 0);
  const podScore = subset.patch === undefined || subset.patch === null ? 0 : podPreferredScore(pod, subset);
  return preferred * 100 + podScore * 10 + (missing > 0 ? 1 : 0);
}

/** The metadata patch OpenKruise's patchFavoriteSubsetMetadataToPod sends (strategic merge). */
export function adoptionPatch(ws: WorkloadSpread, subset: WorkloadSpreadSubset): { metadata: Record<string, unknown> } {
  const ignore = ws.metadata?.annotations?.[IGNORE_PATCH_EXISTING_PODS_ANNOTATION]?.toLowerCase() === 'true';
  const fromPatch = !ignore && isRecord(subset.patch) && isRecord(subset.patch.metadata) ? structuredClone(subset.patch.metadata) : {};
  const annotations = isRecord(fromPatch.annotations) ? fromPatch.annotations : {};
  annotations[MATCHED_WORKLOADSPREAD_ANNOTATION] = formatMatchedWorkloadSpread({ name: ws.metadata?.name ?? '', subset: subset.name });
  return { metadata: { ...fromPatch, annotations } };
}

function withMetadata(pod: Pod, metadata: Record<string, unknown>): Pod {
  const labels = isRecord(metadata.labels) ? (metadata.labels as Record<string, string>) : {};
  const annotations = metadata.annotations as Record<string, string>;
  return { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata?.labels, ...labels }, annotations: { ...pod.metadata?.annotations, ...annotations } } };
}

/**
 * Every pod not placed by `ws` that runs on a known node, put into its best-scoring subset (the
 * first on a tie), per version as OpenKruise groups them: room is counted from the pods already
 * placed and each adoption takes one. Pods that fit no subset stay as they are.
 */
export function adoptExistingPods(ws: WorkloadSpread, pods: readonly Pod[], workloadReplicas: number, nodes: ReadonlyMap<string, Node>): Adopted {
  const subsets = ws.spec.subsets ?? [];
  const missingByVersion = new Map<string, Map<string, number>>();
  const missingOf = (version: string) => {
    let m = missingByVersion.get(version);
    if (!m) {
      m = new Map(subsets.map((s) => [s.name, scaledLimit(s.maxReplicas ?? MAX_INT32, workloadReplicas)]));
      for (const p of pods) {
        const subset = parseMatchedWorkloadSpread(p)?.subset ?? '';
        if (podVersion(p) === version && placedBy(p, ws) && m.has(subset)) m.set(subset, m.get(subset)! - 1);
      }
      missingByVersion.set(version, m);
    }
    return m;
  };
  const adoptions: Adoption[] = [];
  const out = pods.map((pod) => {
    const node = pod.spec?.nodeName ? nodes.get(pod.spec.nodeName) : undefined;
    if (placedBy(pod, ws) || !node || !subsets.length) return pod;
    const missing = missingOf(podVersion(pod));
    let best: WorkloadSpreadSubset | undefined;
    let bestScore = -1;
    for (const s of subsets) {
      const score = subsetScore(pod, node, s, missing.get(s.name) ?? 0);
      if (score > bestScore) [best, bestScore] = [s, score];
    }
    if (!best) return pod;
    missing.set(best.name, (missing.get(best.name) ?? 0) - 1);
    const patch = adoptionPatch(ws, best);
    adoptions.push({ pod: pod.metadata?.name ?? '', subset: best.name, patch });
    return withMetadata(pod, patch.metadata);
  });
  return { pods: out, adoptions };
}
