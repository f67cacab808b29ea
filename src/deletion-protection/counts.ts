// What a Cascading deletion of a CRD depends on (../shared/SEMANTICS.md §5): its live custom
// resources. The webhook cannot LIST at the edge, so the controller side computes these counts for
// the labelled CRDs only and pushes them as one small collection (a namespace's pods and PVCs are
// held as items instead, which the edge keeps exact between pushes: dependents.ts). Pure, except
// `computeProtectionCounts`, which only LISTs.
import type { Lister } from '../edge-state/live-state.js';
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
type Crd = Meta & { spec?: { group?: string; names?: { kind?: string }; versions?: { name: string; storage?: boolean }[] } };

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

/** LISTs the Cascading-labelled CRDs, and the live custom resources of each. */
export async function computeProtectionCounts(list: Lister): Promise<{ items: ProtectionCounts[]; resourceVersion: string }> {
  const crds = await list('apiextensions.k8s.io/v1', 'CustomResourceDefinition', { labelSelector: `${DELETE_PROTECTION_LABEL}=Cascading` });
  const items: ProtectionCounts[] = [];
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
  // The counts' content stamps carry the diff.
  return { items, resourceVersion: crds.resourceVersion };
}
