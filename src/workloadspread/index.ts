// WorkloadSpread: the feature's registration (pod placement on mutate-pod, deletion bookkeeping on
// validate-pod, WorkloadSpread validation on validate-kruise), its collections and its ledger
// kind, and the Web-safe pure functions. The Worker bundles this file through src/registry.ts;
// the reconciler is exported from ./controller/reconciler.ts for src/reconcilers.ts.
import type { AdmissionHandler, RegisteredHandler, StateNeeds } from '../admission/types.js';
import type { Feature } from '../feature.js';
import { KRUISE_CONFIGURATION_COLLECTION } from '../kube/kruise-configuration.js';
import { WORKLOADSPREADS_COLLECTION, workloadSpreadCollections } from './collections.js';
import { workloadSpreadLedgerKind } from './ledger.js';
import { WS_API_VERSION, WS_KIND } from './types.js';
import { makePlacePodHandler, makeRecordDeletionHandler, makeRecordEvictionHandler, type WorkloadSpreadWebhookOptions } from './webhook.js';
import { makeValidateWorkloadSpreadHandler, VALIDATE_WORKLOADSPREAD_MATCH, VALIDATE_WORKLOADSPREAD_NEEDS } from './webhook-validate.js';

/**
 * The pod handlers read what they need themselves and fall back to "admitted without a subset"
 * when it is missing; declaring `allow` makes a slow or failing handler do the same rather than
 * fail the pod (the mutate-pod endpoint's failurePolicy is Fail).
 */
const POD_NEEDS: StateNeeds = { collections: [], maxStalenessMs: Number.POSITIVE_INFINITY, fallback: 'allow' };
/**
 * Placement also places from stale WorkloadSpreads (last known, with a warning); never synced, it
 * admits the pod without a subset. The workload collections it reads for owners are not gated
 * (each pod CREATE would read them all): what they lack, the handler warns about itself.
 */
const PLACE_POD_NEEDS: StateNeeds = { collections: [WORKLOADSPREADS_COLLECTION, KRUISE_CONFIGURATION_COLLECTION], maxStalenessMs: 5 * 60_000, fallback: 'last-known' };

export type WorkloadSpreadHandlerRegistration = { endpoint: string; handler: Omit<RegisteredHandler, 'feature'> };

export function workloadSpreadWebhookHandlers(opts: WorkloadSpreadWebhookOptions = {}): WorkloadSpreadHandlerRegistration[] {
  return [
    {
      endpoint: 'mutate-pod',
      handler: {
        match: { group: '', kind: 'Pod', resource: 'pods', subResource: '', operations: ['CREATE'] },
        handle: makePlacePodHandler(opts) as AdmissionHandler,
        needs: PLACE_POD_NEEDS,
      },
    },
    {
      endpoint: 'validate-pod',
      handler: { match: { group: '', kind: 'Pod', resource: 'pods', subResource: '', operations: ['DELETE'] }, handle: makeRecordDeletionHandler(opts) as AdmissionHandler, needs: POD_NEEDS },
    },
    {
      endpoint: 'validate-pod',
      handler: { match: { resource: 'pods', subResource: 'eviction', operations: ['CREATE'] }, handle: makeRecordEvictionHandler(opts) as AdmissionHandler, needs: POD_NEEDS },
    },
    {
      endpoint: 'validate-kruise',
      handler: { match: VALIDATE_WORKLOADSPREAD_MATCH, handle: makeValidateWorkloadSpreadHandler(opts) as AdmissionHandler, needs: VALIDATE_WORKLOADSPREAD_NEEDS },
    },
  ];
}

export function workloadSpreadFeatureWith(opts: WorkloadSpreadWebhookOptions = {}): Feature {
  return {
    name: 'workloadspread',
    handlers: workloadSpreadWebhookHandlers(opts),
    collections: [...workloadSpreadCollections],
    changeKinds: [`${WS_API_VERSION}/${WS_KIND}`],
    ledgerKinds: [workloadSpreadLedgerKind],
  };
}

/** With the default Kruise namespace (kruise-system) and OpenKruise's dry-run behaviour. */
export const workloadSpreadFeature: Feature = workloadSpreadFeatureWith();

export { workloadSpreadLedgerKind, WORKLOADSPREAD_LEDGER } from './ledger.js';
export type { CreateRequest, CreateResult, DeleteRequest, DeleteResult, ReadResult, WorkloadSpreadLedger } from './ledger.js';
export type { ResyncRequest, SubsetBase } from './ledger-resync.js';
export { WORKLOADSPREADS_COLLECTION, workloadSpreadCollections } from './collections.js';
export { validateWorkloadSpread } from './validate.js';
export { injectSubset, formatMatchedWorkloadSpread, parseMatchedWorkloadSpread } from './inject.js';
export { matchWorkloadSpread } from './owner.js';
export { strategicMergePod } from './strategic-merge.js';
export * from './types.js';
