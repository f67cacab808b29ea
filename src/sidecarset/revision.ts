// Which version of a SidecarSet a new pod receives (../shared/SEMANTICS.md §2.4.3): the current spec, or a
// stored ControllerRevision named by spec.injectionStrategy.revision, depending on policy and
// updateStrategy. Pure: revisions and the random source come in as arguments.
//
// Stored revision format (what OpenKruise's controller writes, and what we read): a
// ControllerRevision in the Kruise namespace, labelled `kruise.io/sidecarset-name: <set>` (plus
// `apps.kruise.io/sidecarset-custom-version` when the set carries that label), annotated with the
// set's `kruise.io/sidecarset-hash` / `-hash-without-image`, whose `data` is a strategic merge patch
//
//   {"spec": {"$patch": "replace", "containers": […], "initContainers": […], "volumes": […],
//             "imagePullSecrets": […], "patchPodMetadata": […]}}
//
// Restoring applies it to the current SidecarSet: with `$patch: replace` the whole spec becomes
// exactly those fields (null or absent ones are dropped); without it each listed spec field is
// replaced (null deletes). Metadata and status are the current set's, except the hash annotations
// (from the revision; recomputed when it has none) and status.latestRevision = the revision name.
import { deepFreeze } from '../kube/frozen.js';
import type { V1ControllerRevision, V1Pod } from '@kubernetes/client-node';
import { cloneJson } from './clone.js';
import { compileSelector, selectorMatches } from '../kube/selectors.js';
import {
  CUSTOM_VERSION_LABEL,
  HASH_ANNOTATION,
  HASH_WITHOUT_IMAGE_ANNOTATION,
  SIDECARSET_NAME_LABEL,
  type SidecarSet,
} from './types.js';

/** Computes a SidecarSet's two hash annotations (§2.2), for revisions stored without them. */
export type SidecarSetHasher = (set: SidecarSet) => { hash: string; withoutImage: string };

/** What to inject, before any dice are rolled. */
export type RevisionPlan =
  /** `revision`: the configured one, found but not chosen (it must still restore cleanly). */
  | { kind: 'latest'; revision?: V1ControllerRevision; reason: string }
  | { kind: 'history'; revision: V1ControllerRevision; reason: string }
  | { kind: 'random'; revision: V1ControllerRevision; historyProbability: number; reason: string };

/** The version chosen for one pod. */
export type RevisionChoice = {
  /** The SidecarSet to inject: the current one, or the current one restored to `revision`. */
  revisionSet: SidecarSet;
  /** The ControllerRevision injected, when not the latest spec. */
  revision?: string;
  reason: string;
};

export type RevisionOptions = {
  /** ControllerRevisions in the Kruise namespace (any set's; this code filters). */
  revisions: readonly V1ControllerRevision[];
  /** Uniform in [0, 1); only consulted for policy Partial with a percentage partition. */
  random: () => number;
  hasher?: SidecarSetHasher;
  /**
   * findHistoryRevision and restoreSidecarSet over `revisions`, remembered (the injection plan
   * keeps them per state version, so a pinned set is not looked up and restored for every pod).
   */
  memo?: RevisionMemo;
};

/** Both depend only on the set and the revisions, which a plan fixes. */
export type RevisionMemo = {
  history(set: SidecarSet): { revision: V1ControllerRevision } | Failure;
  restore(set: SidecarSet, revision: V1ControllerRevision): SidecarSet | Failure;
};

/** A RevisionMemo over fixed `revisions`; results are shared, so they are frozen. */
export function revisionMemo(revisions: readonly V1ControllerRevision[], hasher?: SidecarSetHasher): RevisionMemo {
  const history = new Map<SidecarSet, { revision: V1ControllerRevision } | Failure>();
  const restored = new Map<SidecarSet, Map<V1ControllerRevision, SidecarSet | Failure>>();
  return {
    history(set) {
      let found = history.get(set);
      if (!found) history.set(set, (found = findHistoryRevision(set, revisions)));
      return found;
    },
    restore(set, revision) {
      let bySet = restored.get(set);
      if (!bySet) restored.set(set, (bySet = new Map()));
      let out = bySet.get(revision);
      if (!out) bySet.set(revision, (out = deepFreeze(restoreSidecarSet(set, revision, hasher))));
      return out;
    },
  };
}

type Failure = { error: string };

function setName(set: SidecarSet): string {
  return set.metadata?.name ?? '';
}

/** The ControllerRevision named by spec.injectionStrategy.revision (revisionName wins over customVersion). */
export function findHistoryRevision(set: SidecarSet, revisions: readonly V1ControllerRevision[]): { revision: V1ControllerRevision } | Failure {
  const info = set.spec?.injectionStrategy?.revision;
  const name = setName(set);
  const at = `sidecarset ${JSON.stringify(name)}: spec.injectionStrategy.revision`;
  if (info?.revisionName != null) {
    // OpenKruise GETs the revision by name in the Kruise namespace; it does not check the owner.
    const found = revisions.find((r) => r.metadata?.name === info.revisionName);
    if (!found) return { error: `${at}.revisionName: ControllerRevision ${JSON.stringify(info.revisionName)} not found in the Kruise namespace` };
    return { revision: found };
  }
  if (info?.customVersion != null) {
    const matching = revisions.filter(
      (r) => r.metadata?.labels?.[SIDECARSET_NAME_LABEL] === name && r.metadata?.labels?.[CUSTOM_VERSION_LABEL] === info.customVersion,
    );
    if (matching.length === 0) {
      return {
        error: `${at}.customVersion: no ControllerRevision labelled ${SIDECARSET_NAME_LABEL}=${name}, ${CUSTOM_VERSION_LABEL}=${info.customVersion}`,
      };
    }
    return { revision: [...matching].sort(compareRevisions).at(-1)! };
  }
  return { error: `${at}: neither revisionName nor customVersion is set` };
}

/** history.SortControllerRevisions: by .revision, then creationTimestamp, then name. */
function compareRevisions(a: V1ControllerRevision, b: V1ControllerRevision): number {
  if (a.revision !== b.revision) return a.revision - b.revision;
  const ta = timeOf(a.metadata?.creationTimestamp);
  const tb = timeOf(b.metadata?.creationTimestamp);
  if (ta !== tb) return ta - tb;
  const na = a.metadata?.name ?? '';
  const nb = b.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}

function timeOf(t: Date | string | undefined): number {
  if (!t) return 0;
  const ms = new Date(t).getTime();
  return Number.isNaN(ms) ? 0 : ms;
}

/** The SidecarSet as it was at `revision` (see the file comment for the format). */
export function restoreSidecarSet(set: SidecarSet, revision: V1ControllerRevision, hasher?: SidecarSetHasher): SidecarSet | Failure {
  const revName = revision.metadata?.name ?? '';
  const at = `sidecarset ${JSON.stringify(setName(set))}: ControllerRevision ${JSON.stringify(revName)}`;
  const data = parseData(revision.data);
  if (data === undefined) return { error: `${at}: data is not a JSON object` };
  const patch = data['spec'];
  const current = () => cloneJson(set.spec ?? {}) as Record<string, unknown>;
  let spec: Record<string, unknown>;
  if (patch === undefined || patch === null) {
    spec = current();
  } else if (!isPlainObject(patch)) {
    return { error: `${at}: data.spec is not an object` };
  } else if (patch['$patch'] === 'replace') {
    spec = {};
    for (const [k, v] of Object.entries(patch)) if (k !== '$patch' && v !== null) spec[k] = cloneJson(v);
  } else {
    spec = mergeSpec(current(), patch);
  }

  // The spec is replaced just below: copy the rest (spec keeps its place among the keys).
  const restored = cloneJson({ ...set, spec: undefined }) as unknown as SidecarSet;
  restored.spec = spec as SidecarSet['spec'];
  const revAnnotations = revision.metadata?.annotations ?? {};
  let hash = revAnnotations[HASH_ANNOTATION] ?? '';
  let withoutImage = revAnnotations[HASH_WITHOUT_IMAGE_ANNOTATION] ?? '';
  if (!hash || !withoutImage) {
    if (!hasher) return { error: `${at}: has no ${HASH_ANNOTATION} annotations and no hash function was given to recompute them` };
    const computed = hasher(restored);
    hash ||= computed.hash;
    withoutImage ||= computed.withoutImage;
  }
  restored.metadata = {
    ...restored.metadata,
    annotations: { ...restored.metadata?.annotations, [HASH_ANNOTATION]: hash, [HASH_WITHOUT_IMAGE_ANNOTATION]: withoutImage },
  };
  restored.status = { ...(restored.status ?? { matchedPods: 0, updatedPods: 0, readyPods: 0 }), latestRevision: revName };
  return restored;
}

function parseData(data: unknown): Record<string, unknown> | undefined {
  let value = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data);
    } catch {
      return undefined;
    }
  }
  return isPlainObject(value) ? value : undefined;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Strategic merge of a spec patch without directives: maps merge, lists and scalars replace, null deletes. */
function mergeSpec(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$')) continue;
    if (v === null) delete out[k];
    else if (isPlainObject(v) && isPlainObject(out[k])) out[k] = mergeSpec(out[k] as Record<string, unknown>, v);
    else out[k] = cloneJson(v);
  }
  return out;
}

/** ParsePercentageAsFloat64: "30%" → 0.3. */
function parsePercentage(s: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)%$/.exec(s.trim());
  return m ? Number(m[1]) / 100 : undefined;
}

/**
 * Decides which version a new pod gets, in OpenKruise's order: no revision configured ⇒ latest;
 * otherwise the revision must exist (else error, even if the latest would be chosen); then
 * updateStrategy.paused ⇒ revision; policy Partial ⇒ revision for pods the updateStrategy.selector
 * does not select, else a draw weighted by a percentage partition (an int or no partition ⇒
 * latest); any other policy (Always, empty) ⇒ revision.
 */
export function planRevision(set: SidecarSet, pod: V1Pod, revisions: readonly V1ControllerRevision[], memo?: RevisionMemo): RevisionPlan | Failure {
  const info = set.spec?.injectionStrategy?.revision;
  if (!info || (info.revisionName == null && info.customVersion == null)) {
    return { kind: 'latest', reason: 'no injectionStrategy.revision: the latest version' };
  }
  const found = memo ? memo.history(set) : findHistoryRevision(set, revisions);
  if ('error' in found) return found;
  const { revision } = found;
  const rev = JSON.stringify(revision.metadata?.name ?? '');
  const us = set.spec?.updateStrategy ?? {};
  if (us.paused) return { kind: 'history', revision, reason: `updateStrategy.paused: ControllerRevision ${rev}` };
  if (info.policy !== 'Partial') return { kind: 'history', revision, reason: `policy ${info.policy || 'Always'}: ControllerRevision ${rev}` };

  const name = JSON.stringify(setName(set));
  if (us.selector) {
    const sel = compileSelector(us.selector);
    if (sel.kind === 'invalid') return { error: `sidecarset ${name}: spec.updateStrategy.selector: ${sel.error}` };
    if (!selectorMatches(sel, pod.metadata?.labels ?? {})) {
      return { kind: 'history', revision, reason: `policy Partial, updateStrategy.selector does not select the pod: ControllerRevision ${rev}` };
    }
  }
  const partition = us.partition;
  if (partition === undefined || partition === null || typeof partition === 'number') {
    return { kind: 'latest', revision, reason: 'policy Partial with no percentage partition: the latest version' };
  }
  const p = parsePercentage(partition);
  if (p === undefined) return { error: `sidecarset ${name}: spec.updateStrategy.partition: ${JSON.stringify(partition)} is not a percentage` };
  return {
    kind: 'random',
    revision,
    historyProbability: p,
    reason: `policy Partial, partition ${partition}: ControllerRevision ${rev} with probability ${partition}, else the latest version`,
  };
}

/** planRevision, with the draw made and the history version restored. */
export function chooseRevision(set: SidecarSet, pod: V1Pod, opts: RevisionOptions): RevisionChoice | Failure {
  const plan = planRevision(set, pod, opts.revisions, opts.memo);
  if ('error' in plan) return plan;
  if (!plan.revision) return { revisionSet: set, reason: plan.reason };
  // OpenKruise restores the revision before deciding, so a broken revision fails either way.
  const restored = opts.memo ? opts.memo.restore(set, plan.revision) : restoreSidecarSet(set, plan.revision, opts.hasher);
  if ('error' in restored) return restored;
  if (plan.kind === 'latest') return { revisionSet: set, reason: plan.reason };
  const revision = plan.revision.metadata?.name ?? '';
  if (plan.kind === 'random' && !(opts.random() <= plan.historyProbability)) {
    return { revisionSet: set, reason: `${plan.reason}; drew the latest version` };
  }
  const reason = plan.kind === 'random' ? `${plan.reason}; drew ControllerRevision ${JSON.stringify(revision)}` : plan.reason;
  return { revisionSet: restored, revision, reason };
}
