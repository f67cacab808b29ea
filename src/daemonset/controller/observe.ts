// What the Advanced DaemonSet controller reads: the DaemonSets in scope, every Node, their pods
// (one LIST in the namespace by the DaemonSet's selector when one DaemonSet is in scope, else the
// pods of the namespaces concerned) and the ControllerRevisions. Fresh LISTs every run, no
// expectations kept in memory.
import type { KubeObject } from '../../kube/http.js';
import { podListQuery } from '../../workload/pod-list-query.js';
import { orphanPods } from '../../workload/pod-claims.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { DAEMONSET_API_VERSION, DAEMONSET_KIND, type StoredDaemonSet as DaemonSet } from '../types.js';
import { byController } from '../../kube/by-controller.js';

export type DaemonSetObserved = {
  daemonSets: DaemonSet[];
  nodes: Node[];
  /** Pods by the uid of the DaemonSet that controls them, whatever their labels (claims.ts sorts them out). */
  podsByOwner: Map<string, Pod[]>;
  /** Pods no controller owns, which a DaemonSet whose selector matches them adopts. */
  orphans?: Pod[];
  revisions: ControllerRevision[];
};

const inScope = (scope: Scope, ds: DaemonSet) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === ds.metadata.name && (o.namespace ?? '') === ds.metadata.namespace);

export async function observeDaemonSets(kube: KubeReader, scope: Scope): Promise<DaemonSetObserved> {
  const all = (await kube.list<KubeObject>(DAEMONSET_API_VERSION, DAEMONSET_KIND)).items as unknown as DaemonSet[];
  const daemonSets = all.filter((ds) => inScope(scope, ds) && !ds.metadata.deletionTimestamp);
  if (!daemonSets.length) return { daemonSets, nodes: [], podsByOwner: new Map(), revisions: [] };
  const namespaces = [...new Set(daemonSets.map((ds) => ds.metadata.namespace))];
  const namespace = namespaces.length === 1 ? { namespace: namespaces[0]! } : {};
  const [nodes, pods, revisions] = await Promise.all([
    kube.list<KubeObject>('v1', 'Node'),
    kube.list<KubeObject>('v1', 'Pod', podListQuery(daemonSets)),
    kube.list<KubeObject>('apps/v1', 'ControllerRevision', namespace),
  ]);
  return {
    daemonSets,
    nodes: nodes.items as unknown as Node[],
    podsByOwner: byController(pods.items as unknown as Pod[], DAEMONSET_KIND),
    orphans: orphanPods(pods.items as unknown as Pod[]),
    revisions: revisions.items as unknown as ControllerRevision[],
  };
}
