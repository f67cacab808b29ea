// A BroadcastJob's pods as OpenKruise counts them (filterPods, isPodFailed) and the one it creates
// on a node (createPod with GetPodFromTemplate): the template with the job's two labels, controlled
// by the job, pinned to the node by required node affinity. Pure.
//
// OpenKruise lets the API server generate the name (`<job>-xxxxx`); here the 5 characters are a
// hash of the job's uid, the node and the first free index, so a run repeated on the same
// observation (a crash, a lost answer) collides on the name instead of putting a second pod there.
import { derivedPodName, pinnedToNode } from '../../workload/node-pinning.js';
import type { Pod } from '../../workload/pods.js';
import { BROADCASTJOB_API_VERSION, BROADCASTJOB_KIND, CONTROLLER_UID_LABEL, JOB_NAME_LABEL, type StoredBroadcastJob } from '../types.js';
import { controllerReference } from '../../kube/owner-reference.js';

export type PodsByState = { active: Pod[]; failed: Pod[]; succeeded: Pod[] };

/**
 * isPodFailed: an OnFailure pod whose init and app containers have restarted more than
 * `restartLimit` times in all (a Never pod fails by its phase).
 */
export function isOverRestartLimit(pod: Pod, restartLimit: number): boolean {
  if (pod.spec['restartPolicy'] !== 'OnFailure') return false;
  const statuses = [...((pod.status?.['initContainerStatuses'] as { restartCount?: number }[] | undefined) ?? []), ...(pod.status?.containerStatuses ?? [])];
  return statuses.reduce((n, s) => n + (s.restartCount ?? 0), 0) > restartLimit;
}

/** filterPods: by phase; a pod being deleted counts only once it has ended. */
export function podsByState(pods: readonly Pod[], restartLimit: number): PodsByState {
  const out: PodsByState = { active: [], failed: [], succeeded: [] };
  for (const pod of pods) {
    const phase = pod.status?.phase;
    if (phase === 'Succeeded') out.succeeded.push(pod);
    else if (phase === 'Failed') out.failed.push(pod);
    else if (!pod.metadata.deletionTimestamp) (isOverRestartLimit(pod, restartLimit) ? out.failed : out.active).push(pod);
  }
  return out;
}

export const jobPodLabels = (job: StoredBroadcastJob): Record<string, string> => ({ [JOB_NAME_LABEL]: job.metadata.name, [CONTROLLER_UID_LABEL]: job.metadata.uid ?? '' });

export function jobPodName(job: StoredBroadcastJob, node: string, taken: ReadonlySet<string>): string {
  return derivedPodName(job.metadata.name, `${job.metadata.uid ?? job.metadata.name}/${node}`, taken);
}

export function newJobPod(job: StoredBroadcastJob, node: string, name: string): Pod {
  const template = job.spec.template ?? {};
  const meta = template.metadata ?? {};
  const base = structuredClone(template.spec ?? {}) as Record<string, unknown>;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: job.metadata.namespace,
      labels: { ...(meta.labels ?? {}), ...jobPodLabels(job) },
      ...(meta.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta.finalizers?.length ? { finalizers: [...meta.finalizers] } : {}),
      ownerReferences: [controllerReference(BROADCASTJOB_API_VERSION, BROADCASTJOB_KIND, job.metadata)],
    },
    spec: { ...base, affinity: pinnedToNode(base['affinity'], node) } as unknown as Pod['spec'],
  };
}
