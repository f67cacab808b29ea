// The cluster state the WorkloadSpread webhooks read (../shared/SEMANTICS.md §7), as collections pushed to
// the edge (or listed live by the Node/Lambda entries), each projected to what the webhooks use:
// the WorkloadSpreads themselves, the workloads pods are owned by (owner chains, target replicas,
// pod templates for patch validation) and the kruise-configuration ConfigMap (custom workloads).
// Subset counts are not here: they live in the ledger (ledger.ts).
import type { CollectionSpec } from '../edge-state/contracts.js';
import { asObj, pick, type Obj } from '../kube/projection.js';
import { ACTIVE_PODS_COLLECTION, activePodsCollection } from '../kube/active-pods.js';
import { KRUISE_CONFIGURATION_COLLECTION, kruiseConfigurationCollection } from '../kube/kruise-configuration.js';
import { lastStatusWriter, STATUS_WRITER_FIELD } from '../kube/managed-fields.js';
import { POD_TEMPLATE_HASH_LABEL, WS_API_VERSION, WS_KIND } from './types.js';

export const WORKLOADSPREADS_COLLECTION = 'workloadspreads';


/** name, namespace, uid, generation, deletionTimestamp and the controller owner reference only. */
function identity(obj: Obj): Obj {
  const meta = asObj(obj.metadata);
  const keep = ['name', 'namespace', 'uid', 'generation', 'resourceVersion', 'deletionTimestamp'];
  const out: Obj = pick(meta, keep);
  const owner = (Array.isArray(meta.ownerReferences) ? meta.ownerReferences : []).map(asObj).find((r) => r.controller === true);
  if (owner) out.ownerReferences = [{ apiVersion: owner.apiVersion, kind: owner.kind, name: owner.name, uid: owner.uid, controller: true }];
  return out;
}

/** Containers, init containers and volumes of the template: what patch validation checks. */
function templateParts(spec: Obj): Obj {
  const podSpec = asObj(asObj(spec.template).spec);
  const parts = ['containers', 'initContainers', 'volumes'].filter((k) => podSpec[k] !== undefined);
  return { spec: Object.fromEntries(parts.map((k) => [k, podSpec[k]])) };
}

/** A workload: its spec without the pod template (replicas paths may point anywhere) plus the template's parts. */
function projectWorkload(obj: Obj): Obj {
  const { template, volumeClaimTemplates, ...spec } = asObj(obj.spec);
  const claims = Array.isArray(volumeClaimTemplates) ? volumeClaimTemplates.map((c) => ({ metadata: { name: asObj(asObj(c).metadata).name } })) : undefined;
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    metadata: identity(obj),
    spec: { ...spec, ...(template ? { template: templateParts({ template }) } : {}), ...(claims ? { volumeClaimTemplates: claims } : {}) },
  };
}

function workloadCollection(name: string, apiVersion: string, kind: string): CollectionSpec {
  return { name, apiVersion, kind, project: projectWorkload };
}

/**
 * Every WorkloadSpread: spec and status. Status keeps Schedulable conditions for StatefulSet
 * ordinals and the subset accounts a ledger not resynced yet is seeded from or takes in
 * (choose.ts); status writes reach the edge through the observer (`workloadspreads/status`
 * UPDATE), whoever makes them, and the projection notes who that was (managedFields).
 */
export const workloadSpreadsCollection: CollectionSpec = {
  name: WORKLOADSPREADS_COLLECTION,
  apiVersion: WS_API_VERSION,
  kind: WS_KIND,
  select: { managedFields: 'keep' },
  project: (obj) => {
    const status = asObj(obj.status);
    const statusWriter = Object.keys(status).length ? lastStatusWriter(obj.metadata) : undefined;
    return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: identity(obj), spec: obj.spec, status, ...(statusWriter ? { [STATUS_WRITER_FIELD]: statusWriter } : {}) };
  },
  writesStatus: true,
};

/** ReplicaSets are numerous (ten old revisions per Deployment): identity, pod-template-hash, replicas. */
export const replicaSetsCollection: CollectionSpec = {
  name: 'workloadspread-replicasets',
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  project: (obj) => {
    const labels = asObj(asObj(obj.metadata).labels);
    const hash = labels[POD_TEMPLATE_HASH_LABEL];
    return {
      apiVersion: obj.apiVersion,
      kind: obj.kind,
      metadata: { ...identity(obj), ...(typeof hash === 'string' ? { labels: { [POD_TEMPLATE_HASH_LABEL]: hash } } : {}) },
      spec: { replicas: asObj(obj.spec).replicas },
    };
  },
};

/** The workload collections by kind and group ('' group never occurs: workloads are grouped). */
export const WORKLOAD_COLLECTIONS: readonly { group: string; kind: string; spec: CollectionSpec }[] = [
  { group: 'apps', kind: 'ReplicaSet', spec: replicaSetsCollection },
  { group: 'apps', kind: 'Deployment', spec: workloadCollection('workloadspread-deployments', 'apps/v1', 'Deployment') },
  { group: 'apps', kind: 'StatefulSet', spec: workloadCollection('workloadspread-statefulsets', 'apps/v1', 'StatefulSet') },
  { group: 'batch', kind: 'Job', spec: workloadCollection('workloadspread-jobs', 'batch/v1', 'Job') },
  { group: 'apps.kruise.io', kind: 'CloneSet', spec: workloadCollection('workloadspread-clonesets', 'apps.kruise.io/v1alpha1', 'CloneSet') },
  { group: 'apps.kruise.io', kind: 'StatefulSet', spec: workloadCollection('workloadspread-advanced-statefulsets', 'apps.kruise.io/v1beta1', 'StatefulSet') },
];

/** The collection holding workloads of this group and kind, if any (custom kinds have none). */
export function workloadCollectionFor(group: string, kind: string): string | undefined {
  return WORKLOAD_COLLECTIONS.find((c) => c.group === group && c.kind === kind)?.spec.name;
}

/** Active pods, for evictions (shared with PUB): src/kube/active-pods.ts. */
export const WORKLOADSPREAD_PODS_COLLECTION = ACTIVE_PODS_COLLECTION;
export const workloadSpreadPodsCollection: CollectionSpec = activePodsCollection;

export const workloadSpreadCollections: readonly CollectionSpec[] = [
  workloadSpreadsCollection,
  kruiseConfigurationCollection,
  workloadSpreadPodsCollection,
  ...WORKLOAD_COLLECTIONS.map((c) => c.spec),
];
