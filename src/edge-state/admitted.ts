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
import type { CollectionSpec } from './contracts.js';
import type { Operation } from '../kube/admission-operation.js';
import { itemKey, type SyncItem } from './sync.js';
import { asObj, type Obj } from '../kube/projection.js';
import { inSelection } from './list-selection.js';

export const ADMITTED_GRACE_MS = 10_000;

/** One admitted change to one collection item. */
export type AdmittedWrite = {
  collection: string;
  key: string;
  /** The item as a push would hold it (projected); absent for a deletion or a scale. */
  item?: SyncItem;
  /** A scale (the `scale` subresource): only the held item's spec.replicas changes. */
  replicas?: number;
  /** The item's version before this write (updates and deletes): a push showing another has moved past it. */
  baseVersion?: string;
  /** The object's resourceVersion the request was admitted against (updates and deletes). */
  basedOn?: string;
  /** The request was a PUT: had another write committed first, it failed with a conflict. */
  conditional?: true;
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
  /** The resource and its group (for a subresource, what it belongs to: `deployments` of `apps`). */
  resource?: { group: string; resource: string };
  /** The endpoint's path the request came in at (a collection may take writes from one observer only). */
  endpoint?: string;
  /** A PUT, not a patch (dispatch.ts, `Admitted.conditional`). */
  conditional?: boolean;
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
 * one observer it names (its items are not objects of one kind), subresources included. Of the
 * subresources, only `status` writes through, to collections that declare `writesStatus`.
 */
export function admittedWrites(specs: readonly CollectionSpec[], req: AdmittedRequest, now: number): AdmittedWrite[] {
  if (req.dryRun || req.operation === 'CONNECT') return [];
  const writes = req.subResource === 'scale' ? scaleWrites(specs, req, now) : objectWrites(specs, req, now);
  const basedOn = asObj(asObj(req.oldObject).metadata).resourceVersion;
  if (typeof basedOn !== 'string' || !basedOn) return writes;
  return writes.map((w) => ({ ...w, basedOn, ...(req.conditional ? { conditional: true as const } : {}) }));
}

function objectWrites(specs: readonly CollectionSpec[], req: AdmittedRequest, now: number): AdmittedWrite[] {
  const writes: AdmittedWrite[] = [];
  for (const spec of specs) {
    if (spec.writeThrough) {
      if (req.endpoint === spec.writeThrough.endpoint) {
        for (const w of spec.writeThrough.writes(req)) writes.push({ collection: spec.name, key: w.item ? itemKey(w.item) : w.key, ...w, admittedAt: now });
      }
      continue;
    }
    const sub = req.subResource ?? '';
    if (spec.compute || (sub !== '' && !(sub === 'status' && spec.writesStatus)) || groupOf(spec.apiVersion) !== req.group || spec.kind !== req.kind) continue;
    const obj = req.operation === 'DELETE' ? undefined : withNamespace(asObj(req.object), req.namespace);
    const old = withNamespace(asObj(req.oldObject), req.namespace);
    if (obj) {
      const inside = inSelection(obj, spec.select);
      if (inside === undefined) continue;
      const item = projectItem(spec, obj);
      if (!asObj(item.metadata).name) continue;
      const base = req.oldObject ? baseOf(projectItem(spec, old)) : {};
      if (inside) writes.push({ collection: spec.name, key: itemKey(item), item, ...base, admittedAt: now });
      else if (req.oldObject && wasInside(old, spec)) writes.push({ collection: spec.name, key: itemKey(item), ...base, admittedAt: now });
    } else if (asObj(old.metadata).name && wasInside(old, spec)) {
      const gone = projectItem(spec, old);
      writes.push({ collection: spec.name, key: itemKey(gone), ...baseOf(gone), admittedAt: now });
    }
  }
  return writes;
}

/**
 * Whether the object before the request could be held: only then can it need removing. An observer
 * that sees every object of a kind (every ConfigMap, for the one named kruise-configuration) must
 * not write for the others.
 */
const wasInside = (old: Obj, spec: CollectionSpec): boolean => inSelection(old, spec.select) !== false;

/** The kinds whose `scale` subresource the observers see, by group/resource. */
const SCALED_KINDS: Readonly<Record<string, string>> = {
  'apps/deployments': 'Deployment',
  'apps/replicasets': 'ReplicaSet',
  'apps/statefulsets': 'StatefulSet',
  'apps.kruise.io/clonesets': 'CloneSet',
  'apps.kruise.io/statefulsets': 'StatefulSet',
};

/** `kubectl scale`, an HPA: the Scale object names the workload and carries its new replicas. */
function scaleWrites(specs: readonly CollectionSpec[], req: AdmittedRequest, now: number): AdmittedWrite[] {
  const group = req.resource?.group ?? '';
  const kind = SCALED_KINDS[`${group}/${req.resource?.resource ?? ''}`];
  const scale = asObj(req.object);
  const replicas = asObj(scale.spec).replicas;
  const name = asObj(scale.metadata).name;
  if (req.operation !== 'UPDATE' || !kind || typeof replicas !== 'number' || typeof name !== 'string' || !name) return [];
  const base = asObj(asObj(req.oldObject).metadata).resourceVersion;
  const key = req.namespace ? `${req.namespace}/${name}` : name;
  return specs
    .filter((s) => !s.compute && !s.writeThrough && groupOf(s.apiVersion) === group && s.kind === kind)
    .map((s) => ({ collection: s.name, key, replicas, ...(typeof base === 'string' ? { baseVersion: base } : {}), admittedAt: now }));
}

const withReplicas = (item: SyncItem, replicas: number): SyncItem => ({ ...item, spec: { ...asObj(item.spec), replicas } });

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
    else if (w.replicas === undefined) out.delete(key);
    else {
      const base = out.get(key);
      if (base) out.set(key, withReplicas(base, w.replicas));
    }
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

/**
 * Adds writes to overlays (per collection): a later write to the same item replaces the earlier,
 * but a scale lands on the item an earlier write put (a Deployment created, then scaled, before a
 * push). Returns the entries as they now stand, for the caller to persist.
 */
export function recordWrites(overlays: Map<string, Overlay>, writes: readonly AdmittedWrite[]): AdmittedWrite[] {
  const stored: AdmittedWrite[] = [];
  for (const w of writes) {
    const o = overlays.get(w.collection) ?? new Map<string, AdmittedWrite>();
    if (losesTo(o.get(w.key), w)) continue;
    const entry = w.replicas === undefined ? w : scaledOnto(o.get(w.key), w);
    if (!entry) continue;
    o.set(w.key, entry);
    overlays.set(w.collection, o);
    stored.push(entry);
  }
  return stored;
}

/**
 * Whether a write cannot have committed over the one already recorded. Validating webhooks see
 * requests in the order they were admitted, not committed: two writes admitted against the same
 * resourceVersion race to etcd, and only one commits as admitted. The loser of a patch (or of an
 * unconditional PUT) is applied again to the winner and admitted again, against a newer version,
 * so it comes back here; the loser of a conditional PUT just fails with a conflict. So a
 * conditional write based on a version the recorded write was based on too (or an older one)
 * does not replace it: it is a writer acting on a stale read (a controller whose cache lags, a
 * kubelet racing a user). Only two PUTs in flight at once stay ambiguous; the first admitted is
 * the likelier to have reached etcd first, and the next write or push settles it either way.
 */
function losesTo(recorded: AdmittedWrite | undefined, w: AdmittedWrite): boolean {
  if (!recorded?.basedOn || !w.conditional || !w.basedOn) return false;
  return !newerVersion(w.basedOn, recorded.basedOn);
}

/** resourceVersions are etcd revisions in practice; compared as numbers when both are, else only for equality. */
function newerVersion(a: string, than: string): boolean {
  if (/^\d+$/.test(a) && /^\d+$/.test(than)) return BigInt(a) > BigInt(than);
  return a !== than;
}

/** A scale on top of an earlier write: the item it put, rescaled; nothing on a deletion. */
function scaledOnto(earlier: AdmittedWrite | undefined, scale: AdmittedWrite): AdmittedWrite | undefined {
  if (!earlier || earlier.replicas !== undefined) return scale;
  if (!earlier.item) return undefined;
  const { baseVersion: _b, ...rest } = earlier;
  // Settled once a push shows the workload past the scale's version, as the scale alone would be.
  return { ...rest, item: withReplicas(earlier.item, scale.replicas ?? 0), ...(scale.baseVersion ? { baseVersion: scale.baseVersion } : {}), admittedAt: scale.admittedAt };
}
