// What a Cascading deletion of a Namespace or a CRD depends on (SEMANTICS.md §5): live pods and
// Bound PVCs in the namespace, live custom resources of the CRD. The webhook cannot LIST at the
// edge, so the controller side computes these counts for the labelled objects only and pushes
// them as one small collection. Pure, except `computeProtectionCounts`, which only LISTs.
import type { Lister } from '../admission/live-state.js';
import { DELETE_PROTECTION_LABEL } from './types.js';

export const COUNTS_COLLECTION = 'delete-protection-counts';

/** Counts older than this are not trusted: a Cascading deletion is refused. */
export const COUNTS_MAX_AGE_MS = 3 * 60_000;

/** One labelled object's counts; `error` carries a failed LIST (OpenKruise denies with it). */
export type ProtectionCounts = {
  metadata: { name: string; resourceVersion: string };
  activePods?: number;
  boundPVCs?: number;
  activeCRs?: number;
  listError?: { what: 'pods' | 'pvc' | 'crs'; gvk?: string; message: string };
};

export const namespaceCountsKey = (name: string): string => `ns.${name}`;
export const crdCountsKey = (name: string): string => `crd.${name}`;

type Meta = { metadata?: { name?: string; deletionTimestamp?: string | null; labels?: Record<string, string> } };
type PodLike = Meta & { status?: { phase?: string } };
type Crd = Meta & { spec?: { group?: string; names?: { kind?: string }; versions?: { name: string; storage?: boolean }[] } };

export function countActivePods(pods: readonly PodLike[]): number {
  return pods.filter((p) => !p.metadata?.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed').length;
}

export function countBoundPvcs(pvcs: readonly PodLike[]): number {
  return pvcs.filter((p) => !p.metadata?.deletionTimestamp && p.status?.phase === 'Bound').length;
}

export function countLiveObjects(objects: readonly Meta[]): number {
  return objects.filter((o) => !o.metadata?.deletionTimestamp).length;
}

/** The CRD's storage version as apiVersion and kind, or undefined. */
export function storageKind(crd: Crd): { apiVersion: string; kind: string } | undefined {
  const v = crd.spec?.versions?.find((x) => x.storage)?.name;
  if (!v || !crd.spec?.group || !crd.spec.names?.kind) return undefined;
  return { apiVersion: `${crd.spec.group}/${v}`, kind: crd.spec.names.kind };
}

const stamp = (c: Omit<ProtectionCounts, 'metadata'>, name: string): ProtectionCounts => ({
  ...c,
  // The edge diffs by resourceVersion: a content stamp makes a push send only what changed.
  metadata: { name, resourceVersion: JSON.stringify([c.activePods, c.boundPVCs, c.activeCRs, c.listError?.message]) },
});

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** LISTs the Cascading-labelled Namespaces and CRDs, and what each one's deletion depends on. */
export async function computeProtectionCounts(list: Lister): Promise<{ items: ProtectionCounts[]; resourceVersion: string }> {
  const labelSelector = `${DELETE_PROTECTION_LABEL}=Cascading`;
  const [namespaces, crds] = await Promise.all([
    list('v1', 'Namespace', { labelSelector }),
    list('apiextensions.k8s.io/v1', 'CustomResourceDefinition', { labelSelector }),
  ]);
  const items: ProtectionCounts[] = [];
  for (const ns of namespaces.items as Meta[]) {
    const name = ns.metadata?.name ?? '';
    const [pods, pvcs] = await Promise.allSettled([list('v1', 'Pod', { namespace: name }), list('v1', 'PersistentVolumeClaim', { namespace: name })]);
    if (pods.status === 'rejected') items.push(stamp({ listError: { what: 'pods', message: message(pods.reason) } }, namespaceCountsKey(name)));
    else if (pvcs.status === 'rejected') items.push(stamp({ listError: { what: 'pvc', message: message(pvcs.reason) } }, namespaceCountsKey(name)));
    else items.push(stamp({ activePods: countActivePods(pods.value.items as PodLike[]), boundPVCs: countBoundPvcs(pvcs.value.items as PodLike[]) }, namespaceCountsKey(name)));
  }
  for (const crd of crds.items as Crd[]) {
    const name = crd.metadata?.name ?? '';
    const kind = storageKind(crd);
    if (!kind) continue;
    const gvk = `${kind.apiVersion}, Kind=${kind.kind}`;
    try {
      items.push(stamp({ activeCRs: countLiveObjects((await list(kind.apiVersion, kind.kind)).items as Meta[]) }, crdCountsKey(name)));
    } catch (e) {
      items.push(stamp({ listError: { what: 'crs', gvk, message: message(e) } }, crdCountsKey(name)));
    }
  }
  // Counts have no single list version; their content stamps carry the diff.
  return { items, resourceVersion: `${namespaces.resourceVersion}.${crds.resourceVersion}` };
}
