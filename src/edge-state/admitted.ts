// Read-your-writes at the edge. What the edge admits (validating webhooks and observers see the
// final object) is written into the state handlers read before the answer goes back, as an
// overlay on the pushed collections: the next admission sees it at once, on any isolate.
//
// Pushes stay the authority (anti-entropy): a push whose LIST was taken more than
// ADMITTED_GRACE_MS after an admitted write reflects that write if the API server persisted it,
// so the write is dropped from the overlay and the push's view stands. A write that never
// persisted (refused by a later webhook, or failed in etcd) is so corrected by the first push
// listed more than ADMITTED_GRACE_MS after it. The grace covers the time from our answer to the
// write reaching etcd (other validating webhooks run in parallel with ours) and clock skew
// between the edge and the reconciler; a push listed within it leaves the write in place.
import type { CollectionSpec, Operation } from '../admission/types.js';
import { itemKey, type SyncItem } from '../admission/sync.js';
import { asObj, type Obj } from '../kube/projection.js';
import { inSelection } from './list-selection.js';

export const ADMITTED_GRACE_MS = 10_000;

/** One admitted change to one collection item. */
export type AdmittedWrite = {
  collection: string;
  key: string;
  /** The item as a push would hold it (projected); absent for a deletion. */
  item?: SyncItem;
  /** The item's version before this write (updates and deletes): a push showing another has moved past it. */
  baseVersion?: string;
  admittedAt: number;
};

/** What the edge saw admitted, as far as write-through needs it. */
export type AdmittedRequest = {
  /** The request's namespace ('' for cluster-scoped), filled into objects that lack it. */
  namespace: string;
  group: string;
  kind: string;
  subResource?: string;
  operation: Operation;
  object?: unknown;
  oldObject?: unknown;
  dryRun: boolean;
  /** The endpoint's path the request came in at (a collection may take writes from one observer only). */
  endpoint?: string;
};

/** What a collection's own write-through makes of a request: an item put, or one removed by key. */
export type ItemWrite = { item: SyncItem; baseVersion?: string } | { item?: undefined; key: string; baseVersion?: string };

/** Keeps what webhooks read small and drops fields that change without meaning (managedFields). */
export function defaultProject(obj: Obj): Obj {
  const { managedFields: _m, ...metadata } = asObj(obj.metadata);
  return { ...obj, metadata };
}

/** A collection item as pushed: the spec's projection of a LISTed object. */
export function projectItem(spec: CollectionSpec, obj: Obj): SyncItem {
  return (spec.project ?? defaultProject)(obj) as SyncItem;
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/**
 * The writes an allowed request makes to the collections handlers read: an object created or
 * updated inside a collection's selection is put, one deleted (or updated out of the selection)
 * is removed. A computed collection is written only through its own `writeThrough`, from the
 * one observer it names (its items are not objects of one kind), subresources included.
 */
export function admittedWrites(specs: readonly CollectionSpec[], req: AdmittedRequest, now: number): AdmittedWrite[] {
  if (req.dryRun || req.operation === 'CONNECT') return [];
  const writes: AdmittedWrite[] = [];
  for (const spec of specs) {
    if (spec.writeThrough) {
      if (req.endpoint === spec.writeThrough.endpoint) {
        for (const w of spec.writeThrough.writes(req)) writes.push({ collection: spec.name, key: w.item ? itemKey(w.item) : w.key, ...w, admittedAt: now });
      }
      continue;
    }
    if (spec.compute || (req.subResource ?? '') !== '' || groupOf(spec.apiVersion) !== req.group || spec.kind !== req.kind) continue;
    const obj = req.operation === 'DELETE' ? undefined : withNamespace(asObj(req.object), req.namespace);
    const old = withNamespace(asObj(req.oldObject), req.namespace);
    if (obj) {
      const inside = inSelection(obj, spec.select);
      if (inside === undefined) continue;
      const item = projectItem(spec, obj);
      if (!asObj(item.metadata).name) continue;
      const base = req.oldObject ? baseOf(projectItem(spec, old)) : {};
      if (inside) writes.push({ collection: spec.name, key: itemKey(item), item, ...base, admittedAt: now });
      else if (req.oldObject) writes.push({ collection: spec.name, key: itemKey(item), ...base, admittedAt: now });
    } else if (asObj(old.metadata).name) {
      const gone = projectItem(spec, old);
      writes.push({ collection: spec.name, key: itemKey(gone), ...baseOf(gone), admittedAt: now });
    }
  }
  return writes;
}

function withNamespace(obj: Obj, namespace: string): Obj {
  const meta = asObj(obj.metadata);
  return !namespace || meta.namespace ? obj : { ...obj, metadata: { ...meta, namespace } };
}

/** One collection's admitted writes not yet settled by a push, by item key. */
export type Overlay = Map<string, AdmittedWrite>;

/** The collection's items as handlers see them: the pushed items with the overlay applied. */
export function withOverlay(pushed: ReadonlyMap<string, SyncItem>, overlay: Overlay | undefined): SyncItem[] {
  if (!overlay?.size) return [...pushed.values()];
  const out = new Map(pushed);
  for (const [key, w] of overlay) {
    if (w.item) out.set(key, w.item);
    else out.delete(key);
  }
  return [...out.values()];
}

function baseOf(item: SyncItem): { baseVersion?: string } {
  const v = item.metadata?.resourceVersion;
  return v ? { baseVersion: v } : {};
}

/**
 * The keys a push observed at `observedAt`, holding `pushed`, settles: every write admitted more
 * than the grace before it, and any write the push shows the API server has moved past (a created
 * item it holds; an updated or deleted item it holds at another version, or no longer holds).
 */
export function settledBy(overlay: Overlay, observedAt: number, pushed?: ReadonlyMap<string, SyncItem>): string[] {
  return [...overlay].filter(([key, w]) => {
    if (w.admittedAt + ADMITTED_GRACE_MS < observedAt) return true;
    if (!pushed) return false;
    const now = pushed.get(key);
    if (w.baseVersion === undefined) return w.item !== undefined && now !== undefined;
    return now === undefined ? true : now.metadata?.resourceVersion !== w.baseVersion;
  }).map(([k]) => k);
}

/** Adds writes to overlays (per collection); a later write to the same item replaces the earlier. */
export function recordWrites(overlays: Map<string, Overlay>, writes: readonly AdmittedWrite[]): void {
  for (const w of writes) {
    const o = overlays.get(w.collection) ?? new Map<string, AdmittedWrite>();
    o.set(w.key, w);
    overlays.set(w.collection, o);
  }
}
