// The platform-neutral HTTP app. Platforms (functions/) bind the ports and hand it requests.
//   POST /clusters/:clusterId/:secret/:endpoint     admission webhooks (path-secret auth)
//   POST /clusters/:clusterId/:secret/convert       CRD conversion webhook (path-secret auth)
//   POST /clusters/:clusterId/:secret/explain/:name  what a feature would do with an object, and why
//   GET  /clusters/:clusterId/sync                  held state summary: each collection's age
//                                                   and the fallbacks counted   (sync token)
//   GET  /clusters/:clusterId/fallbacks             the fallbacks counted       (sync token)
//   GET  /clusters/:clusterId/sync/:collection      the edge's item versions    (sync token)
//   PUT  /clusters/:clusterId/sync/:collection      push a replace or a patch   (sync token)
//   POST /clusters/:clusterId/ledgers/:kind/:namespace/:name/:op
//                                                   one ledger operation        (sync token)
//   POST /admin/clusters                            register a cluster          (admin token)
//   POST /admin/clusters/:clusterId/rotate          rotate a credential         (admin token)
//   DELETE /admin/clusters/:clusterId               forget a cluster            (admin token)
// Unknown clusters, wrong secrets and unknown endpoints all get the same 404.
import { Hono, type Context } from 'hono';
import { PROBE_ENDPOINT } from './admission/probe.js';
import { admit } from './admission/dispatch.js';
import { answerConversionReview, MAX_CONVERSION_REVIEW_BYTES } from './conversion/review.js';
import { MAX_REVIEW_BYTES } from './admission/review.js';
import { reviewText } from './admission/respond.js';
import {
  bearerToken,
  isClusterId,
  newSecret,
  rotateCredentials,
  secretVerifier,
  sha256Hex,
  type ClusterCredentials,
  type ClusterRegistry,
  type Hasher,
} from './edge-state/auth.js';
import { COLLECTION_NAME, parseSyncPayload } from './edge-state/sync.js';
import type { LedgerKind, Ledgers } from './edge-state/ledger.js';
import { withLedgerMirror } from './edge-state/ledger-mirror.js';
import { MAX_LEDGER_BODY_BYTES, answerLedgerOp, parseLedgerBody, parseLedgerParams } from './edge-state/ledger-http.js';
import type { StateStore } from './edge-state/state-store.js';
import type { Admitted } from './admission/dispatch.js';
import type { ChangeDebouncer, ChangeEvent, ChangeSink, ClusterState, CollectionSpec, RelatedObjects, WorkloadPods } from './edge-state/contracts.js';
import { workloadPodEvent } from './edge-state/workload-pods.js';
import { admittedRef } from './edge-state/admitted-ref.js';
import type { Explainer, WebhookEndpoint } from './admission/types.js';
import { admittedWrites, type AdmittedWrite } from './edge-state/admitted.js';
import { withWriteThrough } from './admission/write-through.js';
import { FallbackCounts } from './admission/fallback-counts.js';

export type CredentialRotation = { credential: 'webhookSecrets' | 'syncTokens'; sha256: string; now: number; overlapMs: number };

/** Applies a rotation to stored credentials (shared by every ClusterAdmin). */
export function applyRotation(creds: ClusterCredentials, r: CredentialRotation): ClusterCredentials {
  return { ...creds, [r.credential]: rotateCredentials(creds[r.credential], r.sha256, r.now, r.overlapMs) };
}

/** Writes cluster credentials (the admin API). */
export interface ClusterAdmin {
  /** false if the cluster already exists. */
  create(creds: ClusterCredentials): Promise<boolean>;
  /** Adds a credential (see rotateCredentials); undefined if the cluster is unknown. */
  rotate(clusterId: string, rotation: CredentialRotation): Promise<ClusterCredentials | undefined>;
  remove(clusterId: string): Promise<boolean>;
}

export type AppPorts = {
  endpoints: WebhookEndpoint[];
  registry: ClusterRegistry;
  /** Cluster state handlers read (pushed state at the edge, live reads on Node). */
  state: (clusterId: string) => ClusterState;
  /** Enables the sync API: where pushed state is written. */
  store?: (clusterId: string) => StateStore;
  /**
   * Enables the ledger route: the cluster's ledger authority, the same one `state(clusterId).ledgers`
   * is (undefined: none for this cluster here).
   */
  ledgers?: (clusterId: string) => Ledgers | undefined;
  /** Enables the admin API. */
  admin?: { tokenSha256: string; clusters: ClusterAdmin };
  now?: () => number;
  /** How secrets are hashed (defaults to Web Crypto). */
  hash?: Hasher;
  /** Explain endpoints, by name. */
  explainers?: Record<string, Explainer>;
  /**
   * Read-your-writes: what a validating endpoint admits is written through to these collections
   * of the cluster's state (src/edge-state/admitted.ts) before the answer goes back.
   */
  writeThrough?: { collections: readonly CollectionSpec[]; record: (clusterId: string, writes: readonly AdmittedWrite[]) => Promise<void> };
  /**
   * Publish a change event when an object of one of `kinds` ("apiVersion/Kind") is admitted, and
   * when a webhook's ledger operation changes what a ledger's object shows (`ledgerKinds` mirrors).
   */
  changes?: {
    sink: ChangeSink;
    kinds: ReadonlySet<string>;
    ledgerKinds?: readonly LedgerKind[];
    related?: RelatedObjects;
    /** Pod status changes the pod-status observer admits run these workloads' reconcilers. */
    workloadPods?: readonly WorkloadPods[];
    /** Coalesces those per workload (without one, each is published). */
    debounce?: ChangeDebouncer;
    onError?: (e: unknown) => void;
  };
};

const REASONS: Record<Admitted['operation'], ChangeEvent['reason']> = { CREATE: 'created', UPDATE: 'updated', DELETE: 'deleted', CONNECT: 'connected' };

/** The change event for an admitted request, if one should be published. */
export function changeEventFor(clusterId: string, a: Admitted | undefined, kinds: ReadonlySet<string>): ChangeEvent | undefined {
  if (!a || !a.allowed || a.dryRun || !a.name || !kinds.has(`${a.apiVersion}/${a.kind}`)) return undefined;
  // Status is the controller's own output (a `scale` write still asks for a run).
  if (a.subResource === 'status') return undefined;
  const admitted = admittedRef(a);
  return { clusterId, apiVersion: a.apiVersion, kind: a.kind, ...(a.namespace ? { namespace: a.namespace } : {}), name: a.name, reason: REASONS[a.operation], ...(admitted ? { admitted } : {}) };
}

/** Change events for the objects an allowed, persisted request concerns (validating endpoints see it final). */
export function relatedEvents(clusterId: string, a: Admitted | undefined, related: RelatedObjects): ChangeEvent[] {
  if (!a || !a.allowed || a.dryRun) return [];
  const admitted = admittedRef(a);
  return related(a).map((o) => ({ clusterId, ...o, reason: `related ${a.kind.toLowerCase()} ${REASONS[a.operation]}`, ...(admitted ? { admitted } : {}) }));
}

const NOT_FOUND = { error: 'not found' };
/** Answer this much before the webhook's timeoutSeconds, so the API server gets our verdict. */
const RESPONSE_MARGIN_MS = 500;
const DEFAULT_OVERLAP_SECONDS = 24 * 3600;

export function buildApp(ports: AppPorts): Hono {
  const now = ports.now ?? Date.now;
  const hash = ports.hash ?? sha256Hex;
  const verifySecret = secretVerifier(hash);
  const endpoints = new Map([...ports.endpoints, PROBE_ENDPOINT].map((e) => [e.path, e]));
  // Per app instance (a Worker isolate, a Node process, a Lambda environment).
  const fallbacks = new FallbackCounts(now());
  const app = new Hono();

  app.get('/healthz', (c) => c.json({ ok: true }));

  // Before the admission route, which would take `convert` for an endpoint name. Pure: needs no state.
  app.post('/clusters/:clusterId/:secret/convert', async (c) => {
    const { clusterId, secret } = c.req.param();
    const creds = isClusterId(clusterId) ? await ports.registry.credentials(clusterId) : undefined;
    if (!(await verifySecret(secret, creds?.webhookSecrets, now()))) return c.json(NOT_FOUND, 404);
    const length = Number(c.req.header('content-length') ?? '0');
    if (length > MAX_CONVERSION_REVIEW_BYTES) return c.json({ error: `request body is ${length} bytes; the limit is ${MAX_CONVERSION_REVIEW_BYTES}` }, 400);
    return c.json(answerConversionReview(await c.req.text()));
  });

  app.post('/clusters/:clusterId/:secret/:endpoint', async (c) => {
    const { clusterId, secret, endpoint: path } = c.req.param();
    const t = now();
    const creds = isClusterId(clusterId) ? await ports.registry.credentials(clusterId) : undefined;
    const endpoint = endpoints.get(path);
    if (!(await verifySecret(secret, creds?.webhookSecrets, t)) || !endpoint) return c.json(NOT_FOUND, 404);
    const length = Number(c.req.header('content-length') ?? '0');
    if (length > MAX_REVIEW_BYTES) return c.json({ error: `request body is ${length} bytes; the limit is ${MAX_REVIEW_BYTES}` }, 400);
    const body = await c.req.text();
    const budgetMs = endpoint.timeoutSeconds * 1000 - RESPONSE_MARGIN_MS;
    const mirrored = withLedgerMirror(ports.state(clusterId), ports.changes?.ledgerKinds ?? [], clusterId);
    const decided = await admit(endpoint, body, { clusterId, state: mirrored.state, now: t, budgetMs });
    if (decided.fallbacks) fallbacks.add(clusterId, path, decided.fallbacks);
    const through = endpoint.type === 'validating' ? ports.writeThrough : undefined;
    const answer = through
      ? await withWriteThrough(decided, endpoint, (a) => admittedWrites(through.collections, { ...a, endpoint: path }, t), (w) => through.record(clusterId, w))
      : decided;
    const change = ports.changes && changeEventFor(clusterId, answer.admitted, ports.changes.kinds);
    // A dry run changes no ledger, whatever the operation answered.
    const events = [...(change ? [change] : []), ...(answer.admitted?.dryRun === false ? mirrored.changed() : [])];
    if (ports.changes?.related && endpoint.type === 'validating') events.push(...relatedEvents(clusterId, answer.admitted, ports.changes.related));
    const podStatus = ports.changes && endpoint.observesWorkloadPods && answer.admitted ? workloadPodEvent(clusterId, answer.admitted, ports.changes.workloadPods ?? []) : undefined;
    if ((events.length || podStatus) && ports.changes) {
      const { sink, debounce, onError } = ports.changes;
      // In the background: the API server is waiting for our answer, not for the events.
      const sent = (podStatus && debounce ? debounce.offer(clusterId, [podStatus]) : Promise.resolve(podStatus ? [podStatus] : []))
        .then((now) => (events.length || now.length ? sink.publish([...events, ...now]) : undefined))
        .catch((e: unknown) => onError?.(e));
      try {
        c.executionCtx.waitUntil(sent);
      } catch {
        // no execution context outside Workers: the promise simply runs on
      }
    }
    if (answer.status !== 200) return c.json(answer.body, answer.status);
    return c.body(reviewText(answer.body), 200, { 'content-type': 'application/json' });
  });

  app.post('/clusters/:clusterId/:secret/explain/:name', async (c) => {
    const { clusterId, secret, name } = c.req.param();
    const t = now();
    const creds = isClusterId(clusterId) ? await ports.registry.credentials(clusterId) : undefined;
    const explain = ports.explainers?.[name];
    if (!(await verifySecret(secret, creds?.webhookSecrets, t)) || !explain) return c.json(NOT_FOUND, 404);
    const length = Number(c.req.header('content-length') ?? '0');
    if (length > MAX_REVIEW_BYTES) return c.json({ error: `request body is ${length} bytes; the limit is ${MAX_REVIEW_BYTES}` }, 400);
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: 'body is not valid JSON' }, 400);
    }
    const answer = await explain(body, ports.state(clusterId), { clusterId, now: t });
    return c.json(answer.body as object, answer.status as 200 | 400);
  });

  /** The cluster id, if the request carries one of its sync tokens. */
  const syncClusterId = async (c: Context): Promise<string | undefined> => {
    const clusterId = c.req.param('clusterId') ?? '';
    if (!isClusterId(clusterId)) return undefined;
    const creds = await ports.registry.credentials(clusterId);
    const ok = await verifySecret(bearerToken(c.req.header('authorization')) ?? '', creds?.syncTokens, now());
    return ok ? clusterId : undefined;
  };

  const syncAuth = async (c: Context): Promise<StateStore | undefined> => {
    const clusterId = ports.store && (await syncClusterId(c));
    return clusterId ? ports.store?.(clusterId) : undefined;
  };

  app.get('/clusters/:clusterId/sync', async (c) => {
    const store = await syncAuth(c);
    if (!store) return c.json(NOT_FOUND, 404);
    const t = now();
    const summary = await store.summary();
    // ageMs: since the edge last knew the collection current (a push, or a later admitted write); pushAgeMs: since its last push's LIST.
    const collections = Object.fromEntries(Object.entries(summary).map(([k, m]) => [k, { ...m, ageMs: t - m.currentAt, pushAgeMs: t - m.observedAt }]));
    return c.json({ collections, ...fallbackReport(c.req.param('clusterId')) });
  });

  const fallbackReport = (clusterId: string) => ({ fallbacks: fallbacks.of(clusterId), fallbacksSince: fallbacks.since });

  // Without the sync API too (Node, Lambda): the counts are the webhook host's own.
  app.get('/clusters/:clusterId/fallbacks', async (c) => {
    const clusterId = await syncClusterId(c);
    return clusterId ? c.json(fallbackReport(clusterId)) : c.json(NOT_FOUND, 404);
  });

  app.get('/clusters/:clusterId/sync/:collection', async (c) => {
    const store = await syncAuth(c);
    if (!store) return c.json(NOT_FOUND, 404);
    const versions = await store.versions(c.req.param('collection'));
    return versions ? c.json(versions) : c.json({ error: 'collection not pushed yet' }, 404);
  });

  app.put('/clusters/:clusterId/sync/:collection', async (c) => {
    const store = await syncAuth(c);
    if (!store) return c.json(NOT_FOUND, 404);
    const name = c.req.param('collection');
    if (!COLLECTION_NAME.test(name)) return c.json({ error: `invalid collection name "${name}"` }, 400);
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return c.json({ error: 'body is not valid JSON' }, 400);
    }
    const payload = parseSyncPayload(body);
    if (typeof payload === 'string') return c.json({ error: payload }, 400);
    const result = await store.sync(name, payload);
    return result.ok ? c.json(result.meta) : c.json({ error: result.message, ...(result.reason ? { reason: result.reason } : {}) }, result.status);
  });

  app.post('/clusters/:clusterId/ledgers/:kind/:namespace/:name/:op', async (c) => {
    const clusterId = ports.ledgers && (await syncClusterId(c));
    if (!clusterId) return c.json(NOT_FOUND, 404);
    const ledgers = ports.ledgers?.(clusterId);
    if (!ledgers) return c.json({ error: `this deployment keeps no ledgers for cluster "${clusterId}"` }, 501);
    const target = parseLedgerParams(c.req.param());
    if (typeof target === 'string') return c.json({ error: target }, 400);
    const length = Number(c.req.header('content-length') ?? '0');
    if (length > MAX_LEDGER_BODY_BYTES) return c.json({ error: `request body is ${length} bytes; the limit is ${MAX_LEDGER_BODY_BYTES}` }, 400);
    const body = parseLedgerBody(await c.req.text());
    if (typeof body === 'string') return c.json({ error: body }, 400);
    const answer = await answerLedgerOp(ledgers, target.ref, target.op, body.req);
    return c.json(answer.body, answer.status);
  });

  const adminAuth = async (c: Context): Promise<ClusterAdmin | undefined> => {
    if (!ports.admin) return undefined;
    const ok = await verifySecret(bearerToken(c.req.header('authorization')) ?? '', [{ sha256: ports.admin.tokenSha256 }], now());
    return ok ? ports.admin.clusters : undefined;
  };

  app.post('/admin/clusters', async (c) => {
    const admin = await adminAuth(c);
    if (!admin) return c.json(NOT_FOUND, 404);
    const body = (await c.req.json().catch(() => ({}))) as { clusterId?: unknown };
    const clusterId = typeof body.clusterId === 'string' ? body.clusterId : '';
    if (!isClusterId(clusterId)) return c.json({ error: 'clusterId must be a DNS label (lowercase letters, digits, dashes; at most 63)' }, 400);
    const webhookSecret = newSecret();
    const syncToken = newSecret();
    const created = await admin.create({
      clusterId,
      webhookSecrets: [{ sha256: await hash(webhookSecret) }],
      syncTokens: [{ sha256: await hash(syncToken) }],
    });
    if (!created) return c.json({ error: `cluster "${clusterId}" already exists; rotate its credentials instead` }, 409);
    return c.json({ clusterId, webhookSecret, syncToken }, 201);
  });

  app.post('/admin/clusters/:clusterId/rotate', async (c) => {
    const admin = await adminAuth(c);
    if (!admin) return c.json(NOT_FOUND, 404);
    const body = (await c.req.json().catch(() => ({}))) as { credential?: unknown; overlapSeconds?: unknown };
    const which = body.credential === 'sync' ? 'syncTokens' : body.credential === 'webhook' ? 'webhookSecrets' : undefined;
    if (!which) return c.json({ error: 'credential must be "webhook" or "sync"' }, 400);
    const overlap = typeof body.overlapSeconds === 'number' && body.overlapSeconds >= 0 ? body.overlapSeconds : DEFAULT_OVERLAP_SECONDS;
    const secret = newSecret();
    const t = now();
    const updated = await admin.rotate(c.req.param('clusterId'), { credential: which, sha256: await hash(secret), now: t, overlapMs: overlap * 1000 });
    if (!updated) return c.json(NOT_FOUND, 404);
    return c.json({ clusterId: updated.clusterId, credential: body.credential, secret, previousValidUntil: new Date(t + overlap * 1000).toISOString() });
  });

  app.delete('/admin/clusters/:clusterId', async (c) => {
    const admin = await adminAuth(c);
    if (!admin) return c.json(NOT_FOUND, 404);
    return (await admin.remove(c.req.param('clusterId'))) ? c.body(null, 204) : c.json(NOT_FOUND, 404);
  });

  app.notFound((c) => c.json(NOT_FOUND, 404));
  app.onError((err, c) => c.json({ error: `internal error: ${err.message}` }, 500));
  return app;
}
