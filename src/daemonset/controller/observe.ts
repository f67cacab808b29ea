// What the Advanced DaemonSet controller reads: the DaemonSets in scope, every Node, their pods
// (one LIST in the namespace by the DaemonSet's selector when one DaemonSet is in scope, else the
// pods of the namespaces concerned) and the ControllerRevisions. Fresh LISTs every run, no
// expectations kept in memory.
import type { KubeObject } from '../../kube/http.js';
import { podListQuery, selectedPods } from '../../workload/pod-list-query.js';
import { scopeNamespace, workloadsAndPods } from '../../workload/workloads-and-pods.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND, type DaemonSet } from '../types.js';
import { byController } from '../../kube/by-controller.js';

export type DaemonSetObserved = {
  daemonSets: DaemonSet[];
  nodes: Node[];
  /** Pods by the uid of the DaemonSet that controls them. */
  podsByOwner: Map<string, Pod[]>;
  revisions: ControllerRevision[];
};

const inScope = (scope: Scope, ds: DaemonSet) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === ds.metadata.name && (o.namespace ?? '') === ds.metadata.namespace);

export async function observeDaemonSets(kube: KubeReader, scope: Scope): Promise<DaemonSetObserved> {
  // The reads that need only the namespace (or nothing) go out with the DaemonSets' when the scope names it.
  const rest = (namespace: { namespace?: string }) => Promise.all([
    kube.list<KubeObject>('v1', 'Node'),
    kube.list<KubeObject>('apps/v1', 'ControllerRevision', namespace),
  ]);
  const inNamespace = scopeNamespace(scope);
  const early = inNamespace === undefined ? undefined : rest({ namespace: inNamespace });
  early?.catch(() => undefined); // awaited below unless no DaemonSet is found
  const { workloads: daemonSets, pods } = await workloadsAndPods(
    kube, scope, DAEMONSET_KIND,
    async () => ((await kube.list<KubeObject>(DAEMONSET_API_VERSION, DAEMONSET_KIND)).items as unknown as DaemonSet[]).filter((ds) => inScope(scope, ds) && !ds.metadata.deletionTimestamp),
    (found) => podListQuery(found),
  );
  if (!daemonSets.length) return { daemonSets, nodes: [], podsByOwner: new Map(), revisions: [] };
  const namespaces = [...new Set(daemonSets.map((ds) => ds.metadata.namespace))];
  const namespace = namespaces.length === 1 ? { namespace: namespaces[0]! } : {};
  const [nodes, revisions] = await (early ?? rest(namespace));
  return {
    daemonSets,
    nodes: nodes.items as unknown as Node[],
    podsByOwner: selectedPods(daemonSets, byController(pods as unknown as Pod[], DAEMONSET_KIND)),
    revisions: revisions.items as unknown as ControllerRevision[],
  };
}
