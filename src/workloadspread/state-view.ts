// What the WorkloadSpread pod webhooks read from cluster state, gathered once per request: the
// custom workload whitelist, the namespace's WorkloadSpreads in list order, owner lookups over the
// pushed workloads, and the target's replicas with when they were observed.
import type { ClusterState, Snapshot } from '../edge-state/contracts.js';
import { isRecord } from '../kube/validation.js';
import { KRUISE_CONFIGURATION_COLLECTION, KRUISE_CONFIGURATION } from '../kube/kruise-configuration.js';
import { WORKLOAD_COLLECTIONS, WORKLOADSPREADS_COLLECTION, workloadCollectionFor } from './collections.js';
import type { OwnerLookup, OwnerRef } from './owner.js';
import type { ObservedReplicas } from './subset-state.js';
import { groupOf, type WorkloadSpread } from './types.js';
import { parseCustomWorkloadWhitelist, workloadReplicas, type CustomWorkloadWhitelist } from './workloads.js';
import { usesPercent } from './choose.js';

type Item = {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; ownerReferences?: OwnerRef[] };
  data?: unknown;
  spec?: Record<string, unknown>;
};

/** The whitelist in the Kruise namespace's kruise-configuration; missing or unreadable ⇒ none. */
export async function readWhitelist(state: ClusterState, kruiseNamespace: string): Promise<CustomWorkloadWhitelist> {
  const configs = await state.collection<Item>(KRUISE_CONFIGURATION_COLLECTION);
  const config = configs?.items.find((c) => c.metadata?.name === KRUISE_CONFIGURATION && c.metadata?.namespace === kruiseNamespace);
  const parsed = parseCustomWorkloadWhitelist(isRecord(config?.data) ? (config.data as Record<string, string>) : undefined);
  // OpenKruise leaves its list of custom kinds empty when the whitelist cannot be read.
  return 'whitelist' in parsed ? parsed.whitelist : { workloads: [] };
}

/** The namespace's WorkloadSpreads in list order, or undefined when none were ever pushed. */
export async function readWorkloadSpreads(state: ClusterState, namespace: string): Promise<WorkloadSpread[] | undefined> {
  const all = await state.collection<WorkloadSpread>(WORKLOADSPREADS_COLLECTION);
  return all?.items.filter((ws) => ws.metadata?.namespace === namespace);
}

export type WorkloadView = { lookup: OwnerLookup; replicasOf: (ws: WorkloadSpread, whitelist: CustomWorkloadWhitelist) => ObservedReplicas };

/** Owner lookups and target replicas over the pushed workload collections of one namespace. */
export async function readWorkloads(state: ClusterState, namespace: string): Promise<WorkloadView> {
  const snapshots = new Map<string, Snapshot<Item> | undefined>(
    await Promise.all(WORKLOAD_COLLECTIONS.map(async (c) => [c.spec.name, await state.collection<Item>(c.spec.name)] as const)),
  );
  const find = (group: string, kind: string, name: string) => {
    const collection = workloadCollectionFor(group, kind);
    const snapshot = collection ? snapshots.get(collection) : undefined;
    const object = snapshot?.items.find((o) => o.metadata?.namespace === namespace && o.metadata?.name === name);
    return { collection, snapshot, object };
  };
  return {
    lookup: (group, kind, name) => {
      const { collection, snapshot, object } = find(group, kind, name);
      if (!collection) return { state: 'unavailable', reason: `no pushed state for ${kind}.${group}` };
      if (!snapshot) return { state: 'unavailable', reason: `collection ${collection} was never pushed` };
      return object ? { state: 'found', object } : { state: 'absent' };
    },
    // observedAt 0 never overrides what the ledger holds: it only matters for a fresh ledger.
    replicasOf: (ws, whitelist) => {
      if (!usesPercent(ws)) return { value: 0, observedAt: 0 };
      const ref = ws.spec.targetRef;
      const { snapshot, object } = find(groupOf(ref.apiVersion), ref.kind, ref.name);
      return { value: workloadReplicas(object, ws.spec.targetFilter, whitelist), observedAt: snapshot?.observedAt ?? 0 };
    },
  };
}
