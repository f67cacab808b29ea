// The injection plan: what the pod webhook needs from cluster state, prepared once per state
// version rather than per pod (kruise#1546: OpenKruise lists every SidecarSet for each pod). The
// sets are indexed by namespace with their selectors compiled, namespace labels are a map, and
// ControllerRevisions stored without hash annotations get them computed here (hashing is async
// Web Crypto; revision choice during admission is synchronous). Web APIs only.
import type { V1ControllerRevision } from '@kubernetes/client-node';
import type { Snapshot } from '../edge-state/contracts.js';
import { deepFreeze } from '../kube/frozen.js';
import { sidecarSetHash, sidecarSetHashWithoutImage } from './hash.js';
import { indexSidecarSets, type SidecarSetIndex } from './match.js';
import type { Labels } from '../kube/selectors.js';
import { restoreSidecarSet, revisionMemo, type RevisionMemo } from './revision.js';
import { HASH_ANNOTATION, HASH_WITHOUT_IMAGE_ANNOTATION, SIDECARSET_NAME_LABEL, type SidecarSet } from './types.js';

export type InjectionPlan = {
  index: SidecarSetIndex;
  sets: readonly SidecarSet[];
  namespaceLabels: ReadonlyMap<string, Labels>;
  /** SidecarSet revisions in the Kruise namespace, each with both hash annotations. */
  revisions: readonly V1ControllerRevision[];
  /** Revision lookups and restored sets, kept for the plan's life. */
  revisionMemo: RevisionMemo;
  /** The oldest observation the plan was built from (ms since epoch). */
  observedAt: number;
};

type NamespaceItem = { metadata?: { name?: string; labels?: Record<string, string> } };

export type PlanInputs = {
  sets: Snapshot<SidecarSet>;
  namespaces: Snapshot<NamespaceItem>;
  revisions: Snapshot<V1ControllerRevision>;
  kruiseNamespace: string;
};

/** A revision with the hashes of the set it restores, when it was stored without them. */
async function withHashes(rev: V1ControllerRevision, sets: ReadonlyMap<string, SidecarSet>): Promise<V1ControllerRevision> {
  const annotations = rev.metadata?.annotations ?? {};
  if (annotations[HASH_ANNOTATION] && annotations[HASH_WITHOUT_IMAGE_ANNOTATION]) return rev;
  const owner = sets.get(rev.metadata?.labels?.[SIDECARSET_NAME_LABEL] ?? '');
  if (!owner) return rev;
  const restored = restoreSidecarSet(owner, rev, () => ({ hash: '', withoutImage: '' }));
  if ('error' in restored) return rev; // reported when a pod asks for it
  const [hash, withoutImage] = await Promise.all([sidecarSetHash(restored), sidecarSetHashWithoutImage(restored)]);
  return {
    ...rev,
    metadata: {
      ...rev.metadata,
      annotations: { ...annotations, [HASH_ANNOTATION]: annotations[HASH_ANNOTATION] || hash, [HASH_WITHOUT_IMAGE_ANNOTATION]: annotations[HASH_WITHOUT_IMAGE_ANNOTATION] || withoutImage },
    },
  };
}

export async function buildInjectionPlan(inputs: PlanInputs): Promise<InjectionPlan> {
  // Read-only from here on: what is derived from the sets (their containers as injected) is then
  // kept and shared across pods (sidecars.ts).
  const sets = deepFreeze(inputs.sets.items);
  const byName = new Map(sets.map((s) => [s.metadata?.name ?? '', s]));
  const revisions = await Promise.all(
    inputs.revisions.items.filter((r) => r.metadata?.namespace === inputs.kruiseNamespace).map((r) => withHashes(r, byName)),
  );
  return {
    index: indexSidecarSets(sets),
    sets,
    namespaceLabels: new Map(inputs.namespaces.items.map((n) => [n.metadata?.name ?? '', n.metadata?.labels ?? {}])),
    revisions,
    revisionMemo: revisionMemo(revisions),
    observedAt: Math.min(inputs.sets.observedAt, inputs.namespaces.observedAt, inputs.revisions.observedAt),
  };
}

const versionOf = (s: Snapshot) => `${s.resourceVersion}@${s.observedAt}`;

/**
 * Remembers the last plan per cluster and rebuilds it only when a snapshot changed (a new push, or
 * a new live read). One per isolate or process.
 */
export class InjectionPlanCache {
  private readonly held = new Map<string, { key: string; plan: Promise<InjectionPlan> }>();

  get(clusterId: string, inputs: PlanInputs): Promise<InjectionPlan> {
    const key = [inputs.sets, inputs.namespaces, inputs.revisions].map(versionOf).join('|') + `|${inputs.kruiseNamespace}`;
    const hit = this.held.get(clusterId);
    if (hit && hit.key === key) return hit.plan;
    const plan = buildInjectionPlan(inputs);
    this.held.set(clusterId, { key, plan });
    plan.catch(() => this.held.delete(clusterId));
    return plan;
  }
}
