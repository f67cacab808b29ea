// PodUnavailableBudget: the feature's registration and its public API. Web APIs only (the Worker
// bundles this through src/registry.ts); the reconciler is exported from ./controller/reconciler.ts
// for src/reconcilers.ts.
//   mutate-pod      CREATE pods             stamp kruise.io/related-pub (§4.3)
//   validate-pod    UPDATE/DELETE pods,     checked in the PUB's ledger (§4.4)
//                   CREATE pods/eviction
//   validate-kruise CREATE/UPDATE PUBs      validation (§4.2)
import type { AdmissionHandler } from '../admission/types.js';
import type { Feature } from '../feature.js';
import { pubCollections } from './collections.js';
import { checkPodDisruptionHandler } from './disruption-webhook.js';
import { pubLedgerKind } from './ledger.js';
import { PUB_API_VERSION, PUB_GROUP, PUB_KIND, RELATED_PUB_ANNOTATION } from './types.js';
import type { AdmittedRequest } from '../edge-state/admitted.js';
import { asObj } from '../kube/projection.js';
import { STAMP_RELATED_PUB_NEEDS, stampRelatedPubHandler, VALIDATE_PUB_NEEDS, validatePubHandler } from './webhook.js';

function stampedPub(a: AdmittedRequest): { apiVersion: string; kind: string; namespace: string; name: string }[] {
  if (a.kind !== 'Pod' || a.group !== '' || a.operation !== 'CREATE' || a.subResource) return [];
  const pub = (asObj(asObj(a.object).metadata).annotations as Record<string, string> | undefined)?.[RELATED_PUB_ANNOTATION];
  return pub ? [{ apiVersion: PUB_API_VERSION, kind: PUB_KIND, namespace: a.namespace, name: pub }] : [];
}

export const pubFeature: Feature = {
  name: 'pub',
  handlers: [
    {
      endpoint: 'mutate-pod',
      handler: {
        match: { group: '', kind: 'Pod', resource: 'pods', subResource: '', operations: ['CREATE'] },
        handle: stampRelatedPubHandler as AdmissionHandler,
        needs: STAMP_RELATED_PUB_NEEDS,
      },
    },
    // No `needs`: the handler applies its own staleness rules, so that stale state refuses only
    // protected pods, never every pod deletion in the cluster.
    { endpoint: 'validate-pod', handler: { match: { resource: 'pods', operations: ['UPDATE', 'DELETE'] }, handle: checkPodDisruptionHandler } },
    { endpoint: 'validate-pod', handler: { match: { resource: 'pods', subResource: 'eviction', operations: ['CREATE'] }, handle: checkPodDisruptionHandler } },
    {
      endpoint: 'validate-kruise',
      handler: { match: { group: PUB_GROUP, kind: PUB_KIND, subResource: '', operations: ['CREATE', 'UPDATE'] }, handle: validatePubHandler as AdmissionHandler, needs: VALIDATE_PUB_NEEDS },
    },
  ],
  collections: [...pubCollections],
  changeKinds: [`${PUB_API_VERSION}/${PUB_KIND}`],
  // A pod created under a PUB runs that PUB's controller: its budget counts the pod once it is available.
  relatedObjects: stampedPub,
  ledgerKinds: [pubLedgerKind],
};

export { pubDisruptionBudgets } from './budget-source.js';
export { pubLedgerKind, pubLedgerRef, PUB_LEDGER_KIND } from './ledger.js';
export { PUB_STALE_AFTER_MS, type PubCheckRequest, type PubCheckResult } from './check.js';
export { DISRUPTED_POD_TIMEOUT_MS, UNAVAILABLE_POD_TIMEOUT_MS, type PubResyncRequest, type PubResyncResult } from './resync.js';
export type { PubBudgetState, PodFact, Refusal } from './budget-state.js';
export { PODS_COLLECTION, PUBS_COLLECTION, REPLICASETS_COLLECTION } from './collections.js';
export { validatePodUnavailableBudget } from './validate.js';
export * from './types.js';
