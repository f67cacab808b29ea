// PodUnavailableBudget: annotation and label keys, operations and the denial messages OpenKruise
// answers with (../shared/SEMANTICS.md §4.1, §4.4). Messages are compared by clients and tests, so they are
// built here, once.
export type { PodUnavailableBudget, PodUnavailableBudgetSpec, PodUnavailableBudgetStatus, PubTargetReference } from '../api/policy/podunavailablebudget.js';

export const PUB_GROUP = 'policy.kruise.io';
export const PUB_API_VERSION = 'policy.kruise.io/v1alpha1';
export const PUB_KIND = 'PodUnavailableBudget';

/** On pods: the PUB that protects the pod (written by the pod mutating webhook on CREATE). */
export const RELATED_PUB_ANNOTATION = 'kruise.io/related-pub';
/** On pods: "true" ⇒ never protected. */
export const NO_PROTECT_ANNOTATION = 'pub.kruise.io/no-protect';
/** On PUBs: comma list of the operations guarded (absent or empty ⇒ all). */
export const PROTECT_OPERATIONS_ANNOTATION = 'kruise.io/pub-protect-operations';
/** On PUBs: the expected number of pods, overriding the workload's scale (controller only). */
export const PROTECT_TOTAL_REPLICAS_ANNOTATION = 'pub.kruise.io/protect-total-replicas';
/** Pod labels with this prefix mark the pod unavailable. */
export const UNAVAILABLE_LABEL_PREFIX = 'unavailable-pod.kruise.io/';

export type PubOperation = 'UPDATE' | 'DELETE' | 'EVICT' | 'RESIZE';
/** What the annotation may name. RESIZE: an update that only resizes container cpu/memory (resize.ts). */
export const PUB_OPERATIONS: readonly PubOperation[] = ['UPDATE', 'DELETE', 'EVICT', 'RESIZE'];
/** Guarded when the annotation is absent or empty. */
const DEFAULT_OPERATIONS: readonly PubOperation[] = ['DELETE', 'UPDATE', 'EVICT'];

/** More pending (disrupted + unavailable) pods than this and the budget refuses everything (§4.4 rule 8). */
export const MAX_PENDING_PODS = 2000;

export const pubForbidden = (pub: string, why: string): string => `podunavailablebudget.policy.kruise.io "${pub}" is forbidden: ${why}`;
export const exhaustedMessage = (pub: string): string => pubForbidden(pub, 'pub unavailable allowed is negative');
export const mapTooBigMessage = (pub: string): string =>
  pubForbidden(pub, 'DisruptedPods and UnavailablePods map too big - too many unavailable not confirmed by PUB controller');

/** The Warning Event OpenKruise records on a pod whose disruption was refused (§4.4 rule 8). */
export const PREVENT_EVENT_REASON = 'PubPreventPodDeletion';
export const PREVENT_EVENT_MESSAGE = 'openkruise pub prevents pod deletion';

/** Whether a pod carries an `unavailable-pod.kruise.io/*` label. */
export function hasUnavailableLabel(labels: Readonly<Record<string, string>> | undefined): boolean {
  return Object.keys(labels ?? {}).some((k) => k.startsWith(UNAVAILABLE_LABEL_PREFIX));
}

/**
 * The operations a PUB guards: each comma-separated item of the annotation, verbatim (OpenKruise
 * neither trims nor folds case, §4.2); absent or empty ⇒ DELETE, UPDATE and EVICT. A guarded
 * UPDATE guards RESIZE too, as OpenKruise does while its InPlacePodVerticalScaling gate is off (its
 * default; there is no such gate here).
 */
export function protectedOperations(annotations: Readonly<Record<string, string>> | undefined): PubOperation[] {
  const raw = annotations?.[PROTECT_OPERATIONS_ANNOTATION];
  const listed = raw ? raw.split(',').filter((op): op is PubOperation => (PUB_OPERATIONS as readonly string[]).includes(op)) : [...DEFAULT_OPERATIONS];
  return listed.includes('UPDATE') && !listed.includes('RESIZE') ? [...listed, 'RESIZE'] : listed;
}
