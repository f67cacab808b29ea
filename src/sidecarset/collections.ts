// The cluster state the SidecarSet validating webhook reads (../shared/SEMANTICS.md §7), as collections the
// reconcilers push to the edge (or the Node/Lambda entries list live). Each is projected down to
// what the webhook uses, to keep edge state small.
import type { CollectionSpec } from '../edge-state/contracts.js';
import { metaOf, pick, type Obj } from '../kube/projection.js';
import { SIDECARSET_NAME_LABEL } from './types.js';
import { kruiseConfigurationCollection } from '../kube/kruise-configuration.js';

export const SIDECARSETS_COLLECTION = 'sidecarsets';
export const NAMESPACES_COLLECTION = 'namespaces';
export const SIDECARSET_REVISIONS_COLLECTION = 'sidecarset-revisions';

/** Keeps only the named metadata fields (absent ones stay absent). */
const pickMeta = (obj: Obj, keys: readonly string[]): Obj => pick(metaOf(obj), keys);

/** Every SidecarSet, whole except managedFields: conflicts compare containers, volumes and patches. */
export const sidecarSetsCollection: CollectionSpec = {
  name: SIDECARSETS_COLLECTION,
  apiVersion: 'apps.kruise.io/v1alpha1',
  kind: 'SidecarSet',
  project: (obj) => {
    const { managedFields: _drop, ...metadata } = metaOf(obj);
    return { ...obj, metadata };
  },
};

/** Namespace labels, for namespace/namespaceSelector overlap between SidecarSets. */
export const namespacesCollection: CollectionSpec = {
  name: NAMESPACES_COLLECTION,
  apiVersion: 'v1',
  kind: 'Namespace',
  project: (obj) => ({ metadata: pickMeta(obj, ['name', 'labels', 'resourceVersion']) }),
};

/** SidecarSet ControllerRevisions (labelled with their set's name), for injectionStrategy.revision. */
export const sidecarSetRevisionsCollection: CollectionSpec = {
  name: SIDECARSET_REVISIONS_COLLECTION,
  apiVersion: 'apps/v1',
  kind: 'ControllerRevision',
  select: { labelSelector: SIDECARSET_NAME_LABEL },
  project: (obj) => ({
    metadata: pickMeta(obj, ['name', 'namespace', 'labels', 'annotations', 'resourceVersion', 'creationTimestamp']),
    data: obj.data,
    revision: obj.revision,
  }),
};

export const sidecarSetCollections: readonly CollectionSpec[] = [
  sidecarSetsCollection,
  namespacesCollection,
  kruiseConfigurationCollection,
  sidecarSetRevisionsCollection,
];
