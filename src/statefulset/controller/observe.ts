// What the Advanced StatefulSet controller reads, fresh every run: the StatefulSets in scope, the
// pods carrying `statefulset.kubernetes.io/pod-name` (one LIST however many sets; native
// StatefulSets' pods are told apart by their controller), the ControllerRevisions, the PVCs when
// some set has volumeClaimTemplates, and the PodUnavailableBudgets. No in-memory expectations.
import type { PodUnavailableBudget } from '../../api/policy/podunavailablebudget.js';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import { listDisruptionBudgets } from '../../workload/list-budgets.js';
import { podListQuery } from '../../workload/pod-list-query.js';
import { orphanPods } from '../../workload/pod-claims.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { POD_NAME_LABEL, STATEFULSET_API_VERSION, STATEFULSET_KIND, type StoredStatefulSet } from '../types.js';
import { byController } from '../../kube/by-controller.js';

export type Pvc = KubeObject & {
  metadata: { name: string; namespace: string; uid?: string; resourceVersion?: string; labels?: Record<string, string>; deletionTimestamp?: string; ownerReferences?: OwnerRef[] };
};
export type OwnerRef = { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean };

export type StatefulSetObserved = {
  sets: StoredStatefulSet[];
  /** Pods by the uid of the StatefulSet that controls them, whatever their labels (pod-claims.ts sorts them out). */
  podsByOwner: Map<string, Pod[]>;
  /** Pods no controller owns, which a StatefulSet adopts when they are its members and its selector matches. */
  orphans?: Pod[];
  /** PVCs by `namespace/name`. */
  pvcs: Map<string, Pvc>;
  revisions: ControllerRevision[];
  budgets: PodUnavailableBudget[];
};

const inScope = (scope: Scope, set: StoredStatefulSet) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === set.metadata.name && (o.namespace ?? '') === set.metadata.namespace);

export async function observeStatefulSets(kube: KubeReader, scope: Scope): Promise<StatefulSetObserved> {
  const all = (await kube.list<KubeObject>(STATEFULSET_API_VERSION, STATEFULSET_KIND)).items as unknown as StoredStatefulSet[];
  const sets = all.filter((s) => inScope(scope, s) && !s.metadata.deletionTimestamp);
  if (!sets.length) return { sets, podsByOwner: new Map(), pvcs: new Map(), revisions: [], budgets: [] };
  const namespaces = [...new Set(sets.map((s) => s.metadata.namespace))];
  const namespace = namespaces.length === 1 ? { namespace: namespaces[0]! } : {};
  const claims = sets.some((s) => (s.spec.volumeClaimTemplates ?? []).length > 0);
  const [pods, revisions, budgets, pvcs] = await Promise.all([
    kube.list<KubeObject>('v1', 'Pod', podListQuery(sets, POD_NAME_LABEL)),
    kube.list<KubeObject>('apps/v1', 'ControllerRevision', namespace),
    listDisruptionBudgets(kube, namespace.namespace),
    claims ? kube.list<KubeObject>('v1', 'PersistentVolumeClaim', namespace) : undefined,
  ]);
  return {
    sets,
    podsByOwner: byController(pods.items as unknown as Pod[], STATEFULSET_KIND, 'apps.kruise.io'),
    orphans: orphanPods(pods.items as unknown as Pod[]),
    pvcs: new Map(((pvcs?.items ?? []) as unknown as Pvc[]).map((p) => [`${p.metadata.namespace}/${p.metadata.name}`, p])),
    revisions: revisions.items as unknown as ControllerRevision[],
    budgets,
  };
}
