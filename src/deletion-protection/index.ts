// Deletion protection: the feature's registration (one handler on `validate-delete`, whose
// objectSelector and failurePolicy Fail are declared in src/admission/endpoints.ts) and the
// computed counts a Cascading Namespace or CRD deletion reads. Web APIs only.
//
// The counts are not a LISTed collection but computed from several LISTs (counts.ts); until the
// pusher and the live reader support computed collections they are exported as
// `deletionProtectionCounts` and not declared in `collections` (a Cascading Namespace/CRD deletion
// is refused, with a clear message, while they are missing).
import type { Feature } from '../registry.js';
import { COUNTS_COLLECTION, computeProtectionCounts } from './counts.js';
import { deletionProtectionHandler } from './webhook.js';

export const deletionProtectionFeature: Feature = {
  name: 'deletion-protection',
  handlers: [
    {
      endpoint: 'validate-delete',
      handler: { match: { subResource: '', operations: ['DELETE'] }, handle: deletionProtectionHandler },
    },
  ],
};

/** The computed collection: its name and how to build it from LISTs (see counts.ts). */
export const deletionProtectionCounts = { name: COUNTS_COLLECTION, compute: computeProtectionCounts } as const;

export { deletionProtectionHandler } from './webhook.js';
export { decideDeletion, countsView, type CountsView, type ProtectedObject } from './decide.js';
export { COUNTS_MAX_AGE_MS, computeProtectionCounts, type ProtectionCounts } from './counts.js';
export * from './types.js';
