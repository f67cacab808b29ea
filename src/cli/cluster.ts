// `kruise-serverless cluster add|list|rotate|remove`: registers clusters with an edge, so nobody
// writes SHA-256 hashes by hand. Two stores, one per kind of edge:
//   --edge-url URL   a Worker: its admin API (token in $KS_ADMIN_TOKEN); it keeps the hashes
//   --registry FILE  Node (KS_CLUSTERS_FILE) and AWS Lambda (the SAM parameter ClustersJson): a JSON
//                    registry file this command rewrites; the Lambda gets it on the next deploy
// New secrets are printed once (stdout); nothing else keeps them.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { newSecret } from '../edge-state/auth.js';
import {
  addCluster,
  checkClusterId,
  hasCluster,
  parseRegistry,
  removeCluster,
  rotateCluster,
  summarize,
  type CredentialName,
  type Registry,
} from '../deploy/cluster-registry.js';
import { samJsonValue } from '../deploy/plan.js';

export class ClusterUsageError extends Error {
  override name = 'ClusterUsageError';
}

export type ClusterOptions = {
  edgeUrl?: string;
  registry?: string;
  credential?: string;
  overlapSeconds?: string;
  dryRun?: boolean;
  output?: string;
  env?: Record<string, string | undefined>;
  fetch?: typeof fetch;
  out?: (text: string) => void;
  log?: (message: string) => void;
  now?: () => number;
};

type Output = 'text' | 'json' | 'yaml';
const DEFAULT_OVERLAP_SECONDS = 24 * 3600;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export async function cluster(args: string[], opts: ClusterOptions): Promise<number> {
  const [op, id, ...extra] = args;
  if (extra.length) throw new ClusterUsageError(`cluster: unexpected argument "${extra[0]}"`);
  const out = opts.out ?? ((t) => process.stdout.write(t));
  const log = opts.log ?? ((m) => process.stderr.write(`${m}\n`));
  const output = parseOutput(opts.output);
  if ((opts.edgeUrl === undefined) === (opts.registry === undefined)) {
    throw new ClusterUsageError('cluster: give --edge-url URL (a Worker; token in $KS_ADMIN_TOKEN) or --registry FILE (Node and AWS Lambda)');
  }
  if (op === 'list') {
    if (id !== undefined) throw new ClusterUsageError(`cluster list: unexpected argument "${id}"`);
  } else if (op === 'add' || op === 'rotate' || op === 'remove') {
    if (!id) throw new ClusterUsageError(`cluster ${op}: missing the cluster id`);
    try {
      checkClusterId(id);
    } catch (e) {
      throw new ClusterUsageError((e as Error).message);
    }
  } else {
    throw new ClusterUsageError(op ? `cluster: unknown operation "${op}" (add, list, rotate, remove)` : 'cluster: missing the operation (add, list, rotate, remove)');
  }
  if (op !== 'rotate' && (opts.credential !== undefined || opts.overlapSeconds !== undefined)) throw new ClusterUsageError('--credential and --overlap-seconds are rotate options');
  const credential = parseCredential(opts.credential);
  const overlapSeconds = parseOverlap(opts.overlapSeconds);
  const ctx: Ctx = { out, log, output, dryRun: !!opts.dryRun, now: opts.now ?? Date.now };
  if (opts.edgeUrl !== undefined) {
    const token = (opts.env ?? process.env).KS_ADMIN_TOKEN;
    if (!token && !opts.dryRun) throw new ClusterUsageError('--edge-url needs the admin token in $KS_ADMIN_TOKEN (wrangler secret put ADMIN_TOKEN)');
    return worker(op, id, { ...ctx, base: edgeBase(opts.edgeUrl), token: token ?? '', fetch: opts.fetch ?? fetch, credential, overlapSeconds });
  }
  return file(op, id, { ...ctx, path: opts.registry!, credential, overlapSeconds });
}

type Ctx = { out: (t: string) => void; log: (m: string) => void; output: Output; dryRun: boolean; now: () => number };

function parseOutput(o: string | undefined): Output {
  if (o === undefined) return 'text';
  if (o === 'json' || o === 'yaml') return o;
  throw new ClusterUsageError(`-o ${o}: expected json or yaml`);
}

function parseCredential(c: string | undefined): CredentialName {
  if (c === undefined || c === 'webhook' || c === 'sync') return c ?? 'webhook';
  throw new ClusterUsageError(`--credential ${c}: expected webhook or sync`);
}

function parseOverlap(s: string | undefined): number {
  if (s === undefined) return DEFAULT_OVERLAP_SECONDS;
  if (!/^\d+$/.test(s)) throw new ClusterUsageError(`--overlap-seconds ${s}: expected whole seconds`);
  return Number(s);
}

function edgeBase(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new ClusterUsageError(`--edge-url ${url}: not a URL`);
  }
  if (u.protocol !== 'https:' && u.hostname !== 'localhost' && u.hostname !== '127.0.0.1') throw new ClusterUsageError(`--edge-url ${url}: https only (the admin token travels in it)`);
  return url.replace(/\/+$/, '');
}

function data(ctx: Ctx, value: Record<string, unknown> | Record<string, unknown>[], text: () => string): void {
  if (ctx.output === 'json') ctx.out(`${JSON.stringify(value, null, 2)}\n`);
  else if (ctx.output === 'yaml') ctx.out(stringify(value));
  else ctx.out(text());
}

const secretsText = (v: Record<string, unknown>) => Object.entries(v).map(([k, x]) => `${k}: ${String(x)}`).join('\n') + '\n';

// ---- the Worker's admin API -----------------------------------------------------------------

type WorkerCtx = Ctx & { base: string; token: string; fetch: typeof fetch; credential: CredentialName; overlapSeconds: number };

async function worker(op: string, id: string | undefined, ctx: WorkerCtx): Promise<number> {
  if (op === 'list') throw new ClusterUsageError('cluster list: the Worker keeps each cluster in its own Durable Object and its admin API lists none; list works with --registry');
  const req =
    op === 'add' ? { method: 'POST', path: '/admin/clusters', body: { clusterId: id } }
    : op === 'rotate' ? { method: 'POST', path: `/admin/clusters/${id}/rotate`, body: { credential: ctx.credential, overlapSeconds: ctx.overlapSeconds } }
    : { method: 'DELETE', path: `/admin/clusters/${id}`, body: undefined };
  if (ctx.dryRun) {
    ctx.out(`${req.method} ${ctx.base}${req.path}\nAuthorization: Bearer $KS_ADMIN_TOKEN\n${req.body ? `${JSON.stringify(req.body)}\n` : ''}`);
    return 0;
  }
  const res = await ctx.fetch(`${ctx.base}${req.path}`, {
    method: req.method,
    headers: { authorization: `Bearer ${ctx.token}`, ...(req.body ? { 'content-type': 'application/json' } : {}) },
    ...(req.body ? { body: JSON.stringify(req.body) } : {}),
  });
  const text = await res.text();
  if (res.status === 404) throw new Error(op === 'add' ? `${ctx.base}: no admin API (is ADMIN_TOKEN set on the Worker, and $KS_ADMIN_TOKEN the same?)` : `cluster "${id}" not found at ${ctx.base} (or the admin token is wrong)`);
  if (!res.ok) throw new Error(`${req.method} ${ctx.base}${req.path}: ${res.status} ${text.slice(0, 300)}`);
  if (op === 'remove') {
    ctx.log(`removed cluster ${id} from ${ctx.base}`);
    return 0;
  }
  const body = JSON.parse(text) as Record<string, unknown>;
  data(ctx, body, () => secretsText(body));
  ctx.log(op === 'add'
    ? `registered cluster ${id} at ${ctx.base}. Next: kruise-serverless install --base-url ${ctx.base} --cluster-id ${id} --secret-file <file with webhookSecret>; give syncToken to the reconciler ($KS_SYNC_TOKEN)`
    : `rotated the ${ctx.credential} credential of cluster ${id}; the previous one stays valid until ${String(body.previousValidUntil)}`);
  return 0;
}

// ---- a registry file (Node, AWS Lambda) -------------------------------------------------------

type FileCtx = Ctx & { path: string; credential: CredentialName; overlapSeconds: number };

async function file(op: string, id: string | undefined, ctx: FileCtx): Promise<number> {
  const registry = readRegistry(ctx.path, op === 'add');
  if (op === 'list') {
    const rows = summarize(registry, ctx.now());
    data(ctx, rows, () => table(rows));
    return 0;
  }
  if (!hasCluster(registry, id!) && op !== 'add') throw new Error(`cluster "${id}" is not in ${ctx.path}`);
  let next: Registry;
  let secrets: Record<string, unknown> | undefined;
  if (op === 'add') {
    const fresh = { webhookSecret: newSecret(), syncToken: newSecret() };
    next = addCluster(registry, id!, fresh, sha256);
    secrets = { clusterId: id, ...fresh };
  } else if (op === 'rotate') {
    const secret = newSecret();
    const now = ctx.now();
    next = rotateCluster(registry, id!, { credential: ctx.credential, secret, now, overlapMs: ctx.overlapSeconds * 1000 }, sha256);
    secrets = { clusterId: id, credential: ctx.credential, secret, previousValidUntil: new Date(now + ctx.overlapSeconds * 1000).toISOString() };
  } else {
    next = removeCluster(registry, id!);
  }
  const what = op === 'add' ? `add cluster ${id} (a new webhook secret and sync token)` : op === 'rotate' ? `rotate the ${ctx.credential} credential of cluster ${id} (the previous one valid ${ctx.overlapSeconds} s more)` : `remove cluster ${id}`;
  if (ctx.dryRun) {
    ctx.out(`would ${what} in ${ctx.path}: ${next.length} cluster${next.length === 1 ? '' : 's'} (${next.map((c) => c.clusterId).join(', ') || 'none'})\n`);
    return 0;
  }
  writeRegistry(ctx.path, next);
  if (secrets) data(ctx, secrets, () => secretsText(secrets));
  ctx.log(`${what}: wrote ${ctx.path}. It holds only hashes. Now give it to the edge:`);
  ctx.log(`  AWS Lambda: sam deploy ... --parameter-overrides "ClustersJson=${samJsonValue(ctx.path)}" (and the other parameters you deployed with), or kruise-serverless deploy aws --registry ${ctx.path} ...`);
  ctx.log(`  Node:       KS_CLUSTERS_FILE=${ctx.path}, then restart the server`);
  return 0;
}

function readRegistry(path: string, mayBeNew: boolean): Registry {
  if (!existsSync(path)) {
    if (mayBeNew) return [];
    throw new Error(`${path}: no such registry file (cluster add creates it)`);
  }
  return parseRegistry(readFileSync(path, 'utf8'), path);
}

/** Replaces the file in one step, readable by its owner only (it names the clusters and their hashes). */
function writeRegistry(path: string, registry: Registry): void {
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(registry, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
}

function table(rows: ReturnType<typeof summarize>): string {
  if (!rows.length) return 'no clusters\n';
  const lines = [['CLUSTER', 'WEBHOOK SECRETS', 'SYNC TOKENS', 'ROTATED ONES VALID UNTIL'], ...rows.map((r) => [r.clusterId, String(r.webhookSecrets), String(r.syncTokens), r.expiring.join(', ') || '-'])];
  const widths = lines[0]!.map((_, i) => Math.max(...lines.map((l) => l[i]!.length)));
  return lines.map((l) => l.map((c, i) => (i === l.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}
