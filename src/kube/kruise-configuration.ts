// OpenKruise's `kruise-configuration` ConfigMap in the Kruise namespace: configuration several
// features read (SidecarSet, WorkloadSpread), held as one collection. Web APIs only.
import type { CollectionSpec } from '../edge-state/contracts.js';
import { metaOf, pick } from './projection.js';

/** Where OpenKruise is installed unless told otherwise. */
export const DEFAULT_KRUISE_NAMESPACE = 'kruise-system';
export const KRUISE_CONFIGURATION = 'kruise-configuration';
export const KRUISE_CONFIGURATION_COLLECTION = 'kruise-configuration';

/**
 * The kruise-configuration ConfigMap (SidecarSet's patchPodMetadata whitelist, WorkloadSpread's custom
 * workload whitelist). It is selected by name with a
 * field selector, which both the pusher and the live reader pass to the LIST (so other ConfigMaps
 * are not read); the namespace is not fixed here because the Kruise namespace is deployment
 * configuration, so the handler picks the one in its Kruise namespace.
 */
export const kruiseConfigurationCollection: CollectionSpec = {
  name: KRUISE_CONFIGURATION_COLLECTION,
  apiVersion: 'v1',
  kind: 'ConfigMap',
  select: { fieldSelector: `metadata.name=${KRUISE_CONFIGURATION}` },
  project: (obj) => ({ metadata: pick(metaOf(obj), ['name', 'namespace', 'resourceVersion']), data: obj.data ?? {} }),
};
