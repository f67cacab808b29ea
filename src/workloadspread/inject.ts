// Puts a pod into a subset (../shared/SEMANTICS.md §3.3 step 4): tolerations, node affinity terms, the
// subset's strategic merge patch, and the matched-workloadspread annotation. Pure: returns a new
// pod, or the patch error that fails the request.
import { goString } from '../kube/go-json.js';
import { isRecord } from '../kube/validation.js';
import { strategicMergePod } from './strategic-merge.js';
import { MATCHED_WORKLOADSPREAD_ANNOTATION, type MatchedWorkloadSpread, type Pod, type WorkloadSpread } from './types.js';

export type InjectResult = { ok: true; pod: Pod } | { ok: false; error: string };

/** The annotation value exactly as Go's json.Marshal writes OpenKruise's InjectWorkloadSpread. */
export function formatMatchedWorkloadSpread(m: MatchedWorkloadSpread): string {
  return `{"name":${goString(m.name)},"subset":${goString(m.subset)}${m.uid ? `,"uid":${goString(m.uid)}` : ''}}`;
}

/** The parsed annotation, or undefined when absent or not JSON with a string name and subset. */
export function parseMatchedWorkloadSpread(pod: { metadata?: { annotations?: Record<string, string> } }): MatchedWorkloadSpread | undefined {
  const raw = pod.metadata?.annotations?.[MATCHED_WORKLOADSPREAD_ANNOTATION];
  if (!raw) return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    if (!isRecord(v)) return undefined;
    const str = (x: unknown) => (typeof x === 'string' ? x : '');
    return { name: str(v.name), subset: str(v.subset), ...(str(v.uid) ? { uid: str(v.uid) } : {}) };
  } catch {
    return undefined;
  }
}

export function injectSubset(pod: Pod, ws: WorkloadSpread, subsetName: string, generatedKey?: string): InjectResult {
  const subset = ws.spec.subsets.find((s) => s.name === subsetName);
  // A subset missing from spec (status lags a spec edit) injects nothing (§3.3 step 4).
  if (!subset) return { ok: true, pod };
  let out: Pod = structuredClone(pod);
  const spec = (out.spec ??= { containers: [] });
  if (subset.tolerations?.length) spec.tolerations = [...(spec.tolerations ?? []), ...structuredClone(subset.tolerations)];
  // OpenKruise creates affinity and nodeAffinity even when the subset has no terms.
  const nodeAffinity = ((spec.affinity ??= {}).nodeAffinity ??= {});
  if (subset.preferredNodeSelectorTerms?.length) {
    nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution = [
      ...(nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution ?? []),
      ...structuredClone(subset.preferredNodeSelectorTerms),
    ];
  }
  const required = subset.requiredNodeSelectorTerm;
  if (required) {
    const selector = (nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution ??= { nodeSelectorTerms: [] });
    if (!selector.nodeSelectorTerms?.length) selector.nodeSelectorTerms = [structuredClone(required)];
    else {
      // Every existing term gets the subset's requirements: the terms are ORed, so each must narrow.
      for (const term of selector.nodeSelectorTerms) {
        if (required.matchExpressions?.length) term.matchExpressions = [...(term.matchExpressions ?? []), ...structuredClone(required.matchExpressions)];
        if (required.matchFields?.length) term.matchFields = [...(term.matchFields ?? []), ...structuredClone(required.matchFields)];
      }
    }
  }
  if (subset.patch !== undefined && subset.patch !== null) {
    const merged = strategicMergePod(out as unknown as Record<string, unknown>, subset.patch);
    if (!merged.ok) return { ok: false, error: `failed to apply the patch of subset ${subsetName}: ${merged.error}` };
    const patched = merged.value as Pod;
    // Priority was resolved from the old class by the API server already; a changed class must be
    // resolved again, or the pod is refused for the mismatch.
    if (patched.spec?.priorityClassName !== out.spec?.priorityClassName && patched.spec) delete patched.spec.priority;
    out = patched;
  }
  const metadata = (out.metadata ??= {});
  metadata.labels ??= {};
  metadata.annotations = {
    ...metadata.annotations,
    [MATCHED_WORKLOADSPREAD_ANNOTATION]: formatMatchedWorkloadSpread({ name: ws.metadata?.name ?? '', subset: subsetName, ...(generatedKey ? { uid: generatedKey } : {}) }),
  };
  return { ok: true, pod: out };
}
