// The per-cluster Durable Object's routes, defined once for both ends: the object
// (functions/worker/cluster-object.ts) dispatches on `routeOf`, the Worker's ports
// (functions/worker/edge-ports.ts) build requests with `routePath`. Bodies that cross are checked.
import type { AdmittedWrite } from './admitted.js';
import { COLLECTION_NAME } from './sync.js';

export const CLUSTER_ROUTES = {
  getCredentials: { method: 'GET', op: 'credentials' },
  putCredentials: { method: 'PUT', op: 'credentials' },
  rotate: { method: 'POST', op: 'rotate' },
  deleteCluster: { method: 'DELETE', op: 'cluster' },
  /** One collection as handlers read it (pushed items with admitted writes applied). */
  collection: { method: 'GET', op: 'collection' },
  /** Several collections, each only if changed since the stamp the reader holds. */
  read: { method: 'POST', op: 'read' },
  /** Admitted writes (read-your-writes), before the admission answers. */
  admit: { method: 'POST', op: 'admit' },
  /** The pushed versions a reconciler diffs against. */
  versions: { method: 'GET', op: 'versions' },
  sync: { method: 'PUT', op: 'sync' },
  summary: { method: 'GET', op: 'summary' },
  /** Change events to coalesce (pod status → workload): answers those to publish now, holds the rest. */
  debounce: { method: 'POST', op: 'debounce' },
} as const;

export type ClusterRoute = keyof typeof CLUSTER_ROUTES;

/** The path of a route, with the collection it names if any. */
export function routePath(route: ClusterRoute, name?: string): string {
  return `/${CLUSTER_ROUTES[route].op}${name ? `/${name}` : ''}`;
}

/** Which route a request is, and the collection it names ('' if none). */
export function routeOf(method: string, pathname: string): { route: ClusterRoute; name: string } | undefined {
  const [, op = '', name = ''] = pathname.split('/');
  for (const [route, r] of Object.entries(CLUSTER_ROUTES)) {
    if (r.method === method && r.op === op) return { route: route as ClusterRoute, name };
  }
  return undefined;
}

export type ReadRequest = { names: string[]; have: Record<string, string> };

export function parseReadRequest(body: unknown): ReadRequest | string {
  const b = (body ?? {}) as { names?: unknown; have?: unknown };
  if (!Array.isArray(b.names) || !b.names.every((n) => typeof n === 'string' && COLLECTION_NAME.test(n))) return 'names must be collection names';
  const have = b.have ?? {};
  if (typeof have !== 'object' || Array.isArray(have) || !Object.values(have).every((v) => typeof v === 'string')) return 'have must map names to stamps';
  return { names: b.names as string[], have: have as Record<string, string> };
}

export function parseAdmittedWrites(body: unknown): AdmittedWrite[] | string {
  if (!Array.isArray(body)) return 'expected an array of admitted writes';
  for (const w of body as Partial<AdmittedWrite>[]) {
    if (typeof w?.collection !== 'string' || !COLLECTION_NAME.test(w.collection)) return 'collection must be a collection name';
    if (typeof w.key !== 'string' || w.key === '') return 'key must be a non-empty string';
    if (typeof w.admittedAt !== 'number' || !Number.isFinite(w.admittedAt)) return 'admittedAt must be a number';
    if (w.item !== undefined && (typeof w.item !== 'object' || w.item === null)) return 'item must be an object';
    if (w.replicas !== undefined && (!Number.isSafeInteger(w.replicas) || w.replicas < 0)) return 'replicas must be a whole number';
  }
  return body as AdmittedWrite[];
}
