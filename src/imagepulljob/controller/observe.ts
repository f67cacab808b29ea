// What the ImagePullJob controller reads: the jobs in scope, every Node, the pull pods (one LIST
// by the job's uid label when one job is in scope, else every pod carrying it), and for each
// running job with a podSelector the pods it selects in its namespace. Fresh LISTs every run.
import type { KubeObject } from '../../kube/http.js';
import { formatLabelSelector } from '../../kube/selectors.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Node } from '../../workload/nodes.js';
import type { Pod } from '../../workload/pods.js';
import { IMAGEPULLJOB_API_VERSION, IMAGEPULLJOB_KIND, JOB_UID_LABEL, type StoredImagePullJob } from '../types.js';
import { byController } from '../../kube/by-controller.js';

export type ImagePullJobObserved = {
  jobs: StoredImagePullJob[];
  nodes: Node[];
  /** Pull pods by the uid of the job that controls them. */
  podsByJob: Map<string, Pod[]>;
  /** The pods a job's podSelector selects, by the job's uid. */
  selectedPods: Map<string, Pod[]>;
};

const inScope = (scope: Scope, job: StoredImagePullJob) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === job.metadata.name && (o.namespace ?? '') === job.metadata.namespace);

export async function observeImagePullJobs(kube: KubeReader, scope: Scope): Promise<ImagePullJobObserved> {
  const all = (await kube.list<KubeObject>(IMAGEPULLJOB_API_VERSION, IMAGEPULLJOB_KIND)).items as unknown as StoredImagePullJob[];
  const jobs = all.filter((j) => inScope(scope, j) && !j.metadata.deletionTimestamp);
  if (!jobs.length) return { jobs, nodes: [], podsByJob: new Map(), selectedPods: new Map() };
  const namespaces = [...new Set(jobs.map((j) => j.metadata.namespace))];
  const only = jobs.length === 1 ? jobs[0]! : undefined;
  const pulls = only
    ? { namespace: only.metadata.namespace, labelSelector: `${JOB_UID_LABEL}=${only.metadata.uid ?? ''}` }
    : { ...(namespaces.length === 1 ? { namespace: namespaces[0]! } : {}), labelSelector: JOB_UID_LABEL };
  const selecting = jobs.filter((j) => j.spec.podSelector && !j.status?.completionTime);
  const [nodeList, podList, ...selected] = await Promise.all([
    kube.list<KubeObject>('v1', 'Node'),
    kube.list<KubeObject>('v1', 'Pod', pulls),
    ...selecting.map((j) => {
      const text = formatLabelSelector(j.spec.podSelector);
      return kube.list<KubeObject>('v1', 'Pod', { namespace: j.metadata.namespace, ...(text === '<none>' ? {} : { labelSelector: text }) });
    }),
  ]);
  const selectedPods = new Map(selecting.map((j, i) => [j.metadata.uid ?? '', selected[i]!.items as unknown as Pod[]]));
  return { jobs, nodes: nodeList.items as unknown as Node[], podsByJob: byController(podList.items as unknown as Pod[], IMAGEPULLJOB_KIND), selectedPods };
}
