// The pod mutating webhook's SidecarSet step (../shared/SEMANTICS.md §2.4, §6 step 3): on CREATE, inject
// every matching SidecarSet at the revision chosen for the pod. It answers from the injection plan
// (pushed state, indexed once per state version). Our own delay never fails a pod creation: stale
// state is answered from as last known (with a warning), and a pod created before any state was
// synced, or while it cannot be read, is admitted without sidecars, with a warning.
import type { V1ControllerRevision, V1Pod } from '@kubernetes/client-node';
import { allow, deny, type AdmissionHandler, type StateNeeds } from '../admission/types.js';
import { type ClusterState } from '../edge-state/contracts.js';
import { isRecord } from '../kube/validation.js';
import { NAMESPACES_COLLECTION, SIDECARSETS_COLLECTION, SIDECARSET_REVISIONS_COLLECTION } from './collections.js';
import { decideInjection } from './decide-injection.js';
import { injectSidecarSets } from './inject.js';
import { isInjectable } from './match.js';
import { InjectionPlanCache, type InjectionPlan } from './plan.js';
import { DEFAULT_KRUISE_NAMESPACE } from '../kube/kruise-configuration.js';
import { type SidecarSet } from './types.js';

export type InjectionOptions = {
  /** Where SidecarSet ControllerRevisions live. Default kruise-system. */
  kruiseNamespace?: string;
  /** State older than this is answered from with a warning (with fallback deny: refused). Default 3 min. */
  maxStalenessMs?: number;
  /** What to do without current state: last-known (default), allow (no sidecars, with a warning) or deny. */
  fallback?: StateNeeds['fallback'];
  /** Uniform in [0, 1), for policy Partial; Math.random by default. */
  random?: () => number;
  /** Shared by the webhook and the explain endpoint; one per isolate. */
  plans?: InjectionPlanCache;
  /** OpenKruise's feature gate EnableSortSidecarContainerByName (default false): injected containers sorted by name. */
  sortSidecarContainersByName?: boolean;
};

export const DEFAULT_INJECTION_STALENESS_MS = 3 * 60_000;

export function injectionNeeds(opts: InjectionOptions = {}): StateNeeds {
  return {
    collections: [SIDECARSETS_COLLECTION, NAMESPACES_COLLECTION, SIDECARSET_REVISIONS_COLLECTION],
    maxStalenessMs: opts.maxStalenessMs ?? DEFAULT_INJECTION_STALENESS_MS,
    fallback: opts.fallback ?? 'last-known',
  };
}

type NamespaceItem = { metadata?: { name?: string; labels?: Record<string, string> } };

/** The plan for a cluster from its state, or undefined when a collection was never pushed. */
export async function injectionPlanFor(state: ClusterState, clusterId: string, plans: InjectionPlanCache, kruiseNamespace: string): Promise<InjectionPlan | undefined> {
  const [sets, namespaces, revisions] = await Promise.all([
    state.collection<SidecarSet>(SIDECARSETS_COLLECTION),
    state.collection<NamespaceItem>(NAMESPACES_COLLECTION),
    state.collection<V1ControllerRevision>(SIDECARSET_REVISIONS_COLLECTION),
  ]);
  if (!sets || !namespaces || !revisions) return undefined;
  return plans.get(clusterId, { sets, namespaces, revisions, kruiseNamespace });
}

export function makeInjectSidecarsHandler(opts: InjectionOptions = {}): AdmissionHandler<V1Pod> {
  const plans = opts.plans ?? new InjectionPlanCache();
  const kruiseNamespace = opts.kruiseNamespace ?? DEFAULT_KRUISE_NAMESPACE;
  const random = opts.random ?? Math.random;
  return async (req, state, ctx) => {
    const pod = req.object;
    if (!isRecord(pod)) return deny(400, 'the admission request carries no Pod');
    if (isInjectable(pod, req) !== true) return allow();
    const plan = await injectionPlanFor(state, req.clusterId, plans, kruiseNamespace);
    // The framework checks `needs` before calling; this only guards a misregistration.
    if (!plan) throw new Error('SidecarSet injection state is missing');
    const decision = decideInjection(pod, req.namespace, plan, { random });
    // OpenKruise fails the whole pod creation with code 500 for these (§6).
    if (decision.kind === 'error') return deny(500, decision.message);
    if (decision.sets.length === 0) return allow();
    const injected = injectSidecarSets(pod, decision.sets, new Date(ctx.now), decision.namespace, { sortContainersByName: opts.sortSidecarContainersByName ?? false });
    return 'error' in injected ? deny(500, injected.error) : allow(injected.pod);
  };
}
