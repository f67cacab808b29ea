// The sync protocol between reconcilers (which can read the cluster) and the edge (which
// cannot). A push replaces a collection or patches it relative to the version the edge holds;
// pushes observed earlier than what the edge already has are refused, so a slow reconciler
// can never roll the edge back. Pure: stores apply the returned plan.

export type SyncItem = { metadata?: { name?: string; namespace?: string; resourceVersion?: string } } & Record<string, unknown>;

export type SyncPayload =
  | { mode: 'replace'; resourceVersion: string; observedAt: number; items: SyncItem[] }
  | { mode: 'patch'; resourceVersion: string; observedAt: number; baseResourceVersion: string; upserts: SyncItem[]; deletes: string[] };

export type CollectionMeta = { resourceVersion: string; observedAt: number; count: number };

/** What the edge holds for a collection: its version and each item's resourceVersion by key. */
export type EdgeVersions = { meta: CollectionMeta; items: Record<string, string> };

export type SyncWritePlan = { meta: CollectionMeta; puts: [string, SyncItem][]; deletes: string[] };

/**
 * `Superseded`: the edge already holds a snapshot observed later (another pusher got there first),
 * so what this push would say is known already; the pusher counts it as done.
 */
export type SyncRefusalReason = 'Superseded' | 'BaseMoved';
export type SyncOutcome = { ok: true; plan: SyncWritePlan } | { ok: false; status: 400 | 409; message: string; reason?: SyncRefusalReason };

/** Collections are named like DNS labels (they are storage keys and URL segments). */
export const COLLECTION_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

export function itemKey(item: SyncItem): string {
  const ns = item.metadata?.namespace;
  return ns ? `${ns}/${item.metadata?.name ?? ''}` : (item.metadata?.name ?? '');
}

function isItem(x: unknown): x is SyncItem {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return false;
  const md = (x as { metadata?: unknown }).metadata;
  return !!md && typeof md === 'object' && typeof (md as { name?: unknown }).name === 'string' && (md as { name: string }).name !== '';
}

/** Checks a pushed body; returns the payload or a message saying what is wrong. */
export function parseSyncPayload(body: unknown): SyncPayload | string {
  if (!body || typeof body !== 'object') return 'body must be a JSON object';
  const b = body as Record<string, unknown>;
  if (typeof b.resourceVersion !== 'string') return 'resourceVersion must be a string';
  if (typeof b.observedAt !== 'number' || !Number.isFinite(b.observedAt)) return 'observedAt must be a number (ms since epoch)';
  if (b.mode === 'replace') {
    if (!Array.isArray(b.items) || !b.items.every(isItem)) return 'items must be an array of objects with metadata.name';
    return { mode: 'replace', resourceVersion: b.resourceVersion, observedAt: b.observedAt, items: b.items };
  }
  if (b.mode === 'patch') {
    if (typeof b.baseResourceVersion !== 'string') return 'baseResourceVersion must be a string';
    if (!Array.isArray(b.upserts) || !b.upserts.every(isItem)) return 'upserts must be an array of objects with metadata.name';
    if (!Array.isArray(b.deletes) || !b.deletes.every((d) => typeof d === 'string')) return 'deletes must be an array of keys';
    return { mode: 'patch', resourceVersion: b.resourceVersion, observedAt: b.observedAt, baseResourceVersion: b.baseResourceVersion, upserts: b.upserts, deletes: b.deletes as string[] };
  }
  return 'mode must be "replace" or "patch"';
}

/** Decides how a push changes what the edge holds (`current` undefined: never pushed). */
export function planSyncWrite(current: EdgeVersions | undefined, payload: SyncPayload): SyncOutcome {
  if (current && payload.observedAt < current.meta.observedAt) {
    return { ok: false, status: 409, reason: 'Superseded', message: `stale push: observed at ${payload.observedAt}, the edge already holds a snapshot observed at ${current.meta.observedAt}` };
  }
  if (payload.mode === 'replace') {
    const puts = payload.items.map((i) => [itemKey(i), i] as [string, SyncItem]);
    const keep = new Set(puts.map(([k]) => k));
    const deletes = Object.keys(current?.items ?? {}).filter((k) => !keep.has(k));
    return { ok: true, plan: { meta: { resourceVersion: payload.resourceVersion, observedAt: payload.observedAt, count: keep.size }, puts, deletes } };
  }
  if (!current || current.meta.resourceVersion !== payload.baseResourceVersion) {
    return { ok: false, status: 409, reason: 'BaseMoved', message: `patch is based on ${payload.baseResourceVersion} but the edge holds ${current?.meta.resourceVersion ?? 'nothing'}: send a replace` };
  }
  const keys = new Set(Object.keys(current.items));
  const puts = payload.upserts.map((i) => [itemKey(i), i] as [string, SyncItem]);
  for (const [k] of puts) keys.add(k);
  const deletes = payload.deletes.filter((k) => keys.delete(k));
  return { ok: true, plan: { meta: { resourceVersion: payload.resourceVersion, observedAt: payload.observedAt, count: keys.size }, puts, deletes } };
}

/** What a reconciler sends, given what the edge holds and what it just listed. */
export function diffForPush(edge: EdgeVersions | undefined, live: { items: SyncItem[]; resourceVersion: string }, observedAt: number): SyncPayload {
  if (!edge) return { mode: 'replace', resourceVersion: live.resourceVersion, observedAt, items: live.items };
  const liveKeys = new Set<string>();
  const upserts: SyncItem[] = [];
  for (const item of live.items) {
    const key = itemKey(item);
    liveKeys.add(key);
    if (edge.items[key] !== item.metadata?.resourceVersion) upserts.push(item);
  }
  const deletes = Object.keys(edge.items).filter((k) => !liveKeys.has(k));
  return { mode: 'patch', resourceVersion: live.resourceVersion, observedAt, baseResourceVersion: edge.meta.resourceVersion, upserts, deletes };
}
