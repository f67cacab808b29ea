// The deletion-protection handler on `validate-delete` (../shared/SEMANTICS.md §5). The endpoint's
// objectSelector sends only objects carrying the label, and its failurePolicy is Fail: OpenKruise
// registers these webhooks with Ignore, which switches protection off whenever it is down
// (kruise#1840); a hosted webhook keeps it on.
import { allow, type AdmissionHandler } from '../admission/types.js';
import { type ClusterState } from '../edge-state/contracts.js';
import { COUNTS_COLLECTION, namespaceCountsKey, type ProtectionCounts } from './counts.js';
import { countsView, decideDeletion, type CountsView, type ProtectedObject } from './decide.js';
import { CASCADING_PODS, CASCADING_PVCS, namespaceDependents, type DependentItem } from './dependents.js';
import { cascadeRuleFor, protectionOf } from './types.js';

/** A namespace's counts, from the pods and PVCs the edge holds (the older snapshot's age counts). */
async function namespaceView(name: string, state: ClusterState, now: number): Promise<CountsView> {
  const [pods, pvcs] = await Promise.all([state.collection<DependentItem>(CASCADING_PODS), state.collection<DependentItem>(CASCADING_PVCS)]);
  if (!pods || !pvcs) return { kind: 'missing' };
  const dependents = namespaceDependents(name, pods.items, pvcs.items);
  const items: ProtectionCounts[] = dependents ? [{ metadata: { name: namespaceCountsKey(name), resourceVersion: '' }, ...dependents }] : [];
  return countsView({ items, observedAt: Math.min(pods.observedAt, pvcs.observedAt) }, now);
}

export const deletionProtectionHandler: AdmissionHandler = async (req, state, ctx) => {
  if (req.operation !== 'DELETE' || req.subResource) return allow();
  const rule = cascadeRuleFor(req.resource.group, req.resource.resource);
  const old = req.oldObject as ProtectedObject | undefined;
  if (!rule || !old || typeof old !== 'object') return allow();
  // Only a Cascading Namespace or CRD needs what lives in it; don't read that for anything else.
  const cascading = protectionOf(old.metadata?.labels) === 'Cascading' && !old.metadata?.deletionTimestamp;
  let view: CountsView = { kind: 'missing' };
  if (cascading && rule === 'namespace') view = await namespaceView(old.metadata?.name ?? '', state, ctx.now);
  if (cascading && rule === 'crd') view = countsView(await state.collection<ProtectionCounts>(COUNTS_COLLECTION), ctx.now);
  return decideDeletion(rule, old, view);
};
