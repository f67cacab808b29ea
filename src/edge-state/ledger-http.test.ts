// The ledger route of the sync API and its client, in process (the app's request() as fetch).
import { describe, expect, it } from 'vitest';
import { counterLedger, COUNTER_KIND } from '../../test/fixtures/counter-ledger.js';
import { ledgerPortSuite } from '../../test/fixtures/ledger-suite.js';
import { buildApp, type AppPorts } from '../app.js';
import { sha256Hex } from './auth.js';
import { MemoryLedgers, type LedgerRef, type Ledgers } from './ledger.js';
import { remoteLedgers } from './ledger-client.js';
import { LedgerOpFailedError, ledgerPath, parseLedgerParams } from './ledger-http.js';
import type { EdgeTarget } from './push.js';

const SYNC = 'sync-token';
const WEBHOOK = 'webhook-secret';

/** 'none': a deployment without the ledger port. */
async function ledgerApp(ledgers: AppPorts['ledgers'] | 'none' = () => new MemoryLedgers([counterLedger])) {
  const creds = { clusterId: 'c1', webhookSecrets: [{ sha256: await sha256Hex(WEBHOOK) }], syncTokens: [{ sha256: await sha256Hex(SYNC) }] };
  return buildApp({
    endpoints: [],
    registry: { credentials: async (id) => (id === 'c1' ? creds : undefined) },
    state: () => ({ collection: async () => undefined }),
    ...(ledgers === 'none' ? {} : { ledgers }),
  });
}

const edgeOf = (app: Awaited<ReturnType<typeof ledgerApp>>, token = SYNC, clusterId = 'c1'): EdgeTarget => ({
  baseUrl: 'https://edge.test', clusterId, syncToken: token, fetch: async (url, init) => app.request(url, init),
});

describe('the sync route over one authority (remoteLedgers → app → MemoryLedgers)', () => {
  let remote: Promise<Ledgers> | undefined;
  const shared = new MemoryLedgers([counterLedger]);
  const port = () => (remote ??= ledgerApp(() => shared).then((app) => remoteLedgers(edgeOf(app))));
  ledgerPortSuite(port, { concurrent: 500, prefix: 'route' });

  it('is the same authority the process holds', async () => {
    const ref: LedgerRef = { kind: COUNTER_KIND, namespace: '', name: 'same' };
    await (await port()).apply(ref, 'set', { limit: 3 });
    expect(await shared.apply(ref, 'read', undefined)).toMatchObject({ limit: 3 });
  });
});

describe('the ledger route', () => {
  const path = `/clusters/c1${ledgerPath({ kind: COUNTER_KIND, namespace: 'prod', name: 'web' }, 'read')}`;
  const post = async (app: Awaited<ReturnType<typeof ledgerApp>>, p: string, token: string | undefined, body?: string) =>
    app.request(p, { method: 'POST', ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}), ...(body === undefined ? {} : { body }) });

  it.each([
    ['no token', undefined, path],
    ['the webhook secret as token', WEBHOOK, path],
    ['a wrong token', 'nope', path],
    ['an unknown cluster', SYNC, path.replace('/c1/', '/c2/')],
  ])('gives %s the same bare 404', async (_n, token, p) => {
    const res = await post(await ledgerApp(), p, token);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 'not found' });
  });

  it('is not served where the deployment has no ledgers at all (bare 404)', async () => {
    const res = await post(await ledgerApp('none'), path, SYNC);
    expect([res.status, await res.json()]).toEqual([404, { error: 'not found' }]);
  });

  it('answers 501 when there are none for this cluster', async () => {
    const res = await post(await ledgerApp(() => undefined), path, SYNC);
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ error: 'this deployment keeps no ledgers for cluster "c1"' });
  });

  it.each([
    ['an unknown op', `/clusters/c1/ledgers/${COUNTER_KIND}/prod/web/steal`, '{}', 400, { error: `no ledger operation "steal" for kind "${COUNTER_KIND}"`, reason: 'UnknownLedgerOp' }],
    ['an unknown kind', '/clusters/c1/ledgers/Nope/prod/web/read', '', 400, { error: 'no ledger operation "read" for kind "Nope"', reason: 'UnknownLedgerOp' }],
    ['a body that is not JSON', path, '{', 400, { error: 'body is not valid JSON' }],
    ['an invalid namespace', `/clusters/c1/ledgers/${COUNTER_KIND}/Prod/web/read`, '', 400, { error: 'invalid namespace "Prod" (a DNS label, or "_" for a cluster-scoped ledger)' }],
    ['an invalid name', `/clusters/c1/ledgers/${COUNTER_KIND}/prod/we%20b/read`, '', 400, { error: 'invalid ledger name "we b" (a Kubernetes object name)' }],
    ['a reducer that throws', `/clusters/c1/ledgers/${COUNTER_KIND}/prod/web/explode`, '{}', 500, { error: `ledger ${COUNTER_KIND}/prod/web: operation "explode" failed: boom`, reason: 'LedgerOpFailed' }],
    ['a read', path, '', 200, { result: null }],
  ])('answers %s', async (_n, p, body, status, want) => {
    const res = await post(await ledgerApp(), p, SYNC, body);
    expect([res.status, await res.json()]).toEqual([status, want]);
  });

  it('refuses a body over the limit before reading it', async () => {
    const app = await ledgerApp();
    const res = await app.request(path, { method: 'POST', headers: { authorization: `Bearer ${SYNC}`, 'content-length': String(2 * 1024 * 1024) }, body: '{}' });
    expect(res.status).toBe(400);
  });

  it('the client reports a refused token as a failed operation that says what to check', async () => {
    const err = await remoteLedgers(edgeOf(await ledgerApp(), WEBHOOK)).apply({ kind: COUNTER_KIND, namespace: 'prod', name: 'web' }, 'read', undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LedgerOpFailedError);
    expect((err as LedgerOpFailedError).status).toBe(404);
    expect((err as Error).message).toMatch(/check the cluster id and the sync token/);
  });
});

describe('ledger paths', () => {
  it.each([
    [{ kind: 'PodUnavailableBudget', namespace: 'prod', name: 'web.v2' }, 'take', '/ledgers/PodUnavailableBudget/prod/web.v2/take'],
    [{ kind: 'Quota', namespace: '', name: 'global' }, 'read', '/ledgers/Quota/_/global/read'],
  ])('%j %s ↔ %s', (ref, op, path) => {
    expect(ledgerPath(ref, op)).toBe(path);
    const [, , kind, namespace, name, o] = path.split('/');
    expect(parseLedgerParams({ kind, namespace, name, op: o })).toEqual({ ref, op });
  });
});
