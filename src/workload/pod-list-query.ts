// The pod LIST one run needs: the workloads' namespace when they share one, and, for a run about
// a single workload, also that workload's selector, so the API server sends (and we parse) its pods
// only rather than every pod of its kind in the namespace. Pure.
import { compileSelector, formatLabelSelector, selectorMatches, selectorProblems, type CompiledSelector, type LabelSelector } from '../kube/selectors.js';

type Selected = { metadata: { namespace?: string; uid?: string }; spec: { selector?: unknown } };

/** The selector as requirements, or undefined when it cannot narrow a LIST (empty, missing or invalid). */
function narrowing(selector: unknown): CompiledSelector | undefined {
  const sel = selector as LabelSelector | null | undefined;
  if (!sel || selectorProblems(sel).length > 0) return undefined;
  const compiled = compileSelector(sel);
  return compiled.kind === 'requirements' ? compiled : undefined;
}

export type PodListQuery = { namespace?: string; labelSelector?: string };

/**
 * `requiredLabel`: a label every pod of this kind carries (e.g. the CloneSet instance id), always
 * selected; `narrow`: false to leave out the workload's selector.
 */
export function podListQuery(workloads: readonly Selected[], requiredLabel?: string, narrow = true): PodListQuery {
  const namespaces = [...new Set(workloads.map((w) => w.metadata.namespace ?? ''))];
  const namespace = namespaces.length === 1 && namespaces[0] ? { namespace: namespaces[0] } : {};
  const only = narrow && workloads.length === 1 ? workloads[0]!.spec.selector : undefined;
  const selector = narrowing(only) ? formatLabelSelector(only as LabelSelector) : undefined;
  const labelSelector = [requiredLabel, selector].filter(Boolean).join(',');
  return { ...namespace, ...(labelSelector ? { labelSelector } : {}) };
}

/**
 * Each workload's pods (by its uid) less those its selector no longer matches (a pod relabelled
 * out of it), so that a run reading the narrowed LIST and a run reading them all count the same
 * pods. Pods are never dropped for a selector that cannot narrow a LIST.
 */
export function selectedPods<P extends { metadata: { labels?: Record<string, string> } }>(workloads: readonly Selected[], byOwner: Map<string, P[]>): Map<string, P[]> {
  const out = new Map(byOwner);
  for (const w of workloads) {
    const pods = byOwner.get(w.metadata.uid ?? '');
    if (pods) out.set(w.metadata.uid ?? '', pods.filter(stillSelected(w.spec.selector)));
  }
  return out;
}

/** Whether a pod still carries the labels `selector` matches; always true for a selector that cannot narrow a LIST. */
export function stillSelected(selector: unknown): (pod: { metadata: { labels?: Record<string, string> } }) => boolean {
  const sel = narrowing(selector);
  return sel ? (pod) => selectorMatches(sel, pod.metadata.labels ?? {}) : () => true;
}
