// What the ResourceDistribution reconciler reads: the distributions, the namespaces and our
// copies of each kind (by label) — a fixed number of LISTs however large the cluster. Only where
// a target namespace has no copy of ours yet, every same-named ConfigMap or Secret is listed too
// (a field selector per such name), so copies made by OpenKruise and foreign objects are known
// before deciding. A resync with nothing to do therefore makes four LISTs.
import type { KubeObject } from '../kube/http.js';
import type { KubeReader, Scope } from '../reconcile/types.js';
import { copyLabelSelector } from './copy-label.js';
import { sourceResource } from './copy.js';
import { targetNamespaces } from './targets.js';
import { DISTRIBUTED_KINDS, RD_API_VERSION, RD_KIND, type DistributedKind, type DistributedObject, type NamespaceFacts, type ResourceDistribution } from './types.js';

export type ResourceDistributionObserved = {
  /** The distributions in scope. */
  distributions: ResourceDistribution[];
  namespaces: NamespaceFacts[];
  /** ConfigMaps and Secrets that carry our label or a distributed name, each once. */
  objects: DistributedObject[];
};

type NamespaceObject = KubeObject & {
  metadata?: { name?: string; labels?: Record<string, string>; deletionTimestamp?: string };
  status?: { phase?: string };
};

function namespaceFacts(ns: NamespaceObject): NamespaceFacts {
  const terminating = !!ns.metadata?.deletionTimestamp || ns.status?.phase === 'Terminating';
  return { name: ns.metadata?.name ?? '', labels: ns.metadata?.labels ?? {}, phase: terminating ? 'Terminating' : 'Active' };
}

function inScope(scope: Scope, name: string): boolean {
  return scope.kind === 'all' || scope.objects.some((o) => o.name === name);
}

/** LIST items come without apiVersion and kind; put them back so decide can tell kinds apart. */
function asDistributed(kind: DistributedKind, items: KubeObject[]): DistributedObject[] {
  return items.map((o) => ({ ...o, apiVersion: 'v1', kind }) as unknown as DistributedObject);
}

export async function observeResourceDistributions(kube: KubeReader, scope: Scope): Promise<ResourceDistributionObserved> {
  const rdList = await kube.list<KubeObject>(RD_API_VERSION, RD_KIND);
  const distributions = (rdList.items as unknown as ResourceDistribution[]).filter((rd) => inScope(scope, rd.metadata?.name ?? ''));
  // Nothing in scope: a deleted distribution's copies go with it (ownerReferences, garbage collector).
  if (distributions.length === 0) return { distributions, namespaces: [], objects: [] };

  const names = scope.kind === 'all' ? undefined : distributions.map((rd) => rd.metadata.name ?? '');
  const labelSelector = copyLabelSelector(names);
  const [nsList, ...copyLists] = await Promise.all([
    kube.list<NamespaceObject>('v1', 'Namespace'),
    ...DISTRIBUTED_KINDS.map(async (kind) => asDistributed(kind, (await kube.list<KubeObject>('v1', kind, { labelSelector })).items)),
  ]);
  const namespaces = nsList.items.map(namespaceFacts);
  const objects = new Map<string, DistributedObject>();
  const keyOf = (kind: string, namespace: string | undefined, name: string | undefined) => `${kind}/${namespace}/${name}`;
  for (const obj of copyLists.flat()) objects.set(keyOf(obj.kind, obj.metadata.namespace, obj.metadata.name), obj);

  // Names some target namespace holds no copy of ours of: what else is there under that name?
  const probe = new Map<string, { kind: DistributedKind; name: string }>();
  for (const rd of distributions) {
    const src = sourceResource(rd);
    if (!src) continue;
    const { targets } = targetNamespaces(rd, namespaces);
    if (targets.some((ns) => !objects.has(keyOf(src.kind, ns, src.name)))) probe.set(`${src.kind}/${src.name}`, { kind: src.kind, name: src.name });
  }
  const probed = await Promise.all(
    [...probe.values()].map(async ({ kind, name }) => asDistributed(kind, (await kube.list<KubeObject>('v1', kind, { fieldSelector: `metadata.name=${name}` })).items)),
  );
  for (const obj of probed.flat()) objects.set(keyOf(obj.kind, obj.metadata.namespace, obj.metadata.name), obj);
  return { distributions, namespaces, objects: [...objects.values()] };
}
