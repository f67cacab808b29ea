// How a per-node workload's pod is tied to its node (Kubernetes' daemon util, which OpenKruise's
// DaemonSet and BroadcastJob both use): pinned by a required `matchFields metadata.name In [node]`
// term, and read back from spec.nodeName or that term. Also the derived name suffix both give
// their pods, so a repeated run collides on the name instead of creating a second pod. Pure.
import type { NodeSelectorTerm } from './nodes.js';
import type { Pod } from './pods.js';
import { fnv1_32 } from './revisions.js';

type Affinity = { nodeAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms?: NodeSelectorTerm[] | null } | null } | null };

/** util.GetTargetNodeName: spec.nodeName, else the single `metadata.name In [node]` field requirement of the required affinity. */
export function targetNodeName(pod: Pod): string | undefined {
  if (pod.spec.nodeName) return pod.spec.nodeName;
  const terms = (pod.spec.affinity as Affinity | undefined)?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  for (const term of terms) {
    for (const f of term.matchFields ?? []) {
      if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
    }
  }
  return undefined;
}

/**
 * ReplaceDaemonSetPodNodeNameNodeAffinity: the pod is pinned to `node` by a required
 * `matchFields metadata.name In [node]` term, which replaces the template's required terms (the
 * controller has already checked them against the node); preferred terms are kept.
 */
export function pinnedToNode(affinity: unknown, node: string): Record<string, unknown> {
  const term = { matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] };
  const base = (affinity && typeof affinity === 'object' ? structuredClone(affinity) : {}) as Record<string, unknown> & { nodeAffinity?: Record<string, unknown> | null };
  const nodeAffinity = base.nodeAffinity && typeof base.nodeAffinity === 'object' ? base.nodeAffinity : {};
  const required = nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  const next = required && typeof required === 'object' ? { ...(required as object), nodeSelectorTerms: [term] } : { nodeSelectorTerms: [term] };
  return { ...base, nodeAffinity: { ...nodeAffinity, requiredDuringSchedulingIgnoredDuringExecution: next } };
}

/** generateName's limit: the prefix is cut so that prefix + 5 characters fit 63. */
const MAX_PREFIX = 58;
/** The characters the API server's generated names use (rand.String's alphabet). */
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function suffix(seed: string): string {
  let n = fnv1_32(new TextEncoder().encode(seed));
  let out = '';
  for (let i = 0; i < 5; i++) {
    out += ALPHABET[n % ALPHABET.length];
    n = Math.floor(n / ALPHABET.length);
  }
  return out;
}

/**
 * `<owner>-` and 5 characters, as a generated name looks, but a hash of `seed` and the first index
 * whose name is not in `taken`: the same observation always gives the same name.
 */
export function derivedPodName(owner: string, seed: string, taken: ReadonlySet<string>): string {
  const prefix = `${owner}-`.slice(0, MAX_PREFIX);
  for (let i = 0; ; i++) {
    const name = prefix + suffix(`${seed}/${i}`);
    if (!taken.has(name)) return name;
  }
}
