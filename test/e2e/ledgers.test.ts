// Ledgers end to end, on each platform's real entry: the Worker bundle under Miniflare (one Durable
// Object per ledger, persisted), the Node adapter (one process, MemoryLedgers) and the Lambda
// adapter (the edge's ledgers, or none). Reconcilers reach a ledger through the sync route,
// webhook handlers through state.ledgers, and both must meet the one authority. The API server
// plays no part: requests go to the entries directly.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sha256Hex } from '../../src/edge-state/auth.js';
import { applyLedger, remoteLedgers } from '../../src/edge-state/ledger-client.js';
import type { LedgerRef } from '../../src/edge-state/ledger.js';
import type { EdgeTarget, Fetch } from '../../src/edge-state/push.js';
import { startLocalWorker, type LocalWorker } from '../../scripts/local-worker.js';
import { startNodeServer } from '../../functions/node/server.js';
import { makeLambdaHandler } from '../../functions/lambda/index.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { COUNTER_KIND, type CounterBudget, type TakeResult } from '../fixtures/counter-ledger.js';
import { ledgerPortSuite } from '../fixtures/ledger-suite.js';
import { budgetFeature, POD_BUDGET } from './fixtures/budget-feature.js';
import { localServingCert, trustingFetch } from './support/tls.js';

const CLUSTER = 'e2e-ledgers';
const ADMIN_TOKEN = 'e2e-admin-token';
const ENTRY = join(REPO_ROOT, 'test', 'e2e', 'fixtures', 'budget-worker.ts');

type Answer = { response: { uid: string; allowed: boolean; status?: { code: number; message: string } } };

function review(uid: string, namespace: string): string {
  return JSON.stringify({
    apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview',
    request: {
      uid, kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
      namespace, operation: 'CREATE', userInfo: { username: 'e2e' }, dryRun: false,
      object: { apiVersion: 'v1', kind: 'Pod', metadata: { name: uid, namespace }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
    },
  });
}

const podBudget = (namespace: string): LedgerRef => ({ kind: COUNTER_KIND, namespace, name: POD_BUDGET });

/** Sets a namespace's pod budget, sends `n` pod reviews at once, and checks the grants against the ledger. */
async function raceReviews(edge: EdgeTarget, send: (body: string) => Promise<Answer>, namespace: string, limit: number, n: number): Promise<void> {
  await applyLedger(edge, podBudget(namespace), 'set', { limit });
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => send(review(`${namespace}-${i}`, namespace))));
  const allowed = answers.filter((a) => a.response.allowed).map((a) => a.response.uid);
  expect(allowed).toHaveLength(limit);
  expect(new Set(answers.filter((a) => !a.response.allowed).map((a) => a.response.status?.code))).toEqual(new Set([429]));
  const held = await applyLedger<CounterBudget>(edge, podBudget(namespace), 'read');
  expect([...held.holders].sort()).toEqual([...allowed].sort());
}

async function refusesWebhookSecret(baseUrl: string, webhookSecret: string, f: Fetch): Promise<void> {
  const path = `${baseUrl}/clusters/${CLUSTER}/ledgers/${COUNTER_KIND}/team-a/any/read`;
  for (const headers of [{ authorization: `Bearer ${webhookSecret}` }, {} as Record<string, string>]) {
    const res = await f(path, { method: 'POST', headers });
    expect([res.status, await res.json()]).toEqual([404, { error: 'not found' }]);
  }
  // The path-secret position does not open it either.
  const res = await f(`${baseUrl}/clusters/${CLUSTER}/${webhookSecret}/ledgers`, { method: 'POST', body: '{}' });
  expect(res.status).toBe(404);
}

let persistDir = '';
let worker: LocalWorker;
let creds: { clusterId: string; webhookSecret: string; syncToken: string };
const startWorker = async () => (worker = await startLocalWorker({ entry: ENTRY, adminToken: ADMIN_TOKEN, persistDir }));
// A function: the Worker's port changes when it restarts.
const edge = (): EdgeTarget => ({ baseUrl: worker.url, clusterId: CLUSTER, syncToken: creds.syncToken });
const toWorker = async (body: string) =>
  (await (await fetch(`${worker.url}/clusters/${CLUSTER}/${creds.webhookSecret}/mutate-pod`, { method: 'POST', body })).json()) as Answer;

beforeAll(async () => {
  persistDir = mkdtempSync(join(tmpdir(), 'ks-ledgers-'));
  await startWorker();
  const res = await fetch(`${worker.url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify({ clusterId: CLUSTER }) });
  expect(res.status).toBe(201);
  creds = (await res.json()) as typeof creds;
});

afterAll(async () => {
  await worker?.dispose();
  rmSync(persistDir, { recursive: true, force: true });
});

describe('Worker: one Durable Object per ledger', () => {
  ledgerPortSuite(() => remoteLedgers(edge()), { concurrent: 300, prefix: 'worker' });

  it('webhook handlers and the sync route meet the same authority', async () => {
    await raceReviews(edge(), toWorker, 'team-worker', 10, 40);
  });

  it('refuses the webhook secret (and no token) with the bare 404', async () => {
    await refusesWebhookSecret(worker.url, creds.webhookSecret, fetch);
  });

  it('keeps every ledger across a restart (persisted storage)', async () => {
    const ref: LedgerRef = { kind: COUNTER_KIND, namespace: '', name: 'durable' };
    await applyLedger(edge(), ref, 'set', { limit: 5 });
    for (const holder of ['a', 'b', 'c']) await applyLedger(edge(), ref, 'take', { holder });
    await worker.dispose();
    await startWorker();
    expect((await applyLedger<CounterBudget>(edge(), ref, 'read')).holders).toEqual(['a', 'b', 'c']);
    const more = await Promise.all(Array.from({ length: 10 }, (_, i) => applyLedger<TakeResult>(edge(), ref, 'take', { holder: `after-${i}` })));
    expect(more.filter((r) => r.granted)).toHaveLength(2);
    // And the budget a webhook race spent before the restart stays spent.
    expect((await applyLedger<CounterBudget>(edge(), podBudget('team-worker'), 'read')).holders).toHaveLength(10);
  });
});

describe('Node adapter: one process is the authority (MemoryLedgers)', () => {
  const webhookSecret = 'a'.repeat(64);
  const syncToken = 'b'.repeat(64);
  let node: Awaited<ReturnType<typeof startNodeServer>>;
  const nodeEdge = (): EdgeTarget => ({ baseUrl: node.url, clusterId: CLUSTER, syncToken, fetch: trustingFetch });

  beforeAll(async () => {
    const registryJson = JSON.stringify([{ clusterId: CLUSTER, webhookSecrets: [{ sha256: await sha256Hex(webhookSecret) }], syncTokens: [{ sha256: await sha256Hex(syncToken) }] }]);
    const tls = localServingCert();
    node = await startNodeServer({ clusterId: CLUSTER, registryJson, tlsCert: tls.cert, tlsKey: tls.key, port: 0, kubeconfigPath: inject('kubeconfig'), features: [budgetFeature] });
  });
  afterAll(async () => node?.close());

  ledgerPortSuite(() => remoteLedgers(nodeEdge()), { concurrent: 300, prefix: 'node' });

  it('webhook handlers and the sync route meet the same authority', async () => {
    const send = async (body: string) =>
      (await (await trustingFetch(`${node.url}/clusters/${CLUSTER}/${webhookSecret}/mutate-pod`, { method: 'POST', body })).json()) as Answer;
    await raceReviews(nodeEdge(), send, 'team-node', 10, 40);
  });

  it('refuses the webhook secret (and no token) with the bare 404', async () => {
    await refusesWebhookSecret(node.url, webhookSecret, trustingFetch);
  });
});

describe('Lambda adapter: never its own ledgers', () => {
  const webhookSecret = 'c'.repeat(64);
  const event = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'lambda', 'function-url-event.json'), 'utf8')) as Record<string, unknown>;
  const invoke = (lambda: ReturnType<typeof makeLambdaHandler>) => async (body: string): Promise<Answer> => {
    const path = `/clusters/${CLUSTER}/${webhookSecret}/mutate-pod`;
    const http = (event.requestContext as { http: object }).http;
    const e = { ...event, rawPath: path, body, isBase64Encoded: false, requestContext: { ...(event.requestContext as object), http: { ...http, path } } };
    const out = (await lambda(e as never, {} as never)) as { statusCode: number; body: string };
    expect(out.statusCode).toBe(200);
    return JSON.parse(out.body) as Answer;
  };
  const lambdaEnv = async (extra: Record<string, string> = {}) => ({
    KS_CLUSTER_ID: CLUSTER,
    KS_CLUSTERS_JSON: JSON.stringify([{ clusterId: CLUSTER, webhookSecrets: [{ sha256: await sha256Hex(webhookSecret) }], syncTokens: [] }]),
    KUBECONFIG: inject('kubeconfig'),
    ...extra,
  });

  it("uses the edge's ledgers when given KS_EDGE_URL and KS_SYNC_TOKEN", async () => {
    const lambda = makeLambdaHandler([budgetFeature], await lambdaEnv({ KS_EDGE_URL: `${worker.url}/`, KS_SYNC_TOKEN: creds.syncToken }));
    await raceReviews(edge(), invoke(lambda), 'team-lambda', 3, 12);
  });

  it('has none without an edge, so the handler follows its fallback', async () => {
    const lambda = makeLambdaHandler([budgetFeature], await lambdaEnv());
    const answer = await invoke(lambda)(review('no-edge', 'team-lambda'));
    expect(answer.response).toMatchObject({ allowed: false, status: { code: 503, message: 'e2e-budget: no ledgers in this deployment' } });
  });
});
