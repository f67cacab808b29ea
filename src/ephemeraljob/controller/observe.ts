// What the EphemeralJob controller reads: the jobs in scope (a scope entry named `*` stands for
// every job of its namespace: a pod's change names its namespace), the pods of their namespaces,
// and, when some job has not finished, the shape of pods/ephemeralcontainers the API server takes.
// Fresh LISTs every run.
import type { V1Pod } from '@kubernetes/client-node';
import type { KubeObject } from '../../kube/http.js';
import type { KubeReader, ObserveContext, Scope } from '../../reconcile/types.js';
import { EPHEMERALJOB_API_VERSION, EPHEMERALJOB_KIND, type StoredEphemeralJob } from '../types.js';
import { shapeFor, type SubresourceShape } from './inject.js';

export type EphemeralJobObserved = {
  jobs: StoredEphemeralJob[];
  /** The pods of each job's namespace, by namespace. */
  podsByNamespace: Map<string, V1Pod[]>;
  shape: SubresourceShape;
};

const inScope = (scope: Scope, job: StoredEphemeralJob) =>
  scope.kind === 'all' || scope.objects.some((o) => (o.name === '*' || o.name === job.metadata.name) && (o.namespace ?? '') === job.metadata.namespace);

export async function observeEphemeralJobs(kube: KubeReader, scope: Scope, ctx: ObserveContext = {}): Promise<EphemeralJobObserved> {
  const all = (await kube.list<KubeObject>(EPHEMERALJOB_API_VERSION, EPHEMERALJOB_KIND)).items as unknown as StoredEphemeralJob[];
  const jobs = all.filter((j) => inScope(scope, j) && !j.metadata.deletionTimestamp);
  const podsByNamespace = new Map<string, V1Pod[]>();
  const running = jobs.filter((j) => !j.status?.completionTime);
  const namespaces = [...new Set(running.map((j) => j.metadata.namespace))];
  await Promise.all(namespaces.map(async (namespace) => {
    podsByNamespace.set(namespace, (await kube.list<KubeObject>('v1', 'Pod', { namespace })).items as unknown as V1Pod[]);
  }));
  const shape = running.length && ctx.serverVersion ? shapeFor(await ctx.serverVersion()) : 'pod';
  return { jobs, podsByNamespace, shape };
}
