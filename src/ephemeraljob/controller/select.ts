// Which pods an EphemeralJob targets (OpenKruise: filterPods): the active pods of its namespace
// its selector matches, oldest first (then by name), less those that already have a container of
// one of the template's names that the job did not inject, and at most `replicas` of them. A pod
// created later is a target too while fewer than `replicas` are. Pure.
import type { V1Pod } from '@kubernetes/client-node';
import { compileSelector, selectorMatches } from '../../kube/selectors.js';
import { timeOf } from '../../workload/pods.js';
import type { StoredEphemeralJob } from '../types.js';
import { isCreatedBy } from './inject.js';

const isActive = (pod: V1Pod) => pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed' && !pod.metadata?.deletionTimestamp;

/** existDuplicatedEphemeralContainer: the pod has a container of a template name that is not this job's. */
export function hasForeignContainer(job: StoredEphemeralJob, pod: V1Pod): boolean {
  const names = new Set((job.spec.template.ephemeralContainers ?? []).map((c) => c.name));
  return (pod.spec?.ephemeralContainers ?? []).some((c) => names.has(c.name) && !isCreatedBy(job.metadata.uid ?? '', c));
}

// Read from the API server the timestamp is a string, whatever client-node's type says.
const created = (pod: V1Pod) => timeOf(pod.metadata?.creationTimestamp ? String(pod.metadata.creationTimestamp) : undefined);

function oldestFirst(a: V1Pod, b: V1Pod): number {
  return created(a) - created(b) || (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? '');
}

/** The job's target pods among the pods of its namespace. */
export function targetPods(job: StoredEphemeralJob, namespacePods: readonly V1Pod[]): V1Pod[] {
  const selector = compileSelector(job.spec.selector);
  const replicas = job.spec.replicas;
  const targets: V1Pod[] = [];
  const candidates = namespacePods.filter((p) => p.metadata?.namespace === job.metadata.namespace && selectorMatches(selector, p.metadata?.labels ?? {}));
  for (const pod of [...candidates].sort(oldestFirst)) {
    if (!isActive(pod) || hasForeignContainer(job, pod)) continue;
    if (replicas === undefined || replicas === null || targets.length < replicas) targets.push(pod);
  }
  return targets;
}
