// What the CloneSet controller reads: the CloneSets in scope, the pods CloneSets created (one LIST
// by the instance-id label, however many CloneSets) and the ControllerRevisions. Fresh LISTs
// every run: no in-memory expectations, so nothing can leak and stall a CloneSet (kruise#1765).
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Pod } from '../../workload/pods.js';
import type { ControllerRevision } from '../../workload/revisions.js';
import { CLONESET_API_VERSION, CLONESET_KIND, INSTANCE_ID_LABEL, type CloneSet } from '../types.js';

export type CloneSetObserved = {
  cloneSets: CloneSet[];
  /** Pods with the instance-id label, by the uid of the CloneSet that controls them. */
  podsByOwner: Map<string, Pod[]>;
  revisions: ControllerRevision[];
};

const inScope = (scope: Scope, cs: CloneSet) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === cs.metadata.name && (o.namespace ?? '') === cs.metadata.namespace);

export async function observeCloneSets(kube: KubeReader, scope: Scope): Promise<CloneSetObserved> {
  const all = (await kube.list<KubeObject>(CLONESET_API_VERSION, CLONESET_KIND)).items as unknown as CloneSet[];
  const cloneSets = all.filter((cs) => inScope(scope, cs) && !(cs.metadata as { deletionTimestamp?: string }).deletionTimestamp);
  if (!cloneSets.length) return { cloneSets, podsByOwner: new Map(), revisions: [] };
  const namespaces = [...new Set(cloneSets.map((cs) => cs.metadata.namespace))];
  // One namespace: LIST there; several: one LIST across the cluster.
  const namespace = namespaces.length === 1 ? { namespace: namespaces[0]! } : {};
  const [pods, revisions] = await Promise.all([
    kube.list<KubeObject>('v1', 'Pod', { ...namespace, labelSelector: INSTANCE_ID_LABEL }),
    kube.list<KubeObject>('apps/v1', 'ControllerRevision', namespace),
  ]);
  const podsByOwner = new Map<string, Pod[]>();
  for (const pod of pods.items as unknown as Pod[]) {
    const owner = (pod.metadata.ownerReferences as { uid?: string; controller?: boolean }[] | undefined)?.find((o) => o.controller);
    if (!owner?.uid) continue;
    podsByOwner.set(owner.uid, [...(podsByOwner.get(owner.uid) ?? []), pod]);
  }
  return { cloneSets, podsByOwner, revisions: revisions.items as unknown as ControllerRevision[] };
}
