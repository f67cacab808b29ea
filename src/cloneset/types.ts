// CloneSet names and labels OpenKruise's controller writes, which pods and revisions carry.
import type { CloneSet } from '../api/apps/cloneset.js';
import type { Stored } from '../api/kind.js';

export const CLONESET_API_VERSION = 'apps.kruise.io/v1alpha1';
export const CLONESET_KIND = 'CloneSet';
export const INSTANCE_ID_LABEL = 'apps.kruise.io/cloneset-instance-id';
/** Full `<cs>-<hash>` (just `<hash>` with OpenKruise's CloneSetShortHash). */
export const REVISION_HASH_LABEL = 'controller-revision-hash';
/** Always the short hash. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
export const SPECIFIED_DELETE_LABEL = 'apps.kruise.io/specified-delete';

/** A CloneSet as the controller lists it (named, namespaced). */
export type StoredCloneSet = Stored<CloneSet>;

/** The CloneSet as the object of a write, status or Event. */
export const cloneSetRef = (cs: { metadata: { name: string; namespace: string } }) => ({ apiVersion: CLONESET_API_VERSION, kind: CLONESET_KIND, name: cs.metadata.name, namespace: cs.metadata.namespace });

/** The short hash of a revision label value: the part after its last '-'. */
export const shortHash = (value: string): string => value.slice(value.lastIndexOf('-') + 1);
