// What the CloneSet controller reads: the CloneSets in scope, the pods and PVCs CloneSets created
// (one LIST each by the instance-id label, however many CloneSets; a run for one CloneSet without
// volumeClaimTemplates reads only the pods its selector matches), the ControllerRevisions and
// the PodUnavailableBudgets. Fresh LISTs every run: no in-memory expectations, so nothing can leak
// and stall a CloneSet (kruise#1765). Each LIST is at least as new as this client's own writes
// (readYourWrites): from the API server's watch cache once the client has written, so a LIST's cost
// does not grow with the other pods in the namespace.
import type { PodUnavailableBudget } from '../../api/policy/podunavailablebudget.js';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import { listDisruptionBudgets } from '../../workload/list-budgets.js';
import { podListQuery } from '../../workload/pod-list-query.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import type { PreDownloadJob } from './predownload.js';
import { CLONESET_API_VERSION, CLONESET_KIND, INSTANCE_ID_LABEL, type StoredCloneSet } from '../types.js';
import { byController } from '../../kube/by-controller.js';

export type Pvc = KubeObject & { metadata: { name: string; namespace: string; uid?: string; labels?: Record<string, string>; deletionTimestamp?: string } };

export type CloneSetObserved = {
  cloneSets: StoredCloneSet[];
  /** Pods with the instance-id label, by the uid of the CloneSet that controls them. */
  podsByOwner: Map<string, Pod[]>;
  /** PVCs with the instance-id label, by the uid of the CloneSet that owns them. */
  pvcsByOwner?: Map<string, Pvc[]>;
  revisions: ControllerRevision[];
  budgets?: PodUnavailableBudget[];
  /** Node labels by node name: read only when a CloneSet's template has topologySpreadConstraints (its scale-in ranker needs them). */
  nodeLabels?: Map<string, Record<string, string>>;
  /** ImagePullJobs in the CloneSets' namespaces: read only with PreDownloadImageForInPlaceUpdate. */
  imagePullJobs?: PreDownloadJob[];
};

/** The topology keys of the template's topologySpreadConstraints (GetPodSpreadConstraint). */
export function spreadTopologyKeys(cs: StoredCloneSet): string[] {
  const constraints = (cs.spec.template?.spec as { topologySpreadConstraints?: { topologyKey?: string }[] } | undefined)?.topologySpreadConstraints ?? [];
  return constraints.map((c) => c.topologyKey ?? '').filter(Boolean);
}

const inScope = (scope: Scope, cs: StoredCloneSet) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === cs.metadata.name && (o.namespace ?? '') === cs.metadata.namespace);

export async function observeCloneSets(kube: KubeReader, scope: Scope, opts: { imagePullJobs?: boolean } = {}): Promise<CloneSetObserved> {
  const fresh = { readYourWrites: true };
  const all = (await kube.list<KubeObject>(CLONESET_API_VERSION, CLONESET_KIND, fresh)).items as unknown as StoredCloneSet[];
  const cloneSets = all.filter((cs) => inScope(scope, cs) && !cs.metadata.deletionTimestamp);
  if (!cloneSets.length) return { cloneSets, podsByOwner: new Map(), pvcsByOwner: new Map(), revisions: [], budgets: [] };
  const namespaces = [...new Set(cloneSets.map((cs) => cs.metadata.namespace))];
  // One namespace: LIST there; several: one LIST across the cluster.
  const namespace = namespaces.length === 1 ? { namespace: namespaces[0]!, ...fresh } : fresh;
  const spread = cloneSets.some((cs) => spreadTopologyKeys(cs).length > 0);
  const [pods, pvcs, revisions, budgets, nodes, jobs] = await Promise.all([
    // Narrowed to the selector only without volumeClaimTemplates: a pod relabelled out of the
    // CloneSet still holds its instance id, which PVC reuse must not hand to a new pod.
    kube.list<KubeObject>('v1', 'Pod', { ...podListQuery(cloneSets, INSTANCE_ID_LABEL, !cloneSets.some((cs) => cs.spec.volumeClaimTemplates?.length)), ...fresh }),
    kube.list<KubeObject>('v1', 'PersistentVolumeClaim', { ...namespace, labelSelector: INSTANCE_ID_LABEL }),
    kube.list<KubeObject>('apps/v1', 'ControllerRevision', namespace),
    listDisruptionBudgets(kube, 'namespace' in namespace ? namespace.namespace : undefined),
    spread ? kube.list<KubeObject>('v1', 'Node') : undefined,
    opts.imagePullJobs ? kube.list<KubeObject>('apps.kruise.io/v1alpha1', 'ImagePullJob', namespace) : undefined,
  ]);
  return {
    cloneSets,
    podsByOwner: byController(pods.items as unknown as Pod[], CLONESET_KIND),
    pvcsByOwner: byController(pvcs.items as unknown as Pvc[], CLONESET_KIND),
    revisions: revisions.items as unknown as ControllerRevision[],
    budgets,
    ...(jobs ? { imagePullJobs: jobs.items as unknown as PreDownloadJob[] } : {}),
    ...(nodes ? { nodeLabels: new Map(nodes.items.map((n) => [n.metadata?.name ?? '', (n.metadata as { labels?: Record<string, string> }).labels ?? {}])) } : {}),
  };
}
