// Binds the app's ports to the per-cluster and per-ledger Durable Objects. Credentials are cached
// in the isolate (src/edge-state/credentials-cache.ts). Collections are read-your-writes: every request asks the cluster's
// object again, in one call per tick naming the snapshots already held, so only changed ones
// travel (src/edge-state/stamped-reads.ts). Ledgers are never cached: every operation goes to
// the ledger's object, which is the whole point of having one.
import type { AppPorts, ClusterAdmin, CredentialRotation } from '../../src/app.js';
import { sha256Hex, type ClusterCredentials, type ClusterRegistry } from '../../src/edge-state/auth.js';
import type { StateStore } from '../../src/edge-state/state-store.js';
import { ledgerKey, ledgerReducer, type LedgerKind, type LedgerRef, type Ledgers } from '../../src/edge-state/ledger.js';
import { ledgerBody, ledgerPath, readLedgerAnswer } from '../../src/edge-state/ledger-http.js';
import type { CollectionMeta, EdgeVersions, SyncPayload, SyncRefusalReason } from '../../src/edge-state/sync.js';
import type { ChangeDebouncer, ChangeEvent, ClusterState, CollectionSpec, RelatedObjects, Snapshot, WorkloadPods } from '../../src/edge-state/contracts.js';
import type { WebhookEndpoint } from '../../src/admission/types.js';
import { CLUSTER_ROUTES, routePath, type ClusterRoute } from '../../src/edge-state/routes.js';
import type { CollectionSummary, ReadAnswer } from '../../src/edge-state/held.js';
import type { AdmittedWrite } from '../../src/edge-state/admitted.js';
import { requestReader, type StampedCache } from '../../src/edge-state/stamped-reads.js';
import { cachedRegistry } from '../../src/edge-state/credentials-cache.js';
import type { DurableObjectNamespace, DurableObjectStub, Env } from './platform.js';
import { telemetry } from '../../src/telemetry/telemetry.js';
import { eventBridgeSink } from './event-sink.js';

const routeMethod = (route: ClusterRoute): string => CLUSTER_ROUTES[route].method;

function stubFor(env: Env, clusterId: string): DurableObjectStub {
  return env.CLUSTERS.get(env.CLUSTERS.idFromName(clusterId));
}

async function call<T>(stub: DurableObjectStub, route: ClusterRoute, name?: string, body?: unknown): Promise<{ status: number; value: T }> {
  const res = await stub.fetch(`https://cluster${routePath(route, name)}`, {
    method: routeMethod(route),
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

/** Pod-status events are coalesced in the cluster's object, which publishes the held ones on its alarm. */
const clusterDebouncer = (env: Env): ChangeDebouncer => ({
  async offer(clusterId, events) {
    const r = await call<ChangeEvent[] & { error?: string }>(stubFor(env, clusterId), 'debounce', undefined, events);
    if (r.status !== 200) throw new Error(`debouncing change events failed: ${r.status} ${r.value.error ?? ''}`);
    return r.value;
  },
});

/** The change-event port, when the Worker is given an EventBridge bus and credentials. */
function changesPort(env: Env, kinds: ReadonlySet<string>, opts: EdgePortsOptions): AppPorts['changes'] | undefined {
  const sink = eventBridgeSink(env);
  if (!sink || kinds.size === 0) return undefined;
  return {
    sink, kinds, ledgerKinds: opts.ledgerKinds ?? [],
    ...(opts.relatedObjects ? { related: opts.relatedObjects } : {}),
    ...(opts.workloadPods?.length ? { workloadPods: opts.workloadPods, debounce: clusterDebouncer(env) } : {}),
    onError: (e) => telemetry().log.error('change event not published', { error: String(e) }),
  };
}

export type EdgePortsOptions = {
  now?: () => number;
  /** Kinds ("apiVersion/Kind") whose admitted changes are published as change events. */
  changeKinds?: ReadonlySet<string>;
  ledgerKinds?: readonly LedgerKind[];
  /** Objects an admitted request concerns, published as change events too. */
  relatedObjects?: RelatedObjects;
  /** The collections handlers read: admitted objects of their kinds are written through. */
  collections?: readonly CollectionSpec[];
  /** Workloads whose pods' status changes are published (debounced) as change events for them. */
  workloadPods?: readonly WorkloadPods[];
};

export async function edgePorts(env: Env, endpoints: WebhookEndpoint[], opts: EdgePortsOptions = {}): Promise<AppPorts> {
  const now = opts.now ?? Date.now;
  const kinds = opts.ledgerKinds ?? [];
  const collections: StampedCache = new Map();
  const registry = cachedRegistry(async (clusterId) => {
    const r = await call<ClusterCredentials>(stubFor(env, clusterId), 'getCredentials');
    return r.status === 200 ? r.value : undefined;
  }, now);

  const ledgers = (clusterId: string): Ledgers => edgeLedgers(env.LEDGERS, clusterId, kinds);

  const state = (clusterId: string): ClusterState => {
    const stub = stubFor(env, clusterId);
    const read = requestReader(clusterId, collections, async (names, have) => {
      const r = await call<Record<string, ReadAnswer> & { error?: string }>(stub, 'read', undefined, { names, have });
      if (r.status !== 200) throw new Error(`reading the cluster's state failed: ${r.status} ${r.value.error ?? ''}`);
      return r.value;
    });
    return {
      ledgers: ledgers(clusterId),
      collection: <T>(name: string) => read(name) as Promise<Snapshot<T> | undefined>,
    };
  };

  const store = (clusterId: string): StateStore => ({
    ...state(clusterId),
    async versions(name) {
      const r = await call<EdgeVersions>(stubFor(env, clusterId), 'versions', name);
      return r.status === 200 ? r.value : undefined;
    },
    async sync(name, payload: SyncPayload) {
      const r = await call<CollectionMeta & { error?: string; reason?: SyncRefusalReason }>(stubFor(env, clusterId), 'sync', name, payload);
      if (r.status === 200) return { ok: true as const, meta: r.value };
      return { ok: false as const, status: r.status === 409 ? (409 as const) : (400 as const), message: r.value.error ?? `status ${r.status}`, ...(r.value.reason ? { reason: r.value.reason } : {}) };
    },
    async admit(writes) {
      if (!writes.length) return;
      const r = await call<{ error?: string }>(stubFor(env, clusterId), 'admit', undefined, writes);
      if (r.status !== 200) throw new Error(`recording admitted writes failed: ${r.status} ${r.value.error ?? ''}`);
    },
    async summary() {
      return (await call<Record<string, CollectionSummary>>(stubFor(env, clusterId), 'summary')).value;
    },
  });

  const clusters: ClusterAdmin = {
    async create(creds) {
      const r = await call(stubFor(env, creds.clusterId), 'putCredentials', undefined, creds);
      registry.forget(creds.clusterId);
      return r.status === 201;
    },
    async rotate(clusterId, rotation: CredentialRotation) {
      const r = await call<ClusterCredentials>(stubFor(env, clusterId), 'rotate', undefined, rotation);
      registry.forget(clusterId);
      return r.status === 200 ? r.value : undefined;
    },
    async remove(clusterId) {
      const existed = (await registry.credentials(clusterId)) !== undefined;
      await call(stubFor(env, clusterId), 'deleteCluster');
      registry.forget(clusterId);
      return existed;
    },
  };

  const changes = changesPort(env, opts.changeKinds ?? new Set(), opts);
  return {
    endpoints,
    registry,
    state,
    store,
    ledgers,
    ...(changes ? { changes } : {}),
    ...(opts.collections?.length ? { writeThrough: { collections: opts.collections, record: (clusterId: string, writes: readonly AdmittedWrite[]) => store(clusterId).admit(writes) } } : {}),
    ...(env.ADMIN_TOKEN ? { admin: { tokenSha256: await sha256Hex(env.ADMIN_TOKEN), clusters } } : {}),
    now,
  };
}
