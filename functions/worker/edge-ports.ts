// Binds the app's ports to the per-cluster and per-ledger Durable Objects. Reads are cached in the
// isolate briefly (credentials 5 s, collections 1 s) so a burst of admissions costs one object
// call; those windows add to the staleness bound each feature declares. Ledgers are never cached:
// every operation goes to the ledger's object, which is the whole point of having one.
import type { AppPorts, ClusterAdmin, CredentialRotation } from '../../src/app.js';
import { sha256Hex, type ClusterCredentials, type ClusterRegistry } from '../../src/admission/auth.js';
import type { StateStore } from '../../src/admission/state-store.js';
import { ledgerKey, ledgerReducer, type LedgerKind, type LedgerRef, type Ledgers } from '../../src/admission/ledger.js';
import { ledgerBody, ledgerPath, readLedgerAnswer } from '../../src/admission/ledger-http.js';
import type { CollectionMeta, EdgeVersions, SyncPayload } from '../../src/admission/sync.js';
import type { ClusterState, Snapshot, WebhookEndpoint } from '../../src/admission/types.js';
import type { DurableObjectNamespace, DurableObjectStub, Env } from './platform.js';
import { PutEventsSink } from '../../src/aws/change-sink.js';
import { fetchPutEvents } from '../../src/aws/eventbridge-fetch.js';

export const CREDENTIALS_CACHE_MS = 5_000;
export const COLLECTION_CACHE_MS = 1_000;

type Cached<T> = { value: T; until: number };

function stubFor(env: Env, clusterId: string): DurableObjectStub {
  return env.CLUSTERS.get(env.CLUSTERS.idFromName(clusterId));
}

async function call<T>(stub: DurableObjectStub, method: string, path: string, body?: unknown): Promise<{ status: number; value: T }> {
  const res = await stub.fetch(`https://cluster${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: res.status, value: (await res.json()) as T };
}

/** The cluster's ledgers: one Durable Object per ledger, called for every operation. */
export function edgeLedgers(namespace: DurableObjectNamespace, clusterId: string, kinds: readonly LedgerKind[]): Ledgers {
  return {
    async apply<R>(ref: LedgerRef, op: string, req: unknown): Promise<R> {
      ledgerReducer(kinds, ref.kind, op); // an unknown op is refused here, without waking an object
      const stub = namespace.get(namespace.idFromName(`${clusterId}/${ledgerKey(ref)}`));
      const body = ledgerBody(req);
      const res = await stub.fetch(`https://ledger${ledgerPath(ref, op)}`, { method: 'POST', ...(body === undefined ? {} : { body }) });
      return readLedgerAnswer<R>(res, ref, op);
    },
  };
}

/** The change-event port, when the Worker is given an EventBridge bus and credentials. */
function changesPort(env: Env, kinds: ReadonlySet<string>): AppPorts['changes'] | undefined {
  if (!env.KS_EVENT_BUS_NAME || !env.AWS_REGION || !env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY || kinds.size === 0) return undefined;
  const transport = fetchPutEvents({
    region: env.AWS_REGION, accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
    ...(env.KS_EVENTBRIDGE_ENDPOINT ? { endpoint: env.KS_EVENTBRIDGE_ENDPOINT } : {}),
  });
  return { sink: new PutEventsSink(transport, { eventBusName: env.KS_EVENT_BUS_NAME }), kinds, onError: (e) => console.error(`change event not published: ${String(e)}`) };
}

export type EdgePortsOptions = {
  now?: () => number;
  /** Kinds ("apiVersion/Kind") whose admitted changes are published as change events. */
  changeKinds?: ReadonlySet<string>;
  ledgerKinds?: readonly LedgerKind[];
};

export async function edgePorts(env: Env, endpoints: WebhookEndpoint[], opts: EdgePortsOptions = {}): Promise<AppPorts> {
  const now = opts.now ?? Date.now;
  const kinds = opts.ledgerKinds ?? [];
  const credCache = new Map<string, Cached<ClusterCredentials | undefined>>();
  const collCache = new Map<string, Cached<Snapshot | undefined>>();

  const registry: ClusterRegistry = {
    async credentials(clusterId) {
      const hit = credCache.get(clusterId);
      if (hit && hit.until > now()) return hit.value;
      const r = await call<ClusterCredentials>(stubFor(env, clusterId), 'GET', '/credentials');
      const value = r.status === 200 ? r.value : undefined;
      credCache.set(clusterId, { value, until: now() + CREDENTIALS_CACHE_MS });
      return value;
    },
  };

  const ledgers = (clusterId: string): Ledgers => edgeLedgers(env.LEDGERS, clusterId, kinds);

  // A collection is re-checked at most every COLLECTION_CACHE_MS, by its meta only: the items
  // (megabytes for a thousand SidecarSets) are fetched again only when a push changed them, and
  // the handlers of one request share one fetch. Not across requests: code awaiting another
  // request's fetch resumes in that request's I/O context, and its own I/O next (a ledger call)
  // fails once that request has ended ("Cannot perform I/O on behalf of a different request").
  const fetchCollection = async (clusterId: string, name: string, held: Snapshot | undefined): Promise<Snapshot | undefined> => {
    const stub = stubFor(env, clusterId);
    if (held) {
      const m = await call<CollectionMeta>(stub, 'GET', `/meta/${name}`);
      if (m.status === 200 && m.value.resourceVersion === held.resourceVersion && m.value.observedAt === held.observedAt) return held;
    }
    const r = await call<Snapshot>(stub, 'GET', `/collection/${name}`);
    return r.status === 200 ? r.value : undefined;
  };

  const state = (clusterId: string): ClusterState => {
    const inflight = new Map<string, Promise<Snapshot | undefined>>();
    return {
      ledgers: ledgers(clusterId),
      async collection<T>(name: string): Promise<Snapshot<T> | undefined> {
        const key = `${clusterId}/${name}`;
        const hit = collCache.get(key);
        if (hit && hit.until > now()) return hit.value as Snapshot<T> | undefined;
        const pending = inflight.get(key);
        if (pending) return (await pending) as Snapshot<T> | undefined;
        const fetching = fetchCollection(clusterId, name, hit?.value).finally(() => inflight.delete(key));
        inflight.set(key, fetching);
        const value = await fetching;
        collCache.set(key, { value, until: now() + COLLECTION_CACHE_MS });
        return value as Snapshot<T> | undefined;
      },
    };
  };

  const store = (clusterId: string): StateStore => ({
    ...state(clusterId),
    async versions(name) {
      const r = await call<EdgeVersions>(stubFor(env, clusterId), 'GET', `/versions/${name}`);
      return r.status === 200 ? r.value : undefined;
    },
    async sync(name, payload: SyncPayload) {
      const r = await call<CollectionMeta & { error?: string }>(stubFor(env, clusterId), 'PUT', `/sync/${name}`, payload);
      collCache.delete(`${clusterId}/${name}`);
      if (r.status === 200) return { ok: true as const, meta: r.value };
      return { ok: false as const, status: r.status === 409 ? (409 as const) : (400 as const), message: r.value.error ?? `status ${r.status}` };
    },
    async summary() {
      return (await call<Record<string, CollectionMeta>>(stubFor(env, clusterId), 'GET', '/summary')).value;
    },
  });

  const clusters: ClusterAdmin = {
    async create(creds) {
      const r = await call(stubFor(env, creds.clusterId), 'PUT', '/credentials', creds);
      credCache.delete(creds.clusterId);
      return r.status === 201;
    },
    async rotate(clusterId, rotation: CredentialRotation) {
      const r = await call<ClusterCredentials>(stubFor(env, clusterId), 'POST', '/rotate', rotation);
      credCache.delete(clusterId);
      return r.status === 200 ? r.value : undefined;
    },
    async remove(clusterId) {
      const existed = (await registry.credentials(clusterId)) !== undefined;
      await call(stubFor(env, clusterId), 'DELETE', '/cluster');
      credCache.delete(clusterId);
      return existed;
    },
  };

  const changes = changesPort(env, opts.changeKinds ?? new Set());
  return {
    endpoints,
    registry,
    state,
    store,
    ledgers,
    ...(changes ? { changes } : {}),
    ...(env.ADMIN_TOKEN ? { admin: { tokenSha256: await sha256Hex(env.ADMIN_TOKEN), clusters } } : {}),
    now,
  };
}
