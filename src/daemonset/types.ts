// Advanced DaemonSet (apps.kruise.io/v1alpha1 DaemonSet): the names, labels and annotations
// OpenKruise's controller and the native DaemonSet controller write, and the loose shape the
// webhooks and the controller read (an admitted or listed object is untrusted).
import type { DaemonSet, DaemonSetSpec, DaemonSetStatus, RollingUpdateDaemonSet } from '../api/apps/daemonset.js';
import type { Loose, ObjectMeta, Stored } from '../api/kind.js';

export const DAEMONSET_API_VERSION = 'apps.kruise.io/v1alpha1';
export const DAEMONSET_KIND = 'DaemonSet';

/** apps.DefaultDaemonSetUniqueLabelKey / ControllerRevisionHashLabelKey: the revision's hash (not its name). */
export const REVISION_HASH_LABEL = 'controller-revision-hash';
/** extensions.DaemonSetTemplateGenerationKey: set on pods when the DaemonSet carries the annotation below. */
export const TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** apps.DeprecatedTemplateGeneration: the template generation a DaemonSet migrated from apps/v1 carries. */
export const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';
/**
 * Ours, not OpenKruise's: the DaemonSet's name on each pod it creates, so that the pod-status
 * observer is sent this workload's pods only (`controller-revision-hash` is on every StatefulSet's
 * and native DaemonSet's pods too). Pods created by OpenKruise lack it until they are replaced.
 */
export const DAEMONSET_NAME_LABEL = 'daemonset.kruise-serverless.io/name';

export const DEFAULT_BURST_REPLICAS = 250;
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** spec.updateStrategy.rollingUpdate as validation reads it (an admitted object is untrusted). */
export type RollingUpdate = Loose<RollingUpdateDaemonSet>;

/** An Advanced DaemonSet as the webhooks read it (an admitted object is untrusted). */
export type DaemonSetLike = { apiVersion?: string; kind?: string; metadata?: ObjectMeta; spec: Loose<DaemonSetSpec>; status?: DaemonSetStatus };

/** An Advanced DaemonSet as the controller lists it (named, namespaced). */
export type StoredDaemonSet = Stored<DaemonSet>;

/** The DaemonSet as the object of a write, status or Event. */
export const daemonSetRef = (ds: { metadata: { name: string; namespace: string } }) => ({ apiVersion: DAEMONSET_API_VERSION, kind: DAEMONSET_KIND, name: ds.metadata.name, namespace: ds.metadata.namespace });
