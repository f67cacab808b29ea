// The PUB object's validating webhook (§4.2, on `validate-kruise`) and the pod CREATE mutation
// that stamps `kruise.io/related-pub` (§4.3, on `mutate-pod`).
import type { V1Pod } from '@kubernetes/client-node';
import { allow, deny, type AdmissionHandler, type StateNeeds } from '../admission/types.js';
import { formatFieldErrors } from '../kube/field-errors.js';
import { isRecord } from '../kube/validation.js';
import { PUBS_COLLECTION, REPLICASETS_COLLECTION } from './collections.js';
import { podWorkload, relatedPub, replicaSetsIn, type Owned, type PodLike } from './related.js';
import { RELATED_PUB_ANNOTATION, type PodUnavailableBudget } from './types.js';
import { validatePodUnavailableBudget } from './validate.js';

/** Other PUBs older than this: validated against the last known ones, with a warning; never synced: refused (a conflict could slip through). */
export const VALIDATE_PUB_NEEDS: StateNeeds = { collections: [PUBS_COLLECTION], maxStalenessMs: 5 * 60_000, fallback: 'last-known', withoutState: 'deny' };

export const validatePubHandler: AdmissionHandler<PodUnavailableBudget> = async (req, state) => {
  const pub = req.object;
  if (!isRecord(pub)) return deny(400, 'the admission request carries no PodUnavailableBudget');
  const pubs = await state.collection<PodUnavailableBudget>(PUBS_COLLECTION);
  if (!pubs) throw new Error('PodUnavailableBudget validation state is missing');
  const old = req.operation === 'UPDATE' && isRecord(req.oldObject) ? req.oldObject : undefined;
  const errs = validatePodUnavailableBudget(pub, pubs.items, old);
  // OpenKruise answers admission.Errored(400, errs.ToAggregate()) (§4.2).
  return errs.length > 0 ? deny(400, formatFieldErrors(errs)) : allow();
};

/**
 * OpenKruise only logs PUB lookup errors on pod CREATE (§6): stale PUBs are stamped from as last
 * known (with a warning); without any, the pod is admitted unstamped (with a warning), and the
 * controller back-fills the annotation.
 */
export const STAMP_RELATED_PUB_NEEDS: StateNeeds = { collections: [PUBS_COLLECTION, REPLICASETS_COLLECTION], maxStalenessMs: 5 * 60_000, fallback: 'last-known' };

export const stampRelatedPubHandler: AdmissionHandler<V1Pod> = async (req, state) => {
  const pod = req.object;
  if (!pod || typeof pod !== 'object' || req.subResource) return allow();
  const [pubs, replicaSets] = await Promise.all([
    state.collection<PodUnavailableBudget>(PUBS_COLLECTION),
    state.collection<Owned>(REPLICASETS_COLLECTION),
  ]);
  const namespace = pod.metadata?.namespace || req.namespace;
  const candidates = (pubs?.items ?? []).filter((p) => p.metadata?.namespace === namespace);
  if (candidates.length === 0) return allow();
  const workload = podWorkload(pod as Owned, replicaSetsIn(namespace, replicaSets?.items ?? []));
  const hit = relatedPub({ metadata: { ...pod.metadata, namespace } } as PodLike, candidates, workload);
  if (!hit?.metadata?.name) return allow();
  const copy = structuredClone(pod);
  copy.metadata = { ...copy.metadata, annotations: { ...copy.metadata?.annotations, [RELATED_PUB_ANNOTATION]: hit.metadata.name } };
  return allow(copy);
};
