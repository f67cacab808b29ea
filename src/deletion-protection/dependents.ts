// What a Cascading Namespace's deletion depends on, held at the edge as items rather than counts:
// the pods and the PVCs of every namespace labelled Cascading, each reduced to its phase and
// whether it is being deleted, plus one marker per namespace whose contents the collection covers.
//
// Items, not counts, because the edge keeps them exact between pushes (read-your-writes): the
// `observe-protected` observer sees every pod and PVC change in a Cascading namespace, and a
// namespace created with the label, which starts empty and so is covered at once. A namespace
// labelled after it was created is covered from the next push only (its earlier pods were never
// observed); until then its Cascading deletion is refused with 503, never allowed blind.
import type { CollectionSpec, Lister } from '../edge-state/contracts.js';
import type { AdmittedRequest, ItemWrite } from '../edge-state/admitted.js';
import { asObj, type Obj } from '../kube/projection.js';
import { DELETE_PROTECTION_LABEL, protectionOf } from './types.js';

export const CASCADING_PODS = 'cascading-pods';
export const CASCADING_PVCS = 'cascading-pvcs';
/** The observer whose requests are written into these collections (src/admission/endpoints.ts). */
export const OBSERVER_PATH = 'observe-protected';

type DependentKind = 'Pod' | 'PersistentVolumeClaim';

/** A pod or PVC as the decision needs it; or, with kind Namespace, the coverage marker. */
export type DependentItem = {
  kind: DependentKind | 'Namespace';
  metadata: { name: string; namespace?: string; resourceVersion: string };
  phase?: string;
  deleting?: true;
  /** On a marker: the LIST of the namespace's dependents failed (OpenKruise denies with it). */
  listError?: string;
};

/** Reduces a pod or PVC; its version is a content stamp, so pushes and writes carry only real changes. */
export function dependentItem(kind: DependentKind, obj: Obj, namespace: string): DependentItem {
  const meta = asObj(obj.metadata);
  const phase = typeof asObj(obj.status).phase === 'string' ? (asObj(obj.status).phase as string) : undefined;
  const deleting = !!meta.deletionTimestamp;
  return {
    kind,
    metadata: { name: String(meta.name ?? ''), namespace: String(meta.namespace ?? namespace), resourceVersion: `${phase ?? ''}|${deleting ? 'deleting' : ''}` },
    ...(phase ? { phase } : {}),
    ...(deleting ? { deleting: true as const } : {}),
  };
}

/** Cluster-scoped, so its key (the namespace's name) never meets a pod's (`namespace/name`). */
export function coverageMarker(namespace: string, listError?: string): DependentItem {
  return { kind: 'Namespace', metadata: { name: namespace, resourceVersion: listError ? `error|${listError}` : 'covered' }, ...(listError ? { listError } : {}) };
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

function computeDependents(kind: DependentKind) {
  return async (list: Lister): Promise<{ items: DependentItem[]; resourceVersion: string }> => {
    const namespaces = await list('v1', 'Namespace', { labelSelector: `${DELETE_PROTECTION_LABEL}=Cascading` });
    const items: DependentItem[] = [];
    for (const ns of namespaces.items as Obj[]) {
      const name = String(asObj(ns.metadata).name ?? '');
      try {
        const listed = await list('v1', kind, { namespace: name });
        items.push(coverageMarker(name), ...(listed.items as Obj[]).map((o) => dependentItem(kind, o, name)));
      } catch (e) {
        items.push(coverageMarker(name, message(e)));
      }
    }
    // No single list version spans the namespaces; the items' content stamps carry the diff.
    return { items, resourceVersion: namespaces.resourceVersion };
  };
}

/**
 * What a request admitted at the observer changes: a namespace created Cascading is covered (it
 * is empty); a pod or PVC is put as it now is, or removed once deleted. An update that changes
 * nothing the decision reads writes nothing.
 */
function dependentWrites(kind: DependentKind) {
  return (req: AdmittedRequest): ItemWrite[] => {
    if (req.kind === 'Namespace') {
      const ns = asObj(req.object);
      const created = req.operation === 'CREATE' && protectionOf(asObj(ns.metadata).labels as Record<string, string> | undefined) === 'Cascading';
      return created ? [{ item: coverageMarker(String(asObj(ns.metadata).name ?? '')) }] : [];
    }
    if (req.kind !== kind) return [];
    const old = req.oldObject ? dependentItem(kind, asObj(req.oldObject), req.namespace) : undefined;
    if (req.operation === 'DELETE') return old?.metadata.name ? [{ key: `${old.metadata.namespace}/${old.metadata.name}`, baseVersion: old.metadata.resourceVersion }] : [];
    const now = dependentItem(kind, asObj(req.object), req.namespace);
    if (!now.metadata.name || (old && old.metadata.resourceVersion === now.metadata.resourceVersion)) return [];
    return [{ item: now, ...(old ? { baseVersion: old.metadata.resourceVersion } : {}) }];
  };
}

function dependentsCollection(name: string, kind: DependentKind): CollectionSpec {
  return { name, apiVersion: 'v1', kind, compute: computeDependents(kind), writeThrough: { endpoint: OBSERVER_PATH, writes: dependentWrites(kind) }, uncachedLive: true };
}

export const cascadingPods = dependentsCollection(CASCADING_PODS, 'Pod');
export const cascadingPvcs = dependentsCollection(CASCADING_PVCS, 'PersistentVolumeClaim');

/** A namespace's dependents as OpenKruise counts them, or undefined if the items do not cover it. */
export type NamespaceDependents = { activePods: number; boundPVCs: number } | { listError: { what: 'pods' | 'pvc'; message: string } };

export function namespaceDependents(namespace: string, pods: readonly DependentItem[], pvcs: readonly DependentItem[]): NamespaceDependents | undefined {
  const marker = (items: readonly DependentItem[]) => items.find((i) => i.kind === 'Namespace' && i.metadata.name === namespace);
  const podMarker = marker(pods);
  const pvcMarker = marker(pvcs);
  if (!podMarker || !pvcMarker) return undefined;
  if (podMarker.listError) return { listError: { what: 'pods', message: podMarker.listError } };
  if (pvcMarker.listError) return { listError: { what: 'pvc', message: pvcMarker.listError } };
  const inNamespace = (i: DependentItem) => i.metadata.namespace === namespace && !i.deleting;
  return {
    activePods: pods.filter((i) => i.kind === 'Pod' && inNamespace(i) && i.phase !== 'Succeeded' && i.phase !== 'Failed').length,
    boundPVCs: pvcs.filter((i) => i.kind === 'PersistentVolumeClaim' && inNamespace(i) && i.phase === 'Bound').length,
  };
}
