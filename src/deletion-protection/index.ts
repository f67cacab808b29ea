// Deletion protection: the feature's registration (one handler on `validate-delete`, whose
// objectSelector and failurePolicy Fail are declared in src/admission/endpoints.ts) and the
// computed counts a Cascading Namespace or CRD deletion reads. Web APIs only.
//
// The counts are not a LISTed collection but computed from several LISTs (counts.ts): the pusher
// and the live reader call `compute`.
import type { CollectionSpec } from '../admission/types.js';
import type { Feature } from '../registry.js';
import { COUNTS_COLLECTION, computeProtectionCounts } from './counts.js';
import { deletionProtectionHandler } from './webhook.js';

/** The computed collection: per labelled Namespace/CRD, what its Cascading deletion depends on. */
export const deletionProtectionCounts: CollectionSpec = {
  name: COUNTS_COLLECTION,
  apiVersion: 'v1',
  kind: 'Namespace',
  compute: computeProtectionCounts,
};

export const deletionProtectionFeature: Feature = {
  name: 'deletion-protection',
  collections: [deletionProtectionCounts],
  handlers: [
    {
      endpoint: 'validate-delete',
      handler: { match: { subResource: '', operations: ['DELETE'] }, handle: deletionProtectionHandler },
    },
  ],
};


export { deletionProtectionHandler } from './webhook.js';
export { decideDeletion, countsView, type CountsView, type ProtectedObject } from './decide.js';
export { COUNTS_MAX_AGE_MS, computeProtectionCounts, type ProtectionCounts } from './counts.js';
export * from './types.js';
