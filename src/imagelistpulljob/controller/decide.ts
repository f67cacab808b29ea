// The ImageListPullJob controller's decisions (OpenKruise: imagelistpulljob_controller.go), per
// list job: keep the template hash label current; a finished job waits out its TTL, then goes; a
// running one gets its status from its ImagePullJobs, one new ImagePullJob per image that has
// none or whose ImagePullJob was made from an older template (that one is deleted), and the
// ImagePullJobs of images no longer listed are deleted. Creations go in slow-start batches. Pure.
import type { KubeObject } from '../../kube/http.js';
import { emptyPlan, type Plan, type Write } from '../../reconcile/types.js';
import { timeOf } from '../../workload/pods.js';
import { CHILD_API_VERSION, CHILD_KIND, TEMPLATE_HASH_LABEL, imageListPullJobRef, type ChildImagePullJob, type StoredImageListPullJob } from '../types.js';
import type { ImageListPullJobObserved } from './observe.js';
import { listJobStatus, statusChanged } from './status.js';
import { isConsistent, newChild, templateHash } from './template.js';

type Run = { job: StoredImageListPullJob; now: Date; plan: Plan; wakes: number[] };

const why = (job: StoredImageListPullJob, text: string) => `ImageListPullJob ${job.metadata.name}: ${text}`;

function deleteChild(run: Run, child: ChildImagePullJob, text: string): void {
  run.plan.writes.push({
    op: 'delete',
    target: { apiVersion: CHILD_API_VERSION, kind: CHILD_KIND, name: child.metadata.name, namespace: child.metadata.namespace },
    ...(child.metadata.uid ? { preconditions: { uid: child.metadata.uid } } : {}),
    propagationPolicy: 'Background',
    reason: why(run.job, text),
  });
}

/** A finished job: deleted once ttlSecondsAfterFinished has passed, else woken then. */
function decideFinished(run: Run, completionTime: string): void {
  const { job, now } = run;
  const ttl = job.spec.completionPolicy?.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null) return;
  const left = timeOf(completionTime) + ttl * 1000 - now.getTime();
  if (left > 0) {
    run.wakes.push(left);
    return;
  }
  run.plan.writes.push({ op: 'delete', target: imageListPullJobRef(job), ...(job.metadata.uid ? { preconditions: { uid: job.metadata.uid } } : {}), propagationPolicy: 'Background', reason: why(job, 'ttlSecondsAfterFinished has passed') });
}

/** The live ImagePullJobs by image (a later one of the same image wins, as in OpenKruise's map). */
function byImage(children: readonly ChildImagePullJob[]): Map<string, ChildImagePullJob> {
  const out = new Map<string, ChildImagePullJob>();
  for (const c of children) if (!c.metadata.deletionTimestamp && c.spec.image) out.set(c.spec.image, c);
  return out;
}

function decideJob(run: Run, children: readonly ChildImagePullJob[]): void {
  const { job, plan, now } = run;
  const hash = templateHash(job);
  if (job.metadata.labels?.[TEMPLATE_HASH_LABEL] !== hash) {
    plan.writes.push({ op: 'patch', target: imageListPullJobRef(job), patchType: 'merge', patch: { metadata: { labels: { [TEMPLATE_HASH_LABEL]: hash } } }, reason: why(job, `template hash ${hash}`) });
  }
  if (job.status?.completionTime) return decideFinished(run, job.status.completionTime);

  const current = byImage(children);
  const status = listJobStatus(job, current, now);
  const images = job.spec.images ?? [];
  const creates: Write[] = [];
  let deletes = 0;
  for (const image of images) {
    const child = current.get(image);
    if (child && isConsistent(child, job, hash)) continue;
    if (child) {
      deleteChild(run, child, `ImagePullJob ${child.metadata.name} was made from an older template`);
      deletes++;
    }
    const object: KubeObject = newChild(job, image, hash);
    creates.push({ op: 'create', object, reason: why(job, `pull ${image}`), slowStart: { group: `imagelistpulljob/${job.metadata.uid ?? job.metadata.name}`, unit: image } });
  }
  for (const [image, child] of current) {
    if (images.includes(image)) continue;
    deleteChild(run, child, `${image} is no longer listed`);
    deletes++;
  }
  plan.writes.push(...creates);
  const regarding = { ...imageListPullJobRef(job), ...(job.metadata.uid ? { uid: job.metadata.uid } : {}) };
  if (creates.length) plan.events.push({ regarding, type: 'Normal', reason: 'Successful create ImagePullJob', message: `Create ${creates.length} ImagePullJob` });
  if (deletes) plan.events.push({ regarding, type: 'Normal', reason: 'Successful delete ImagePullJob', message: `Delete ${deletes} ImagePullJob` });
  if (statusChanged(job.status, status)) {
    plan.status.push({
      target: imageListPullJobRef(job),
      status: { ...status },
      ...(job.metadata.resourceVersion ? { resourceVersion: job.metadata.resourceVersion } : {}),
      reason: why(job, `${status.completed} of ${status.desired} completed, ${status.succeeded} succeeded, ${status.active} active`),
    });
  }
}

export function decideImageListPullJobs(o: ImageListPullJobObserved, now: Date): Plan {
  const plan = emptyPlan();
  const wakes: number[] = [];
  for (const job of o.jobs) decideJob({ job, now, plan, wakes }, o.childrenByJob.get(job.metadata.uid ?? '') ?? []);
  if (wakes.length) plan.requeueAfterMs = Math.max(Math.min(...wakes), 0);
  return plan;
}
