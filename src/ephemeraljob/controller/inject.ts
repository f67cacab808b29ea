// Which target pods get the job's ephemeral containers next, and the write that adds them through
// pods/<name>/ephemeralcontainers (OpenKruise: getSyncPods, syncTargetPods, econtainer_k8s.go).
// A container is the job's when it carries KRUISE_EJOB_ID=<job uid>. Pure.
import type { V1EphemeralContainer, V1Pod } from '@kubernetes/client-node';
import type { EphemeralJob } from '../../api/apps/ephemeraljob.js';
import type { ServerVersion, Write } from '../../reconcile/types.js';
import { podState } from './status.js';

/** appsv1alpha1.EphemeralContainerEnvKey: the job's uid on each container it injects. */
export const EJOB_ID_ENV = 'KRUISE_EJOB_ID';
export const EPHEMERAL_SUBRESOURCE = 'ephemeralcontainers';
const DEFAULT_PARALLELISM = 1;

type JobView = Pick<EphemeralJob, 'spec'> & { metadata: { uid?: string } };

/**
 * How the API server takes ephemeral containers. `pod` (Kubernetes ≥ 1.22): the subresource is a
 * Pod. `legacy` (1.16–1.21, the alpha `EphemeralContainers` kind behind its feature gate): the
 * subresource is an EphemeralContainers object holding the whole list.
 */
export type SubresourceShape = 'pod' | 'legacy';

/** The shape a server of this version takes; an unreadable version is taken to be current. */
export function shapeFor(version: ServerVersion | undefined): SubresourceShape {
  const major = Number.parseInt(version?.major ?? '', 10);
  const minor = Number.parseInt(version?.minor ?? '', 10);
  if (!Number.isFinite(major) || !Number.isFinite(minor)) return 'pod';
  return major === 1 && minor < 22 ? 'legacy' : 'pod';
}

export const isCreatedBy = (uid: string, c: V1EphemeralContainer) => (c.env ?? []).some((e) => e.name === EJOB_ID_ENV && e.value === uid);

const templateNames = (job: JobView) => new Set((job.spec.template.ephemeralContainers ?? []).map((c) => c.name));

/** Whether the pod has one of the template's containers that the job injected. */
export function isInjected(job: JobView, pod: V1Pod): boolean {
  const names = templateNames(job);
  const uid = job.metadata.uid ?? '';
  return (pod.spec?.ephemeralContainers ?? []).some((c) => names.has(c.name) && isCreatedBy(uid, c));
}

/** getSyncPods: the pods that have none of the job's containers yet. */
export function podsWithout(job: JobView, pods: readonly V1Pod[]): V1Pod[] {
  if (templateNames(job).size === 0) return [];
  return pods.filter((pod) => !isInjected(job, pod));
}

/**
 * Pods holding a parallelism slot: injected, and the job's containers have not all ended. Counting
 * the injected pods whose containers the kubelet has not reported yet keeps a run that comes right
 * after an injection from exceeding parallelism (OpenKruise waits on its expectations instead).
 */
export function busyPods(job: JobView, pods: readonly V1Pod[]): number {
  const names = templateNames(job);
  return pods.filter((pod) => isInjected(job, pod) && !['Succeeded', 'Failed'].includes(podState(names, pod))).length;
}

/**
 * syncTargetPods: parallelism less the busy pods, in order. OpenKruise first lowers parallelism to
 * the number of pods left to inject, then takes the running ones off, so with parallelism 5, one
 * running and one new pod it injects none until the running one ends; here the new pod gets its
 * containers (docs/features/ephemeraljob.md, departures).
 */
export function podsToInject(job: JobView, pods: readonly V1Pod[]): V1Pod[] {
  const room = (job.spec.parallelism ?? DEFAULT_PARALLELISM) - busyPods(job, pods);
  return room > 0 ? podsWithout(job, pods).slice(0, room) : [];
}

/** The template's containers, each with KRUISE_EJOB_ID appended to its env. */
export function containersFor(job: JobView): V1EphemeralContainer[] {
  const uid = job.metadata.uid ?? '';
  return (job.spec.template.ephemeralContainers ?? []).map((c) => ({ ...c, env: [...(c.env ?? []), { name: EJOB_ID_ENV, value: uid }] }));
}

/** ≥ 1.22: a strategic merge patch of the Pod; ephemeralContainers merge by name, so a second one changes nothing. */
export function podPatch(job: JobView): { spec: { ephemeralContainers: V1EphemeralContainer[] } } {
  return { spec: { ephemeralContainers: containersFor(job) } };
}

/**
 * < 1.22: a JSON patch of the EphemeralContainers object setting the whole list (the pod's, then
 * the job's), after a `test` of the pod's resourceVersion: if the pod changed since it was read
 * the test fails and the next run reads it again, so two runs never both add. (A resourceVersion
 * in a merge patch is no precondition here: the server rebuilds the pod from the stored one.)
 */
export function legacyPatch(job: JobView, pod: V1Pod): ({ op: 'test'; path: '/metadata/resourceVersion'; value: string } | { op: 'add'; path: '/ephemeralContainers'; value: V1EphemeralContainer[] })[] {
  const rv = pod.metadata?.resourceVersion;
  return [
    ...(rv ? [{ op: 'test' as const, path: '/metadata/resourceVersion' as const, value: rv }] : []),
    { op: 'add', path: '/ephemeralContainers', value: [...(pod.spec?.ephemeralContainers ?? []), ...containersFor(job)] },
  ];
}

/** The write that injects the job's containers into the pod. */
export function injectWrite(job: JobView & { metadata: { name?: string; namespace?: string } }, pod: V1Pod, shape: SubresourceShape): Extract<Write, { op: 'patch' }> {
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? '';
  const target = { apiVersion: 'v1', kind: 'Pod', name, namespace };
  const reason = `EphemeralJob ${job.metadata.name ?? ''}: inject ${[...templateNames(job)].join(', ')} into pod ${name}`;
  return shape === 'pod'
    ? { op: 'patch', target, subresource: EPHEMERAL_SUBRESOURCE, patchType: 'strategic', patch: podPatch(job), reason }
    : { op: 'patch', target, subresource: EPHEMERAL_SUBRESOURCE, patchType: 'json', patch: legacyPatch(job, pod), reason };
}
