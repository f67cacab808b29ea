// A run for named workloads reads them and their pods in one round trip instead of two. The pod
// LIST is narrowed by the workload's selector (pod-list-query.ts), which is only known once the
// workload is read; so the query the last run for the same workloads computed is remembered, and
// the next run sends that pod LIST together with the workload LIST. It is a hint, never state:
// its answer is used only when the query computed from the workload just read is the same (a
// selector, immutable on these kinds, rarely changes), else the pods are LISTed again. Both LISTs
// are fresh reads, so the run sees everything the API server accepted before it started, as
// when the pods were read second.
import type { KubeObject } from '../kube/http.js';
import type { KubeReader, Scope } from '../reconcile/types.js';
import type { PodListQuery } from './pod-list-query.js';

/** Bounds the hints a long-lived process keeps; past it they are dropped and relearnt. */
const MAX_HINTS = 10_000;

const hints = new Map<string, PodListQuery>();

function hintKey(kind: string, scope: Scope): string | undefined {
  if (scope.kind !== 'objects') return undefined;
  return `${kind}|${scope.objects.map((o) => `${o.namespace ?? ''}/${o.name}`).sort().join(',')}`;
}

const sameQuery = (a: PodListQuery, b: PodListQuery) => a.namespace === b.namespace && a.labelSelector === b.labelSelector;

/** The namespace every object of a scope is in, when they share one (a full resync: none). */
export function scopeNamespace(scope: Scope): string | undefined {
  if (scope.kind !== 'objects') return undefined;
  const namespaces = new Set(scope.objects.map((o) => o.namespace ?? ''));
  const [only] = namespaces;
  return namespaces.size === 1 && only ? only : undefined;
}

/**
 * The workloads `listWorkloads` reads and the pods `queryOf` them selects. `kind` names the
 * workloads' kind, keeping the hints of kinds apart.
 */
export async function workloadsAndPods<W>(
  kube: KubeReader,
  scope: Scope,
  kind: string,
  listWorkloads: () => Promise<W[]>,
  queryOf: (workloads: W[]) => PodListQuery,
): Promise<{ workloads: W[]; pods: KubeObject[] }> {
  const key = hintKey(kind, scope);
  const hinted = key === undefined ? undefined : hints.get(key);
  const early = hinted ? kube.list<KubeObject>('v1', 'Pod', hinted) : undefined;
  early?.catch(() => undefined); // unused when the query changed; a used one is awaited below
  const workloads = await listWorkloads();
  if (!workloads.length) {
    if (key !== undefined) hints.delete(key);
    return { workloads, pods: [] };
  }
  const query = queryOf(workloads);
  if (key !== undefined) {
    if (hints.size >= MAX_HINTS) hints.clear();
    hints.set(key, query);
  }
  const pods = early && hinted && sameQuery(hinted, query) ? await early : await kube.list<KubeObject>('v1', 'Pod', query);
  return { workloads, pods: pods.items };
}
