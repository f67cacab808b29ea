// The cluster state the PUB webhooks read (../shared/SEMANTICS.md §7), as collections the reconcilers push
// to the edge (or the Node/Lambda entries list live), projected to what the webhooks use:
//   podunavailablebudgets  validation (other PUBs), related-pub on pod CREATE, and rule 4 of the
//                          disruption check (the PUB named by the pod still exists)
//   pub-replicasets        the ReplicaSet → Deployment (or other controller) hop of §4.3
//   active-pods            evictions (shared with WorkloadSpread): an Eviction names a pod but carries none, so the pod's
//                          related-pub and no-protect annotations come from here; its readiness
//                          comes from the PUB's ledger, which the controller resyncs with the
//                          availability it counted (ledger.ts)
import type { CollectionSpec } from '../edge-state/contracts.js';
import { asObj, metaOf, pick, type Obj } from '../kube/projection.js';
import { lastStatusWriter, STATUS_WRITER_FIELD } from '../kube/managed-fields.js';
import { ACTIVE_PODS_COLLECTION, activePodsCollection } from '../kube/active-pods.js';
import { PROTECT_OPERATIONS_ANNOTATION, PROTECT_TOTAL_REPLICAS_ANNOTATION, PUB_API_VERSION, PUB_KIND } from './types.js';

export const PUBS_COLLECTION = 'podunavailablebudgets';
export const REPLICASETS_COLLECTION = 'pub-replicasets';
export const PODS_COLLECTION = ACTIVE_PODS_COLLECTION;

const STATUS_FIELDS = ['observedGeneration', 'unavailableAllowed', 'currentAvailable', 'desiredAvailable', 'totalReplicas', 'disruptedPods', 'unavailablePods'];

/**
 * PUBs with their spec, the annotations PUB logic reads and the budget their status records: a
 * ledger the controller has not resynced yet is seeded from it (recorded.ts). Status writes reach
 * the edge through the observer (`podunavailablebudgets/status` UPDATE), whoever makes them; the
 * projection notes who that was (managedFields).
 */
export const pubsCollection: CollectionSpec = {
  name: PUBS_COLLECTION,
  apiVersion: PUB_API_VERSION,
  kind: PUB_KIND,
  select: { managedFields: 'keep' },
  project: (obj) => {
    const meta = metaOf(obj);
    const annotations = pick((meta.annotations ?? {}) as Obj, [PROTECT_OPERATIONS_ANNOTATION, PROTECT_TOTAL_REPLICAS_ANNOTATION]);
    const status = pick(asObj(obj.status), STATUS_FIELDS);
    const statusWriter = Object.keys(status).length ? lastStatusWriter(meta) : undefined;
    return {
      metadata: { ...pick(meta, ['name', 'namespace', 'uid', 'generation', 'resourceVersion']), ...(Object.keys(annotations).length ? { annotations } : {}) },
      spec: obj.spec ?? {},
      ...(Object.keys(status).length ? { status } : {}),
      ...(statusWriter ? { [STATUS_WRITER_FIELD]: statusWriter } : {}),
    };
  },
  writesStatus: true,
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

/** Active pods (shared with WorkloadSpread's evictions): src/kube/active-pods.ts. */
export const podsCollection: CollectionSpec = activePodsCollection;

export const pubCollections: readonly CollectionSpec[] = [pubsCollection, replicaSetsCollection, podsCollection];
