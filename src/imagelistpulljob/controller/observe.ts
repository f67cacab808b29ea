// What the ImageListPullJob controller reads: the list jobs in scope (either served version: the
// API server converts) and the ImagePullJobs in their namespaces, grouped by the uid of the list
// job that controls them. Fresh LISTs every run.
import type { KubeObject } from '../../kube/http.js';
import { byController } from '../../kube/by-controller.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import { CHILD_API_VERSION, CHILD_KIND, IMAGELISTPULLJOB_API_VERSION, IMAGELISTPULLJOB_GROUP, IMAGELISTPULLJOB_KIND, type ChildImagePullJob, type StoredImageListPullJob } from '../types.js';

export type ImageListPullJobObserved = {
  jobs: StoredImageListPullJob[];
  /** ImagePullJobs by the uid of the list job that controls them. */
  childrenByJob: Map<string, ChildImagePullJob[]>;
};

const inScope = (scope: Scope, job: StoredImageListPullJob) =>
  scope.kind === 'all' || scope.objects.some((o) => o.name === job.metadata.name && (o.namespace ?? '') === job.metadata.namespace);

export async function observeImageListPullJobs(kube: KubeReader, scope: Scope): Promise<ImageListPullJobObserved> {
  const all = (await kube.list<KubeObject>(IMAGELISTPULLJOB_API_VERSION, IMAGELISTPULLJOB_KIND)).items as unknown as StoredImageListPullJob[];
  const jobs = all.filter((j) => inScope(scope, j) && !j.metadata.deletionTimestamp);
  if (!jobs.length) return { jobs, childrenByJob: new Map() };
  const namespaces = [...new Set(jobs.map((j) => j.metadata.namespace))];
  const children = await kube.list<KubeObject>(CHILD_API_VERSION, CHILD_KIND, namespaces.length === 1 ? { namespace: namespaces[0]! } : {});
  return { jobs, childrenByJob: byController(children.items as unknown as ChildImagePullJob[], IMAGELISTPULLJOB_KIND, IMAGELISTPULLJOB_GROUP) };
}
