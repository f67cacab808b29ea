// What the BroadcastJob controller reads: the jobs in scope, every Node, and the jobs' pods (one
// LIST in the namespace by `broadcastjob-controller-uid=<uid>` when one job is in scope, else every
// pod carrying that label). Fresh LISTs every run, no expectations kept in memory.
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import { BROADCASTJOB_API_VERSION, BROADCASTJOB_KIND, CONTROLLER_UID_LABEL, type StoredBroadcastJob } from '../types.js';
import { byController } from '../../kube/by-controller.js';

export type BroadcastJobObserved = {
  jobs: StoredBroadcastJob[];
  nodes: Node[];
  /** Pods by the uid of the job that controls them. */
  podsByJob: Map<string, Pod[]>;
};

const inScope = (scope: Scope, job: StoredBroadcastJob) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === job.metadata.name && (o.namespace ?? '') === job.metadata.namespace);

export async function observeBroadcastJobs(kube: KubeReader, scope: Scope): Promise<BroadcastJobObserved> {
  const all = (await kube.list<KubeObject>(BROADCASTJOB_API_VERSION, BROADCASTJOB_KIND)).items as unknown as StoredBroadcastJob[];
  const jobs = all.filter((j) => inScope(scope, j) && !j.metadata.deletionTimestamp);
  if (!jobs.length) return { jobs, nodes: [], podsByJob: new Map() };
  const namespaces = [...new Set(jobs.map((j) => j.metadata.namespace))];
  const only = jobs.length === 1 ? jobs[0]! : undefined;
  const pods = only
    ? { namespace: only.metadata.namespace, labelSelector: `${CONTROLLER_UID_LABEL}=${only.metadata.uid ?? ''}` }
    : { ...(namespaces.length === 1 ? { namespace: namespaces[0]! } : {}), labelSelector: CONTROLLER_UID_LABEL };
  const [nodeList, podList] = await Promise.all([kube.list<KubeObject>('v1', 'Node'), kube.list<KubeObject>('v1', 'Pod', pods)]);
  return { jobs, nodes: nodeList.items as unknown as Node[], podsByJob: byController(podList.items as unknown as Pod[], BROADCASTJOB_KIND) };
}
