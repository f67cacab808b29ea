// In which order a workload updates (or deletes) its pods, as OpenKruise's SidecarSet and CloneSet
// controllers sort them (SortUpdateIndexes in pkg/controller/sidecarset/sidecarset_strategy.go):
// Kubernetes' ActivePods order (unscheduled, pending and not-ready pods first), then
// updateStrategy.priorityStrategy (pkg/util/updatesort/priority_sort.go), then
// updateStrategy.scatterStrategy (pkg/util/updatesort/scatter_sort.go). Everything works on indexes into the matching pods, as
// OpenKruise does, because scattering weighs the pods waiting against all matching pods. Pure.
//
// Quirk not reproduced: OpenKruise's priority sort breaks ties by the pods' position in its cache
// (larger index first), which undoes the not-ready-first order among equal priorities; ties here
// keep the ActivePods order, so not-ready pods still go first (the cache order is undefined anyway).
import type { UpdatePriorityStrategy, UpdateScatterTerm } from '../api/apps/pub.js';
import { compileSelector, selectorMatches } from '../kube/selectors.js';
import { isPodReadyCondition, maxContainerRestarts, readyTime, timeOf, type Pod } from './pods.js';

const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** afterOrZero: a zero time sorts first; otherwise the later time does. */
function afterOrZero(t1: number, t2: number): boolean {
  if (t1 === 0 || t2 === 0) return t1 === 0;
  return t1 > t2;
}

// The terms both pod orders share, each deciding (true/false) or a tie (undefined).

/** Unscheduled pods first, then Pending < Unknown < Running. */
function schedulingAndPhaseFirst(a: Pod, b: Pod): boolean | undefined {
  const na = a.spec.nodeName ?? '';
  const nb = b.spec.nodeName ?? '';
  if (na !== nb && (na === '' || nb === '')) return na === '';
  const pa = PHASE_ORDINAL[a.status?.phase ?? ''] ?? 0;
  const pb = PHASE_ORDINAL[b.status?.phase ?? ''] ?? 0;
  return pa !== pb ? pa < pb : undefined;
}

/** Not-ready pods first. */
function notReadyFirst(a: Pod, b: Pod): boolean | undefined {
  const ra = isPodReadyCondition(a);
  return ra !== isPodReadyCondition(b) ? !ra : undefined;
}

/** Ready for less time, then more restarts, then newer. */
function youngerFirst(a: Pod, b: Pod): boolean {
  if (isPodReadyCondition(a) && isPodReadyCondition(b)) {
    const ta = readyTime(a);
    const tb = readyTime(b);
    if (ta !== tb) return afterOrZero(ta, tb);
  }
  const ca = maxContainerRestarts(a);
  const cb = maxContainerRestarts(b);
  if (ca !== cb) return ca > cb;
  const ka = timeOf(a.metadata.creationTimestamp);
  const kb = timeOf(b.metadata.creationTimestamp);
  return ka !== kb ? afterOrZero(ka, kb) : false;
}

/** controller.ActivePods Less: whether `a` should be updated (or deleted) before `b`. */
export function activePodsLess(a: Pod, b: Pod): boolean {
  return schedulingAndPhaseFirst(a, b) ?? notReadyFirst(a, b) ?? youngerFirst(a, b);
}

/** A comparator from a strict "goes before". */
export const byLess = (less: (i: number, j: number) => boolean) => (i: number, j: number) => (less(i, j) ? -1 : less(j, i) ? 1 : 0);

// ---- Priority ---------------------------------------------------------------------------------

/** getIntFromStringSuffix: the trailing digits of a label value ("sts-10" → 10), else 0. */
export function trailingInt(v: string): number {
  const m = /(\d+)$/.exec(v);
  if (!m) return 0;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) ? n : 0;
}

function weightOf(strategy: UpdatePriorityStrategy, labels: Record<string, string>): number {
  let weight = 0;
  for (const term of strategy.weightPriority ?? []) {
    const sel = compileSelector(term.matchSelector);
    if (sel.kind !== 'invalid' && selectorMatches(sel, labels)) weight += term.weight;
  }
  return weight;
}

function orderOf(strategy: UpdatePriorityStrategy, labels: Record<string, string>): [number, number] {
  for (const [i, term] of (strategy.orderPriority ?? []).entries()) {
    const v = labels[term.orderedKey];
    if (v !== undefined) return [i, trailingInt(v)];
  }
  return [-1, 0];
}

/**
 * prioritySort: with weightPriority, heavier pods first; else with orderPriority, pods whose first
 * present key comes earlier in the list first (pods with none of the keys before all), then the
 * larger trailing number first.
 */
export function sortByPriority(strategy: UpdatePriorityStrategy | undefined, pods: readonly Pod[], indexes: readonly number[]): number[] {
  if (!strategy || (!strategy.weightPriority?.length && !strategy.orderPriority?.length)) return [...indexes];
  const labels = (i: number) => pods[i]!.metadata.labels ?? {};
  const less = (i: number, j: number): boolean => {
    if (strategy.weightPriority?.length) {
      const wi = weightOf(strategy, labels(i));
      const wj = weightOf(strategy, labels(j));
      return wi > wj;
    }
    const [li, oi] = orderOf(strategy, labels(i));
    const [lj, oj] = orderOf(strategy, labels(j));
    return li !== lj ? li < lj : oi > oj;
  };
  return [...indexes].sort(byLess(less));
}

// ---- Scatter ----------------------------------------------------------------------------------

/** parseUpdateScatterTerms: `key: "*"` stands for every value of `key` among the pods; duplicates dropped. */
export function expandScatterTerms(terms: readonly UpdateScatterTerm[], pods: readonly Pod[]): UpdateScatterTerm[] {
  const out: UpdateScatterTerm[] = [];
  const add = (t: UpdateScatterTerm) => {
    if (!out.some((o) => o.key === t.key && o.value === t.value)) out.push(t);
  };
  for (const term of terms) {
    if (term.value !== '*') {
      add(term);
      continue;
    }
    for (const pod of pods) {
      const v = pod.metadata.labels?.[term.key];
      if (v !== undefined) add({ key: term.key, value: v });
    }
  }
  return out;
}

/** getScatterTerms: with several terms, those matching more waiting pods are applied first. */
function scatterTermsInUse(terms: readonly UpdateScatterTerm[], pods: readonly Pod[], indexes: readonly number[]): UpdateScatterTerm[] {
  if (terms.length === 1) return [...terms];
  const counts = new Map<string, { term: UpdateScatterTerm; count: number }>();
  for (const term of terms) {
    for (const i of indexes) {
      if (pods[i]!.metadata.labels?.[term.key] !== term.value) continue;
      const id = `${term.key}:${term.value}`;
      const seen = counts.get(id);
      if (seen) seen.count += 1;
      else counts.set(id, { term: { key: term.key, value: term.value }, count: 1 });
    }
  }
  return [...counts.values()].sort((a, b) => b.count - a.count).map((c) => c.term);
}

type ScatterGroup = { groupNum: number; matchedGroupSize: number; unmatchedGroupSize: number; unmatchedRemainder: number };

function scatterGroup(matched: number, unmatched: number): ScatterGroup {
  const groupNum = Math.min(matched, unmatched);
  return { groupNum, matchedGroupSize: Math.round(matched / groupNum), unmatchedGroupSize: Math.round(unmatched / groupNum), unmatchedRemainder: 0 };
}

function groupByDensity(totalMatched: number, totalUnmatched: number, updateMatched: number, updateUnmatched: number): ScatterGroup {
  const total = scatterGroup(totalMatched, totalUnmatched);
  const update = scatterGroup(updateMatched, updateUnmatched);
  if (Math.fround(totalUnmatched / totalMatched) >= Math.fround(updateUnmatched / updateMatched)) return update;
  const g = { ...total, groupNum: 0, unmatchedRemainder: 0 };
  const byMatched = Math.trunc(updateMatched / g.matchedGroupSize);
  const byUnmatched = Math.trunc(updateUnmatched / g.unmatchedGroupSize);
  g.groupNum = byMatched < byUnmatched ? byMatched : byUnmatched;
  g.unmatchedRemainder = updateUnmatched - g.groupNum * g.unmatchedGroupSize;
  return g;
}

/** scatterPodsByRule: interleave pods carrying `term` with the others, keeping one matched pod for last. */
function scatterByTerm(term: UpdateScatterTerm, pods: readonly Pod[], indexes: readonly number[]): number[] {
  const hit = (p: Pod) => (p.metadata.labels?.[term.key] ?? '') === term.value;
  let matched = indexes.filter((i) => hit(pods[i]!));
  let unmatched = indexes.filter((i) => !hit(pods[i]!));
  if (matched.length <= 1 || unmatched.length <= 1) return [...indexes];
  let totalMatched = pods.filter(hit).length;
  const totalUnmatched = pods.length - totalMatched;

  const last = matched[matched.length - 1]!;
  matched = matched.slice(0, -1);
  totalMatched -= 1;

  const group = groupByDensity(totalMatched, totalUnmatched, matched.length, unmatched.length);
  const out: number[] = [];
  if (group.unmatchedRemainder > 0) {
    out.push(...unmatched.slice(0, group.unmatchedRemainder));
    unmatched = unmatched.slice(group.unmatchedRemainder);
  }
  const take = (src: number[], size: number): number[] => {
    if (src.length === 0) return src;
    if (src.length < size) {
      out.push(...src);
      return [];
    }
    out.push(...src.slice(0, size));
    return src.slice(size);
  };
  for (let i = 0; i < group.groupNum; i++) {
    matched = take(matched, group.matchedGroupSize);
    unmatched = take(unmatched, group.unmatchedGroupSize);
  }
  out.push(...matched, ...unmatched, last);
  return out;
}

export function scatter(terms: readonly UpdateScatterTerm[], pods: readonly Pod[], indexes: readonly number[]): number[] {
  if (terms.length === 0 || indexes.length <= 1) return [...indexes];
  let out = [...indexes];
  for (const term of scatterTermsInUse(terms, pods, out)) out = scatterByTerm(term, pods, out);
  return out;
}


// ---- Scale-down order ---------------------------------------------------------------------------

export const POD_DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';

/** The pod's deletion cost (an int32 annotation); 0 when absent or malformed, as Kubernetes reads it. */
export function deletionCost(pod: Pod): number {
  const v = pod.metadata.annotations?.[POD_DELETION_COST];
  if (v === undefined || !/^(0|-?[1-9]\d*)$/.test(v)) return 0;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647 ? n : 0;
}

export type RankOptions = { rank?: (pod: Pod) => number; available?: (pod: Pod) => boolean };

/**
 * ActivePodsWithRanks Less (OpenKruise's cloneset pod_sorter.go): which pod to delete first —
 * unscheduled, Pending < Unknown < Running, unavailable, not ready, lower deletion cost, higher
 * rank (more pods of the set on its node), ready for less time, more restarts, newer.
 */
export function scaleDownLess(a: Pod, b: Pod, o: RankOptions = {}): boolean {
  const first = schedulingAndPhaseFirst(a, b);
  if (first !== undefined) return first;
  if (o.available) {
    const aa = o.available(a);
    if (aa !== o.available(b)) return !aa;
  }
  const ready = notReadyFirst(a, b);
  if (ready !== undefined) return ready;
  const ca = deletionCost(a);
  const cb = deletionCost(b);
  if (ca !== cb) return ca < cb;
  const ka = o.rank?.(a) ?? 0;
  const kb = o.rank?.(b) ?? 0;
  if (ka !== kb) return ka > kb;
  return youngerFirst(a, b);
}

/**
 * NewSameNodeRanker: on a node with several of the pods, all but the one to keep longest get a
 * rank, the first to delete the highest, so scale-down spreads the remaining pods over nodes.
 */
export function sameNodeRanks(pods: readonly Pod[]): Map<Pod, number> {
  const ranks = new Map<Pod, number>();
  const onNode = new Map<string, Pod[]>();
  for (const pod of pods) {
    const node = pod.spec.nodeName;
    if (node) onNode.set(node, [...(onNode.get(node) ?? []), pod]);
  }
  for (const group of onNode.values()) {
    if (group.length <= 1) continue;
    const sorted = [...group].sort((x, y) => (scaleDownLess(x, y) ? -1 : scaleDownLess(y, x) ? 1 : 0)).slice(0, -1);
    sorted.forEach((pod, i) => ranks.set(pod, sorted.length - i));
  }
  return ranks;
}

/** The label `kubernetes.io/hostname`: one domain per node, where the same-node rank adds nothing. */
const HOSTNAME_KEY = 'kubernetes.io/hostname';

/**
 * NewSpreadConstraintsRanker, for a template with topologySpreadConstraints: per topology key, the
 * pods are grouped by their node's value of it and ordered within each domain (by the same-node
 * rank too, unless the key is the hostname); a pod's rank sums `(domain size − position)` ×
 * ln(domains + 2) over the keys, so scale-down takes pods from the fullest domains first. Pods on
 * nodes not in `nodeLabels`, or without the key, get nothing for that key.
 */
export function spreadConstraintRanks(pods: readonly Pod[], topologyKeys: readonly string[], nodeLabels: ReadonlyMap<string, Readonly<Record<string, string>>>): Map<Pod, number> {
  const ranks = new Map<Pod, number>();
  const sameNode = sameNodeRanks(pods);
  for (const key of topologyKeys) {
    const domains = new Map<string, Pod[]>();
    for (const pod of pods) {
      const value = nodeLabels.get(pod.spec.nodeName ?? '')?.[key];
      if (value !== undefined) domains.set(value, [...(domains.get(value) ?? []), pod]);
    }
    const weight = Math.log(domains.size + 2);
    const options: RankOptions = key === HOSTNAME_KEY ? {} : { rank: (p) => sameNode.get(p) ?? 0 };
    for (const group of domains.values()) {
      const sorted = [...group].sort((x, y) => (scaleDownLess(x, y, options) ? -1 : scaleDownLess(y, x, options) ? 1 : 0));
      sorted.forEach((pod, i) => ranks.set(pod, (ranks.get(pod) ?? 0) + (sorted.length - i) * weight));
    }
  }
  return ranks;
}
