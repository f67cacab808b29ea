// What the launch priority controller reads: the pods in scope (GETs for a trigger's pods; a full
// run LISTs every pod and keeps those with a barrier env), and the barrier ConfigMap of each one
// that still has something to release.
import { isNotFound } from '../../kube/errors.js';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, Scope } from '../../reconcile/types.js';
import type { Pod } from '../../workload/pods.js';
import { BARRIER_ENV, COMPLETED_ANNOTATION, barrierName } from '../types.js';
import type { Barrier } from './barrier.js';

export type LaunchPriorityObserved = { pods: { pod: Pod; barrier?: Barrier & KubeObject }[] };

async function getOrNone<T extends KubeObject>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

const waiting = (pod: Pod) =>
  !pod.metadata.deletionTimestamp && pod.metadata.annotations?.[COMPLETED_ANNOTATION] !== 'true' && (pod.spec?.containers ?? []).some((c) => (c.env ?? []).some((e) => e.name === BARRIER_ENV));

export async function observeLaunchPriority(kube: KubeReader, scope: Scope): Promise<LaunchPriorityObserved> {
  const pods = scope.kind === 'all'
    ? ((await kube.list<KubeObject>('v1', 'Pod')).items as unknown as Pod[])
    : (await Promise.all(scope.objects.map((o) => getOrNone(() => kube.get<KubeObject>('v1', 'Pod', o.name, o.namespace))))).filter((p): p is KubeObject => p !== undefined) as unknown as Pod[];
  const candidates = pods.filter(waiting);
  const barriers = await Promise.all(candidates.map((p) => getOrNone(() => kube.get<KubeObject>('v1', 'ConfigMap', barrierName(p.metadata.name), p.metadata.namespace))));
  return { pods: candidates.map((pod, i) => ({ pod, ...(barriers[i] ? { barrier: barriers[i] as Barrier & KubeObject } : {}) })) };
}
