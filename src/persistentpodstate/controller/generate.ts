// The PersistentPodState a StatefulSet asks for with `kruise.io/auto-generate-persistent-pod-state:
// "true"` (OpenKruise newStatefulSetPersistentPodState): named after the workload, controlled by
// it, its topology and annotation keys from the comma-separated `kruise.io/required-persistent-
// topology`, `kruise.io/preferred-persistent-topology` (weight 100) and `kruise.io/persistent-pod-
// annotations`. Without either topology annotation none is generated. Pure.
import type { KubeObject } from '../../kube/http.js';
import { AUTO_GENERATE_ANNOTATION, POD_ANNOTATIONS_ANNOTATION, PPS_API_VERSION, PPS_KIND, PREFERRED_TOPOLOGY_ANNOTATION, REQUIRED_TOPOLOGY_ANNOTATION } from '../types.js';
import type { PersistentPodStateSpec } from '../../api/apps/persistentpodstate.js';

export type StatefulSetLike = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; uid?: string; annotations?: Record<string, string>; deletionTimestamp?: string | null };
  spec?: { replicas?: number; selector?: unknown; reserveOrdinals?: unknown[] | null };
};

export function wantsGenerated(sts: StatefulSetLike): boolean {
  const a = sts.metadata.annotations ?? {};
  return a[AUTO_GENERATE_ANNOTATION] === 'true' && !!(a[REQUIRED_TOPOLOGY_ANNOTATION] || a[PREFERRED_TOPOLOGY_ANNOTATION]);
}

export function generatedSpec(sts: StatefulSetLike): PersistentPodStateSpec {
  const a = sts.metadata.annotations ?? {};
  const spec: PersistentPodStateSpec = { targetRef: { apiVersion: sts.apiVersion, kind: sts.kind, name: sts.metadata.name } };
  if (a[REQUIRED_TOPOLOGY_ANNOTATION]) spec.requiredPersistentTopology = { nodeTopologyKeys: a[REQUIRED_TOPOLOGY_ANNOTATION].split(',') };
  if (a[POD_ANNOTATIONS_ANNOTATION]) spec.persistentPodAnnotations = a[POD_ANNOTATIONS_ANNOTATION].split(',').map((key) => ({ key }));
  if (a[PREFERRED_TOPOLOGY_ANNOTATION]) spec.preferredPersistentTopology = [{ weight: 100, preference: { nodeTopologyKeys: a[PREFERRED_TOPOLOGY_ANNOTATION].split(',') } }];
  return spec;
}

export function generatedObject(sts: StatefulSetLike): KubeObject {
  return {
    apiVersion: PPS_API_VERSION,
    kind: PPS_KIND,
    metadata: {
      name: sts.metadata.name,
      namespace: sts.metadata.namespace,
      ownerReferences: [{ apiVersion: sts.apiVersion, kind: sts.kind, name: sts.metadata.name, uid: sts.metadata.uid ?? '', controller: true }],
    },
    spec: generatedSpec(sts),
  } as KubeObject;
}
