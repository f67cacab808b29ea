// Which matched pods get the job's ephemeral containers next, and the requests that add them
// through pods/ephemeralcontainers (OpenKruise: getSyncPods, syncTargetPods, econtainer_k8s.go).
// A container is the job's when it carries KRUISE_EJOB_ID=<job uid>. Pure.
import type { V1EphemeralContainer, V1Pod } from '@kubernetes/client-node';
import type { EphemeralJob } from '../../api/apps/ephemeraljob.js';

/** appsv1alpha1.EphemeralContainerEnvKey: the job's uid on each container it injects. */
export const EJOB_ID_ENV = 'KRUISE_EJOB_ID';
const DEFAULT_PARALLELISM = 1;

type JobView = Pick<EphemeralJob, 'spec'> & { metadata: { uid?: string }; status?: { running?: number } };

const isCreatedBy = (uid: string, c: V1EphemeralContainer) => (c.env ?? []).some((e) => e.name === EJOB_ID_ENV && e.value === uid);

/** getSyncPods: the pods that have none of the job's containers yet. */
export function podsWithout(job: JobView, pods: readonly V1Pod[]): V1Pod[] {
  const names = new Set((job.spec.template.ephemeralContainers ?? []).map((c) => c.name));
  if (names.size === 0) return [];
  const uid = job.metadata.uid ?? '';
  return pods.filter((pod) => !(pod.spec?.ephemeralContainers ?? []).some((c) => names.has(c.name) && isCreatedBy(uid, c)));
}

/** syncTargetPods: up to parallelism minus the running count of them, in the given order. */
export function podsToInject(job: JobView, pods: readonly V1Pod[]): V1Pod[] {
  const candidates = podsWithout(job, pods);
  const parallelism = Math.min(job.spec.parallelism ?? DEFAULT_PARALLELISM, candidates.length);
  const room = parallelism - (job.status?.running ?? 0);
  return room > 0 ? candidates.slice(0, room) : [];
}

/** The template's containers, each with KRUISE_EJOB_ID appended to its env. */
export function containersFor(job: JobView): V1EphemeralContainer[] {
  const uid = job.metadata.uid ?? '';
  return (job.spec.template.ephemeralContainers ?? []).map((c) => ({ ...c, env: [...(c.env ?? []), { name: EJOB_ID_ENV, value: uid }] }));
}

/** Kubernetes ≥ 1.22: a strategic merge patch of the Pod (ephemeralContainers merge by name). */
export function podPatch(job: JobView): { spec: { ephemeralContainers: V1EphemeralContainer[] } } {
  return { spec: { ephemeralContainers: containersFor(job) } };
}

/** Kubernetes < 1.22 (the EphemeralContainers kind, alpha): a JSON patch appending to its list. */
export function legacyJsonPatch(job: JobView): { op: 'add'; path: '/ephemeralContainers/-'; value: V1EphemeralContainer }[] {
  return containersFor(job).map((value) => ({ op: 'add', path: '/ephemeralContainers/-', value }));
}
