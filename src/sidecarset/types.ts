// SidecarSet's keys and shared shapes (../shared/SEMANTICS.md §2). The API types live in
// src/api/apps/sidecarset.ts; this file holds what the webhook and the controller agree on.
export type { SidecarSet, SidecarContainer } from '../api/apps/sidecarset.js';

/** On the SidecarSet (§2.2) and, as JSON maps by SidecarSet name, on injected pods (§2.4.6). */
export const HASH_ANNOTATION = 'kruise.io/sidecarset-hash';
export const HASH_WITHOUT_IMAGE_ANNOTATION = 'kruise.io/sidecarset-hash-without-image';
/** On pods: JSON sidecar container → the working one of its hot-upgrade pair (§2.4.7). */
export const WORKING_HOTUPGRADE_CONTAINER_ANNOTATION = 'kruise.io/sidecarset-working-hotupgrade-container';
/** Prefixes of the per-container hot-upgrade version annotations (§2.4.7). */
export const VERSION_ANNOTATION_PREFIX = 'version.sidecarset.kruise.io/';
export const VERSION_ALT_ANNOTATION_PREFIX = 'versionalt.sidecarset.kruise.io/';
/** Label on a SidecarSet, copied to its ControllerRevisions; selects revisions by custom version (§2.4.3). */
export const CUSTOM_VERSION_LABEL = 'apps.kruise.io/sidecarset-custom-version';

export const ENV_SIDECARSET_VERSION = 'SIDECARSET_VERSION';
export const ENV_SIDECARSET_VERSION_ALT = 'SIDECARSET_VERSION_ALT';

export const PATCH_POD_METADATA_WHITELIST_KEY = 'SidecarSet_PatchPodMetadata_WhiteList';

/** One entry of the pod's hash annotations (§2.4.5): Go's JSON field order matters for equality. */
export type SidecarSetHashEntry = {
  updateTimestamp: string;
  hash: string;
  sidecarSetName: string;
  sidecarList: string[];
  controllerRevision?: string;
};

/** Label the controller puts on a SidecarSet's ControllerRevisions: the SidecarSet's name (§2.4.3). */
export const SIDECARSET_NAME_LABEL = 'kruise.io/sidecarset-name';

