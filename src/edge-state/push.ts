// The reconcilers' side of the sync API: after a resync, push each collection the edge needs.
// Diffs against the versions the edge holds; if the edge moved on meanwhile (another pusher),
// falls back to a full replace. Web fetch only, so it runs in Lambda, Node and Workers cron.
import { diffForPush, type SyncRefusalReason, type CollectionMeta, type EdgeVersions, type SyncItem, type SyncPayload } from './sync.js';
import type { CollectionSpec } from './contracts.js';
import type { Lister } from './live-state.js';
import { isNotFound } from '../kube/errors.js';
import { projectItem } from './admitted.js';
import { recordPush } from '../telemetry/record.js';

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** `timeoutMs`: each call's deadline, answer body included (EDGE_CALL_TIMEOUT_MS by default). */
export type EdgeTarget = { baseUrl: string; clusterId: string; syncToken: string; fetch?: Fetch; timeoutMs?: number };

/**
 * One call to the edge, from sending to the answer's last byte. Sync answers take milliseconds;
 * this bounds a hung edge well inside a push period and the freshness limit (180 s) it serves.
 */
export const EDGE_CALL_TIMEOUT_MS = 20_000;

export type PushResult = { collection: string; mode: SyncPayload['mode']; items: number; changed: number; meta: CollectionMeta };

export class PushError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'PushError';
  }
}

/** A signal that aborts after the edge's call timeout, and the message to give when it did. */
export function edgeDeadline(edge: EdgeTarget): { signal: AbortSignal; expired: (e: unknown) => Error | undefined; ms: number } {
  const ms = edge.timeoutMs ?? EDGE_CALL_TIMEOUT_MS;
  const signal = AbortSignal.timeout(ms);
  return { signal, ms, expired: (e) => (signal.aborted ? new Error(`no answer within ${ms / 1000}s`, { cause: e }) : undefined) };
}

async function edgeCall<T>(edge: EdgeTarget, method: string, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  const f = edge.fetch ?? fetch;
  const deadline = edgeDeadline(edge);
  try {
    const res = await f(`${edge.baseUrl}/clusters/${edge.clusterId}/sync${path}`, {
      method,
      headers: { authorization: `Bearer ${edge.syncToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: deadline.signal,
    });
    return { status: res.status, json: (await res.json()) as T };
  } catch (e) {
    const expired = deadline.expired(e);
    if (expired) throw new PushError(0, `edge ${method} sync${path}: ${expired.message}`);
    throw e;
  }
}

/** The collections the edge holds pushed state of for the cluster (its sync summary). */
export async function heldCollections(edge: EdgeTarget): Promise<Set<string>> {
  const res = await edgeCall<{ collections?: Record<string, unknown> }>(edge, 'GET', '');
  if (res.status !== 200) throw new PushError(res.status, `edge refused its sync summary: ${res.status}`);
  return new Set(Object.keys(res.json.collections ?? {}));
}

export async function pushCollection(edge: EdgeTarget, list: Lister, spec: CollectionSpec, now: () => number = Date.now): Promise<PushResult> {
  const observedAt = now();
  try {
    const result = await pushObserved(edge, list, spec, observedAt);
    recordPush(spec.name, true, observedAt);
    return result;
  } catch (e) {
    recordPush(spec.name, false, observedAt);
    throw e;
  }
}

async function pushObserved(edge: EdgeTarget, list: Lister, spec: CollectionSpec, observedAt: number): Promise<PushResult> {
  const live = await listOrNone(list, spec);
  const items = live.items.map((o) => (spec.compute ? o : projectItem(spec, o)) as SyncItem);
  for (let attempt = 0; ; attempt++) {
    const held = attempt === 0 ? await edgeCall<EdgeVersions>(edge, 'GET', `/${spec.name}`) : { status: 404, json: undefined };
    if (held.status !== 200 && held.status !== 404) throw new PushError(held.status, `edge refused reading ${spec.name}: ${held.status}`);
    const payload = diffForPush(held.status === 200 ? held.json : undefined, { items, resourceVersion: live.resourceVersion }, observedAt);
    const res = await edgeCall<CollectionMeta & { error?: string; reason?: SyncRefusalReason }>(edge, 'PUT', `/${spec.name}`, payload);
    if (res.status === 200) {
      const changed = payload.mode === 'replace' ? items.length : payload.upserts.length + payload.deletes.length;
      return { collection: spec.name, mode: payload.mode, items: items.length, changed, meta: res.json };
    }
    // Another pusher (a replica, the scheduled push) delivered a later snapshot first.
    if (res.status === 409 && res.json.reason === 'Superseded') {
      return { collection: spec.name, mode: payload.mode, items: items.length, changed: 0, meta: { resourceVersion: live.resourceVersion, observedAt, count: items.length } };
    }
    // A patch against a base the edge no longer holds: resend everything once.
    if (res.status === 409 && payload.mode === 'patch' && attempt === 0) continue;
    throw new PushError(res.status, `edge refused ${spec.name}: ${res.json.error ?? res.status}`);
  }
}

/**
 * The collection as listed; a kind the API server does not serve (our CRDs not installed yet)
 * has no objects, which is what the edge should hold rather than nothing at all.
 */
async function listOrNone(list: Lister, spec: CollectionSpec): Promise<{ items: Record<string, unknown>[]; resourceVersion: string }> {
  try {
    return spec.compute ? await spec.compute(list) : await list(spec.apiVersion, spec.kind, spec.select);
  } catch (e) {
    if (isNotFound(e)) return { items: [], resourceVersion: '' };
    throw e;
  }
}

export type PushFailure = { collection: string; error: string };

/**
 * One line for a whole push: "pushed 14 collections, 3 changed (5 items), 42 ms", and the
 * collections that failed: "…, 1 failed (sidecarsets: edge refused sidecarsets: 500), 42 ms".
 */
export function describePush(results: readonly PushResult[], ms: number, failures: readonly PushFailure[] = []): string {
  const changed = results.filter((r) => r.changed > 0);
  const items = changed.reduce((n, r) => n + r.changed, 0);
  const failed = failures.length ? `, ${failures.length} failed (${failures.map((f) => `${f.collection}: ${f.error}`).join('; ')})` : '';
  return `pushed ${results.length} collections, ${changed.length} changed${items ? ` (${items} items)` : ''}${failed}, ${Math.round(ms)} ms`;
}

/** Pushes every collection, each whatever became of the others. */
/** How many collections one push sends at once: a restarted edge is whole again in a few round trips. */
const PUSH_CONCURRENCY = 4;

export async function pushEachCollection(edge: EdgeTarget, list: Lister, specs: CollectionSpec[], now?: () => number): Promise<{ results: PushResult[]; failures: PushFailure[] }> {
  const outcomes: ({ result: PushResult } | { failure: PushFailure })[] = new Array(specs.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < specs.length; i = next++) {
      const spec = specs[i]!;
      try {
        outcomes[i] = { result: await pushCollection(edge, list, spec, now) };
      } catch (e) {
        outcomes[i] = { failure: { collection: spec.name, error: e instanceof Error ? e.message : String(e) } };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PUSH_CONCURRENCY, specs.length) }, worker));
  // In the order of `specs`, as when they went one at a time.
  return {
    results: outcomes.flatMap((o) => ('result' in o ? [o.result] : [])),
    failures: outcomes.flatMap((o) => ('failure' in o ? [o.failure] : [])),
  };
}

/** Pushes every collection; when any failed, throws (after trying all of them) the first failure. */
export async function pushCollections(edge: EdgeTarget, list: Lister, specs: CollectionSpec[], now?: () => number): Promise<PushResult[]> {
  const results: PushResult[] = [];
  let first: unknown;
  for (const spec of specs) {
    try {
      results.push(await pushCollection(edge, list, spec, now));
    } catch (e) {
      first ??= e;
    }
  }
  if (first !== undefined) throw first;
  return results;
}
