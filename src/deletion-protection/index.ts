// Deletion protection: the feature's registration (one handler on `validate-delete`, whose
// objectSelector and failurePolicy Fail are declared in src/admission/endpoints.ts) and the
// computed counts a Cascading Namespace or CRD deletion reads. Web APIs only.
//
// What Cascading deletions depend on is not a LISTed collection but computed from several LISTs:
// CRDs' custom resource counts (counts.ts), and the pods and PVCs of Cascading namespaces, which
// the `observe-protected` observer keeps exact between pushes (dependents.ts). The pusher and the
// live reader call `compute`.
import type { CollectionSpec } from '../edge-state/contracts.js';
import type { Feature } from '../feature.js';
import { COUNTS_COLLECTION, computeProtectionCounts } from './counts.js';
import { cascadingPods, cascadingPvcs } from './dependents.js';
import { deletionProtectionHandler } from './webhook.js';

/** The computed collection: per labelled CRD, what its Cascading deletion depends on. */
export const deletionProtectionCounts: CollectionSpec = {
  name: COUNTS_COLLECTION,
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  compute: computeProtectionCounts,
  uncachedLive: true,
};

export const deletionProtectionFeature: Feature = {
  name: 'deletion-protection',
  collections: [deletionProtectionCounts, cascadingPods, cascadingPvcs],
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
export { CASCADING_PODS, CASCADING_PVCS, namespaceDependents, type DependentItem } from './dependents.js';
export * from './types.js';
