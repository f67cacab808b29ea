import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildApp, applyRotation, type ClusterAdmin } from '../app.js';
import type { ClusterCredentials } from '../edge-state/auth.js';
import { registryFromJson } from '../edge-state/file-registry.js';
import { sha256Hex, verifySecret } from '../edge-state/auth.js';
import { cluster, ClusterUsageError, type ClusterOptions } from './cluster.js';

const dir = mkdtempSync(join(tmpdir(), 'ks-cluster-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(args: string[], opts: ClusterOptions): Promise<{ code: number; out: string; log: string[] }> {
  let out = '';
  const log: string[] = [];
  const code = await cluster(args, { ...opts, out: (t) => (out += t), log: (m) => log.push(m) });
  return { code, out, log };
}

/** Whether `secret` authenticates as `credential` of `clusterId` with the registry the Lambda and Node read. */
async function verifies(path: string, clusterId: string, credential: 'webhookSecrets' | 'syncTokens', secret: string, now = Date.now()): Promise<boolean> {
  const creds = await registryFromJson(readFileSync(path, 'utf8')).credentials(clusterId);
  return verifySecret(secret, creds?.[credential], now);
}

describe('cluster --registry FILE (Node, AWS Lambda)', () => {
  const path = join(dir, 'clusters.json');

  it('add makes the file with hashes only, and prints secrets that authenticate', async () => {
    const r = await run(['add', 'prod-1'], { registry: path, output: 'json' });
    const printed = JSON.parse(r.out) as { clusterId: string; webhookSecret: string; syncToken: string };
    expect(printed.clusterId).toBe('prod-1');
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain(printed.webhookSecret);
    expect(text).not.toContain(printed.syncToken);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(await verifies(path, 'prod-1', 'webhookSecrets', printed.webhookSecret)).toBe(true);
    expect(await verifies(path, 'prod-1', 'syncTokens', printed.syncToken)).toBe(true);
    expect(await verifies(path, 'prod-1', 'webhookSecrets', printed.syncToken)).toBe(false);
    expect(r.log.join('\n')).toContain(`--parameter-overrides "ClustersJson=$(tr -d ' \\n' < ${path} | sed 's/"/\\\\"/g')"`);
  });

  it('add refuses a cluster id that exists, or is not a DNS label', async () => {
    await expect(run(['add', 'prod-1'], { registry: path })).rejects.toThrow('cluster "prod-1" already exists; rotate its credentials instead');
    await expect(run(['add', 'Prod_1'], { registry: path })).rejects.toThrow(ClusterUsageError);
  });

  it('rotate adds a secret and keeps the previous one for the overlap only', async () => {
    const before = JSON.parse(readFileSync(path, 'utf8')) as ClusterCredentials[];
    const now = Date.parse('2026-01-01T00:00:00Z');
    const r = await run(['rotate', 'prod-1'], { registry: path, output: 'yaml', overlapSeconds: '60', now: () => now });
    const printed = parse(r.out) as { credential: string; secret: string; previousValidUntil: string };
    expect(printed).toMatchObject({ credential: 'webhook', previousValidUntil: '2026-01-01T00:01:00.000Z' });
    expect(await verifies(path, 'prod-1', 'webhookSecrets', printed.secret, now)).toBe(true);
    const after = JSON.parse(readFileSync(path, 'utf8')) as ClusterCredentials[];
    expect(after[0]!.webhookSecrets).toEqual([{ sha256: before[0]!.webhookSecrets[0]!.sha256, notAfter: now + 60_000 }, { sha256: expect.any(String) }]);
    expect(after[0]!.syncTokens).toEqual(before[0]!.syncTokens);
  });

  it('list shows each cluster and its credentials, as a table or data', async () => {
    await run(['add', 'prod-2'], { registry: path });
    const now = Date.parse('2026-01-01T00:00:30Z');
    expect((await run(['list'], { registry: path, now: () => now })).out).toBe([
      'CLUSTER  WEBHOOK SECRETS  SYNC TOKENS  ROTATED ONES VALID UNTIL',
      'prod-1   2                1            2026-01-01T00:01:00.000Z',
      'prod-2   1                1            -',
      '',
    ].join('\n'));
    const later = Date.parse('2026-01-01T00:02:00Z');
    expect(JSON.parse((await run(['list'], { registry: path, output: 'json', now: () => later })).out)).toEqual([
      { clusterId: 'prod-1', webhookSecrets: 1, syncTokens: 1, expiring: [] },
      { clusterId: 'prod-2', webhookSecrets: 1, syncTokens: 1, expiring: [] },
    ]);
  });

  it('--dry-run says what it would do and changes nothing', async () => {
    const before = readFileSync(path, 'utf8');
    expect((await run(['remove', 'prod-2'], { registry: path, dryRun: true })).out).toBe(`would remove cluster prod-2 in ${path}: 1 cluster (prod-1)\n`);
    expect((await run(['add', 'prod-3'], { registry: path, dryRun: true })).out).toBe(`would add cluster prod-3 (a new webhook secret and sync token) in ${path}: 3 clusters (prod-1, prod-2, prod-3)\n`);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(existsSync(join(dir, 'none.json'))).toBe(false);
  });

  it('remove forgets the cluster; an unknown one is an error', async () => {
    await run(['remove', 'prod-2'], { registry: path });
    expect((JSON.parse(readFileSync(path, 'utf8')) as ClusterCredentials[]).map((c) => c.clusterId)).toEqual(['prod-1']);
    await expect(run(['remove', 'prod-2'], { registry: path })).rejects.toThrow(`cluster "prod-2" is not in ${path}`);
  });

  it('names what is wrong with a registry file it cannot read', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"clusterId":"x"}');
    await expect(run(['list'], { registry: bad })).rejects.toThrow(`${bad}: expected a JSON array of {clusterId, webhookSecrets, syncTokens}`);
    await expect(run(['list'], { registry: join(dir, 'missing.json') })).rejects.toThrow('no such registry file (cluster add creates it)');
  });
});

describe('cluster --edge-url URL (a Worker)', async () => {
  const TOKEN = 'admin-token';
  const stored = new Map<string, ClusterCredentials>();
  // The app's real admin routes over an in-memory store (the Worker keeps one Durable Object per cluster).
  const clusters: ClusterAdmin = {
    create: async (c) => !stored.has(c.clusterId) && !!stored.set(c.clusterId, c),
    rotate: async (id, r) => { const c = stored.get(id); if (!c) return undefined; const next = applyRotation(c, r); stored.set(id, next); return next; },
    remove: async (id) => stored.delete(id),
  };
  const edge = 'https://edge.example';
  const seen: string[] = [];
  const app = buildApp({ endpoints: [], registry: { credentials: async (id) => stored.get(id) }, state: () => ({ collection: async () => undefined }), admin: { tokenSha256: await sha256Hex(TOKEN), clusters } });
  const fetchApp = (async (url: string, init?: RequestInit) => (seen.push(`${init?.method} ${url}`), app.fetch(new Request(url, init)))) as typeof fetch;
  const opts: ClusterOptions = { edgeUrl: `${edge}/`, env: { KS_ADMIN_TOKEN: TOKEN }, fetch: fetchApp };

  it('add, rotate and remove go through the admin API', async () => {
    const added = JSON.parse((await run(['add', 'prod-1'], { ...opts, output: 'json' })).out) as { webhookSecret: string };
    expect(await verifySecret(added.webhookSecret, stored.get('prod-1')!.webhookSecrets, Date.now())).toBe(true);
    const rotated = JSON.parse((await run(['rotate', 'prod-1'], { ...opts, output: 'json', credential: 'sync', overlapSeconds: '0' })).out) as { secret: string };
    expect(await verifySecret(rotated.secret, stored.get('prod-1')!.syncTokens, Date.now())).toBe(true);
    await run(['remove', 'prod-1'], opts);
    expect(stored.has('prod-1')).toBe(false);
    expect(seen).toEqual([`POST ${edge}/admin/clusters`, `POST ${edge}/admin/clusters/prod-1/rotate`, `DELETE ${edge}/admin/clusters/prod-1`]);
    await expect(run(['remove', 'prod-1'], opts)).rejects.toThrow(`cluster "prod-1" not found at ${edge}`);
  });

  it('says what to check when the admin API does not answer to the token', async () => {
    await expect(run(['add', 'prod-2'], { ...opts, env: { KS_ADMIN_TOKEN: 'another-token' } })).rejects.toThrow(`${edge}: no admin API (is ADMIN_TOKEN set on the Worker, and $KS_ADMIN_TOKEN the same?)`);
    expect(stored.has('prod-2')).toBe(false);
  });

  it('--dry-run prints the request without the token, and sends nothing', async () => {
    const before = seen.length;
    expect((await run(['rotate', 'prod-1'], { edgeUrl: edge, dryRun: true, env: {} })).out).toBe(
      `POST ${edge}/admin/clusters/prod-1/rotate\nAuthorization: Bearer $KS_ADMIN_TOKEN\n{"credential":"webhook","overlapSeconds":86400}\n`,
    );
    expect(seen.length).toBe(before);
  });

  it('needs the token, https, and has no list', async () => {
    await expect(run(['add', 'x'], { edgeUrl: edge, env: {} })).rejects.toThrow('needs the admin token in $KS_ADMIN_TOKEN');
    await expect(run(['add', 'x'], { edgeUrl: 'http://edge.example', env: { KS_ADMIN_TOKEN: TOKEN } })).rejects.toThrow('https only');
    await expect(run(['list'], opts)).rejects.toThrow('its admin API lists none; list works with --registry');
    await expect(run(['add', 'x'], { edgeUrl: edge, registry: 'f' })).rejects.toThrow('give --edge-url URL');
  });
});
