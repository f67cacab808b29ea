// The active pods as webhooks at the edge need them when a request names a pod without carrying
// it (an Eviction): one collection, pushed once, that every such feature reads, rather than each
// feature LISTing every pod of the cluster on each resync. Each pod is kept to the few fields those
// features read (PUB: related-pub, no-protect; WorkloadSpread: its subset annotation, version
// labels and controller); a pod with none of those annotations is kept as a bare name, since
// "known, unannotated" differs from "created after the last push". An item's resourceVersion is a
// stamp of what is kept, so a push resends a pod only when that changes, not on status updates.
import type { CollectionSpec } from '../edge-state/contracts.js';
import { asObj, pick, type Obj } from './projection.js';

export const ACTIVE_PODS_COLLECTION = 'active-pods';

const KEPT_ANNOTATIONS = ['kruise.io/related-pub', 'pub.kruise.io/no-protect', 'apps.kruise.io/matched-workloadspread'];
const KEPT_LABELS = ['pod-template-hash', 'controller-revision-hash'];

function controllerRef(meta: Obj): Obj[] {
  const owner = (Array.isArray(meta.ownerReferences) ? meta.ownerReferences : []).map(asObj).find((r) => r.controller === true);
  return owner ? [{ ...pick(owner, ['apiVersion', 'kind', 'name', 'uid']), controller: true }] : [];
}

export function projectActivePod(obj: Obj): Obj {
  const meta = asObj(obj.metadata);
  const base = pick(meta, ['name', 'namespace']);
  const annotations = pick(asObj(meta.annotations), KEPT_ANNOTATIONS);
  if (Object.keys(annotations).length === 0) return { metadata: { ...base, resourceVersion: '-' } };
  const labels = pick(asObj(meta.labels), KEPT_LABELS);
  const ownerReferences = controllerRef(meta);
  return { metadata: { ...base, annotations, labels, ownerReferences, resourceVersion: JSON.stringify([annotations, labels, ownerReferences]) } };
}

export const activePodsCollection: CollectionSpec = {
  name: ACTIVE_PODS_COLLECTION,
  apiVersion: 'v1',
  kind: 'Pod',
  select: { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' },
  project: projectActivePod,
};
