// The cluster state the PUB webhooks read (SEMANTICS.md §7), as collections the reconcilers push
// to the edge (or the Node/Lambda entries list live), projected to what the webhooks use:
//   podunavailablebudgets  validation (other PUBs), related-pub on pod CREATE, and rule 4 of the
//                          disruption check (the PUB named by the pod still exists)
//   pub-replicasets        the ReplicaSet → Deployment (or other controller) hop of §4.3
//   pub-pods               evictions: an Eviction names a pod but carries none, so the pod's
//                          related-pub and no-protect annotations come from here; its readiness
//                          comes from the PUB's ledger, which the controller resyncs with the
//                          availability it counted (ledger.ts)
import type { CollectionSpec } from '../admission/types.js';
import { metaOf, pick, type Obj } from '../kube/projection.js';
import { NO_PROTECT_ANNOTATION, PROTECT_OPERATIONS_ANNOTATION, PROTECT_TOTAL_REPLICAS_ANNOTATION, PUB_API_VERSION, PUB_KIND, RELATED_PUB_ANNOTATION } from './types.js';

export const PUBS_COLLECTION = 'podunavailablebudgets';
export const REPLICASETS_COLLECTION = 'pub-replicasets';
export const PODS_COLLECTION = 'pub-pods';


/** PUBs with their spec and only the annotations PUB logic reads (status is the ledger's business). */
export const pubsCollection: CollectionSpec = {
  name: PUBS_COLLECTION,
  apiVersion: PUB_API_VERSION,
  kind: PUB_KIND,
  project: (obj) => {
    const meta = metaOf(obj);
    const annotations = pick((meta.annotations ?? {}) as Obj, [PROTECT_OPERATIONS_ANNOTATION, PROTECT_TOTAL_REPLICAS_ANNOTATION]);
    return {
      metadata: { ...pick(meta, ['name', 'namespace', 'uid', 'generation', 'resourceVersion']), ...(Object.keys(annotations).length ? { annotations } : {}) },
      spec: obj.spec ?? {},
    };
  },
};

/** ReplicaSets reduced to their controller owner (a Deployment, or e.g. an Argo Rollout). */
export const replicaSetsCollection: CollectionSpec = {
  name: REPLICASETS_COLLECTION,
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  project: (obj) => {
    const meta = metaOf(obj);
    const owners = ((meta.ownerReferences ?? []) as Obj[]).filter((o) => o.controller === true).map((o) => pick(o, ['apiVersion', 'kind', 'name', 'uid', 'controller']));
    return { metadata: { ...pick(meta, ['name', 'namespace', 'resourceVersion']), ...(owners.length ? { ownerReferences: owners } : {}) } };
  },
};

/**
 * Every active pod, reduced to its name and the two PUB annotations (~100 bytes a pod). Pods
 * without them are kept as a bare name: "known, unprotected" differs from "created after the last
 * push", which an eviction must refuse for a retry.
 */
export const podsCollection: CollectionSpec = {
  name: PODS_COLLECTION,
  apiVersion: 'v1',
  kind: 'Pod',
  select: { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' },
  project: (obj) => {
    const meta = metaOf(obj);
    const annotations = pick((meta.annotations ?? {}) as Obj, [RELATED_PUB_ANNOTATION, NO_PROTECT_ANNOTATION]);
    // Pushes diff by resourceVersion: a stamp of what is kept sends a pod again only when that
    // changes, not on every status update.
    const resourceVersion = `${String(meta.uid ?? '')}|${String(annotations[RELATED_PUB_ANNOTATION] ?? '')}|${String(annotations[NO_PROTECT_ANNOTATION] ?? '')}`;
    return { metadata: { ...pick(meta, ['name', 'namespace']), resourceVersion, ...(Object.keys(annotations).length ? { annotations } : {}) } };
  },
};

export const pubCollections: readonly CollectionSpec[] = [pubsCollection, replicaSetsCollection, podsCollection];
