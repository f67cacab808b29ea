// Which SidecarSets apply to a pod being created, and why or why not (../shared/SEMANTICS.md §2.4.1–2.4.2).
// Pure: the namespace's labels come in as an argument, so the webhook, the explain endpoint and
// the controller share this code. Web APIs only.
import type { V1Pod } from '@kubernetes/client-node';
import type { AdmissionInput } from '../admission/types.js';
import type { SidecarSet } from './types.js';
import { compileSelector, selectorMatches, type CompiledSelector, type Labels } from '../kube/selectors.js';

/** One SidecarSet's verdict for one pod. `error` is set when OpenKruise fails the whole request. */
export type MatchResult = { set: string; matched: boolean; reason: string; error?: string };

// ---- Pre-filter (§2.4.1) ----------------------------------------------------------------------

/**
 * Whether the pod webhook should look at SidecarSets at all: `true`, or why not. UPDATE passes
 * OpenKruise's own pre-filter, but its update path never changes a pod (the availability check of
 * its only SidecarControl is always false), so it is skipped here too.
 */
export function isInjectable(
  pod: V1Pod,
  req: Pick<AdmissionInput, 'operation' | 'subResource' | 'resource'>,
): true | string {
  if (req.subResource) return `subresource ${JSON.stringify(req.subResource)} requests are not injected`;
  if (req.resource.resource !== 'pods') return `resource ${JSON.stringify(req.resource.resource)} is not pods`;
  if (req.operation === 'UPDATE') return 'sidecars are only injected when a pod is created';
  if (req.operation !== 'CREATE') return `operation ${req.operation} is not injected`;
  const phase = pod.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return `the pod is ${phase}`;
  if (pod.metadata?.deletionTimestamp) return 'the pod is being deleted';
  return true;
}

/** The pod's namespace as OpenKruise sees it: its own, else the request's, else "default". */
export function podNamespace(pod: V1Pod, requestNamespace: string): string {
  return pod.metadata?.namespace || requestNamespace || 'default';
}

// ---- Index (kruise#1546) ----------------------------------------------------------------------

/** A SidecarSet with its selectors compiled once. */
export type IndexedSidecarSet = {
  readonly set: SidecarSet;
  readonly selector: CompiledSelector;
  readonly namespaceSelector?: CompiledSelector;
};

/**
 * One list of candidate sets, in order, with a way to skip most of them for a pod: each set whose
 * selector requires `key In (values)` (matchLabels included) is filed under each `key=value`, so
 * only the sets filed under one of the pod's own labels, and those that could not be filed
 * (no such requirement, or a selector that is empty, missing or invalid), are matched at all.
 */
export type CandidateList = {
  readonly all: readonly IndexedSidecarSet[];
  /** "key\u0000value" → positions in `all`. */
  readonly byLabel: ReadonlyMap<string, readonly number[]>;
  /** Positions in `all` that every pod must be matched against. */
  readonly unfiled: readonly number[];
};

export type SidecarSetIndex = {
  /** Sets bound to named namespaces (spec.namespace or a kubernetes.io/metadata.name selector). */
  readonly byNamespace: ReadonlyMap<string, CandidateList>;
  readonly clusterWide: CandidateList;
};

const METADATA_NAME_LABEL = 'kubernetes.io/metadata.name';

export function indexSidecarSet(set: SidecarSet): IndexedSidecarSet {
  const nsSel = set.spec?.namespaceSelector;
  return {
    set,
    selector: compileSelector(set.spec?.selector),
    ...(nsSel ? { namespaceSelector: compileSelector(nsSel) } : {}),
  };
}

/**
 * The namespaces a set is indexed under, as OpenKruise's IndexSidecarSet: spec.namespace; else a
 * namespaceSelector's matchLabels or first `In` expression on kubernetes.io/metadata.name;
 * undefined means cluster-wide. (On Kubernetes < 1.21 namespaces lack that label, so such sets
 * never match: §8.)
 */
export function indexedNamespaces(set: SidecarSet): string[] | undefined {
  const spec = set.spec ?? {};
  if (spec.namespace) return [spec.namespace];
  const sel = spec.namespaceSelector;
  if (sel) {
    const v = sel.matchLabels?.[METADATA_NAME_LABEL];
    if (v !== undefined) return [v];
    for (const e of sel.matchExpressions ?? []) {
      if (e.key === METADATA_NAME_LABEL && e.operator === 'In') return [...new Set(e.values ?? [])];
    }
  }
  return undefined;
}

const labelKey = (key: string, value: string) => `${key}\u0000${value}`;

function candidateList(all: IndexedSidecarSet[]): CandidateList {
  const byLabel = new Map<string, number[]>();
  const unfiled: number[] = [];
  all.forEach((entry, at) => {
    const sel = entry.selector;
    // An `In` requirement with no values matches no pod: such a set is filed nowhere but kept, so
    // the pod still gets its verdict the way a scan would give it (not matched).
    const filing = sel.kind === 'requirements' ? sel.requirements.find((r) => r.operator === 'In') : undefined;
    if (!filing) return void unfiled.push(at);
    for (const value of new Set(filing.values)) {
      const key = labelKey(filing.key, value);
      const bucket = byLabel.get(key);
      if (bucket) bucket.push(at);
      else byLabel.set(key, [at]);
    }
  });
  return { all, byLabel, unfiled };
}

export function indexSidecarSets(sets: readonly SidecarSet[]): SidecarSetIndex {
  const byNamespace = new Map<string, IndexedSidecarSet[]>();
  const clusterWide: IndexedSidecarSet[] = [];
  for (const set of sets) {
    const entry = indexSidecarSet(set);
    const namespaces = indexedNamespaces(set);
    if (!namespaces) {
      clusterWide.push(entry);
      continue;
    }
    for (const ns of namespaces) {
      const bucket = byNamespace.get(ns);
      if (bucket) bucket.push(entry);
      else byNamespace.set(ns, [entry]);
    }
  }
  return { byNamespace: new Map([...byNamespace].map(([ns, list]) => [ns, candidateList(list)])), clusterWide: candidateList(clusterWide) };
}

/** The sets of `list` a pod with `labels` could match, in list order. */
function narrowed(list: CandidateList, labels: Labels): IndexedSidecarSet[] {
  const at = [...list.unfiled];
  for (const key of Object.keys(labels)) {
    const filed = list.byLabel.get(labelKey(key, labels[key]!));
    if (filed) at.push(...filed);
  }
  // Each set is filed under one requirement's values, and a pod has one value per key: no repeats.
  return at.sort((a, b) => a - b).map((i) => list.all[i]!);
}

/**
 * The sets worth matching for a pod in `namespace` with `labels`: its namespace's bucket, then the
 * cluster-wide sets, each narrowed by the pod's labels. Matching these gives the same sets, in the
 * same order, as matching every set would.
 */
export function candidatesFor(index: SidecarSetIndex, namespace: string, labels: Labels): IndexedSidecarSet[] {
  const bucket = index.byNamespace.get(namespace || 'default');
  return [...(bucket ? narrowed(bucket, labels) : []), ...narrowed(index.clusterWide, labels)];
}

// ---- Matching (§2.4.2) ------------------------------------------------------------------------

/**
 * A verdict for every given set, in order. `namespace` is the request namespace (the pod's own
 * wins; empty means "default"). `nsLabels` are the labels of the pod's Namespace, or undefined when
 * they are not known (OpenKruise: fetch failure ⇒ sets with a namespaceSelector do not match).
 */
export function matchSidecarSets(
  pod: V1Pod,
  namespace: string,
  sets: readonly (SidecarSet | IndexedSidecarSet)[],
  nsLabels: Labels | undefined,
): MatchResult[] {
  const ns = podNamespace(pod, namespace);
  const podLabels = pod.metadata?.labels ?? {};
  return sets.map((s) => matchOne(isIndexed(s) ? s : indexSidecarSet(s), ns, podLabels, nsLabels));
}

function isIndexed(s: SidecarSet | IndexedSidecarSet): s is IndexedSidecarSet {
  return 'selector' in s && 'set' in s;
}

// A module function, not a closure in matchOne: that runs for every candidate set of every pod,
// and under tsx every named closure also costs a helper call as it is created.
function notMatched(set: string, reason: string): MatchResult {
  return { set, matched: false, reason };
}

function matchOne(entry: IndexedSidecarSet, ns: string, podLabels: Labels, nsLabels: Labels | undefined): MatchResult {
  const { set } = entry;
  const name = set.metadata?.name ?? '';
  const spec = set.spec ?? {};
  if (spec.injectionStrategy?.paused) return notMatched(name, 'spec.injectionStrategy.paused is true');
  if (spec.namespace && spec.namespace !== ns) {
    return notMatched(name, `spec.namespace is ${JSON.stringify(spec.namespace)} and the pod is in ${JSON.stringify(ns)}`);
  }
  const nsSel = entry.namespaceSelector;
  if (nsSel) {
    if (nsSel.kind === 'invalid') return notMatched(name, `spec.namespaceSelector is invalid (${nsSel.error}), so it matches no namespace`);
    if (!nsLabels) return notMatched(name, `the labels of namespace ${JSON.stringify(ns)} are not known (namespace not found or not synced yet)`);
    if (!selectorMatches(nsSel, nsLabels)) {
      return notMatched(name, `spec.namespaceSelector does not match the labels of namespace ${JSON.stringify(ns)}`);
    }
  }
  const sel = entry.selector;
  switch (sel.kind) {
    case 'invalid':
      return {
        set: name,
        matched: false,
        reason: `spec.selector is invalid: ${sel.error}`,
        error: `sidecarset ${JSON.stringify(name)}: spec.selector: ${sel.error}`,
      };
    case 'nothing':
      return notMatched(name, 'spec.selector is not set, so it matches no pod');
    case 'everything':
      return notMatched(name, 'spec.selector is empty, which OpenKruise treats as matching no pod');
    case 'requirements':
      if (!selectorMatches(sel, podLabels)) return notMatched(name, "spec.selector does not match the pod's labels");
  }
  return { set: name, matched: true, reason: `spec.selector matches the pod's labels in namespace ${JSON.stringify(ns)}` };
}
