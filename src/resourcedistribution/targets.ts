// Which namespaces a ResourceDistribution distributes to (OpenKruise:
// pkg/controller/resourcedistribution/utils.go, listNamespacesForDistributor): the union of
// allNamespaces, includedNamespaces and namespaceLabelSelector, minus excludedNamespaces.
// Pure: the namespaces are passed in.
import { isEmptySelector, matchesLabelSelector, selectorProblems, type LabelSelector } from '../kube/selectors.js';
import { FORBIDDEN_NAMESPACES, type NamespaceFacts, type ResourceDistribution } from './types.js';

export type TargetResult = {
  /** Existing, active namespaces to hold a copy (sorted). */
  targets: string[];
  /**
   * Selected namespaces that cannot hold a copy: named in includedNamespaces but absent, or
   * terminating (sorted). OpenKruise counts them as desired-but-failed (NamespaceNotExists).
   */
  missing: string[];
  /** Set when namespaceLabelSelector cannot be evaluated; OpenKruise then does nothing at all. */
  selectorError?: string;
};

function names(list: { name?: string }[] | undefined): string[] {
  return (list ?? []).map((n) => n.name ?? '').filter((n) => n !== '');
}

export function targetNamespaces(rd: Pick<ResourceDistribution, 'spec'>, namespaces: readonly NamespaceFacts[]): TargetResult {
  const targets = rd.spec?.targets ?? {};
  const byName = new Map(namespaces.map((ns) => [ns.name, ns]));
  const included = names(targets.includedNamespaces?.list);
  const excluded = new Set(names(targets.excludedNamespaces?.list));
  const selected = new Set<string>();

  if (targets.allNamespaces) {
    for (const ns of namespaces) if (!FORBIDDEN_NAMESPACES.includes(ns.name)) selected.add(ns.name);
    // With allNamespaces OpenKruise ignores the list, so an absent listed namespace is not
    // reported; the list still reaches a forbidden namespace that exists.
    for (const name of included) if (byName.has(name)) selected.add(name);
  } else {
    for (const name of included) selected.add(name);
  }

  // OpenKruise's selector is a struct, not a pointer: one without terms selects nothing here,
  // although an empty selector matches everything elsewhere in Kubernetes.
  const selector = targets.namespaceLabelSelector as LabelSelector | undefined;
  if (selector && !isEmptySelector(selector)) {
    const problems = selectorProblems(selector);
    if (problems.length > 0) {
      const p = problems[0]!;
      return { targets: [], missing: [], selectorError: `namespaceLabelSelector.${p.field}: ${p.detail}` };
    }
    for (const ns of namespaces) if (matchesLabelSelector(selector, ns.labels ?? {})) selected.add(ns.name);
  }

  const result: TargetResult = { targets: [], missing: [] };
  for (const name of [...selected].sort()) {
    if (excluded.has(name)) continue;
    const ns = byName.get(name);
    if (!ns || ns.phase === 'Terminating') result.missing.push(name);
    else result.targets.push(name);
  }
  return result;
}
