// One edge as deployed: the production Worker bundle (functions/worker/index.ts) under Miniflare
// over HTTPS, its Durable Objects persisted to a directory of their own (on tmpfs where there is
// one, so storage is measured without disk latency in the figures), clusters registered through
// the admin API and their state pushed through the sync API. Reads what the edge holds: the
// workerd process's RSS and the bytes its Durable Objects store.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Agent } from 'undici';
import { newSecret } from '../../src/edge-state/auth.js';
import { applyLedger } from '../../src/edge-state/ledger-client.js';
import { pushEachCollection, type EdgeTarget, type Fetch } from '../../src/edge-state/push.js';
import { pubLedgerRef } from '../../src/pub/index.js';
import { stateCollections } from '../../src/registry.js';
import { startLocalWorker, type LocalWorker } from '../../scripts/local-worker.js';
import { descendants } from '../harness/cpu.js';
import { fetchVia, overHttps, trustingAgent, type Exchange, type Tls } from '../harness/https-target.js';
import { NAMESPACE, type EdgeCluster } from './cluster.js';

/** Persist directories of the edges still open (tmpfs holds them in memory): removed on close, or by `removeLeftovers`. */
const open = new Set<string>();

/** Removes what open edges stored, for a run stopped before closing them (watchdog, signal). */
export function removeLeftovers(): void {
  for (const dir of open) rmSync(dir, { recursive: true, force: true });
  open.clear();
}

export type Stored = { objects: number; fileBytes: number; rowBytes: number | null };

/** Key + value bytes of a Durable Object's storage rows (Miniflare keeps them in table _cf_KV). */
function rowBytes(file: string): number | null {
  try {
    const out = execFileSync('sqlite3', ['-readonly', file, 'SELECT coalesce(sum(length(key) + length(value)), 0) FROM _cf_KV'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const n = Number(out.trim());
    return Number.isFinite(n) ? n : null;
  } catch {
    return null;
  }
}

export type Registered = { cluster: EdgeCluster; target: EdgeTarget; mutate: Exchange; validate: Exchange };

export class Edge {
  readonly registered: Registered[] = [];
  private constructor(
    readonly name: string,
    private readonly worker: LocalWorker,
    readonly pids: number[],
    private readonly adminToken: string,
    readonly agent: Agent,
    readonly persistDir: string,
  ) {}

  static async start(name: string, tls: Tls, connections: number): Promise<Edge> {
    const known = new Set(descendants().keys());
    const persistDir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), `ks-bench-edge-${name}-`));
    const adminToken = newSecret();
    open.add(persistDir);
    const agent = trustingAgent(tls.ca, connections);
    try {
      // Warnings only: info logs every admission to this process's stdout (the bench's table).
      const worker = await startLocalWorker({ tls, adminToken, persistDir, bindings: { KS_LOG_LEVEL: 'warn' } });
      const pids = [...descendants()].filter(([pid, comm]) => !known.has(pid) && comm.includes('workerd')).map(([pid]) => pid);
      return new Edge(name, worker, pids, adminToken, agent, persistDir);
    } catch (e) {
      await agent.close();
      rmSync(persistDir, { recursive: true, force: true });
      open.delete(persistDir);
      throw e;
    }
  }

  get url(): string {
    return this.worker.url;
  }

  get fetch(): Fetch {
    return fetchVia(this.agent);
  }

  /** Loads the Worker's isolate (the first request builds the app), so RSS has a baseline. */
  async warm(): Promise<void> {
    const res = await this.fetch(`${this.url}/healthz`);
    if (res.status !== 200) throw new Error(`${this.name}: /healthz answered ${res.status}`);
    await res.text();
  }

  /** Registers the cluster (its own path secret and sync token) through the admin API. */
  async register(cluster: EdgeCluster): Promise<Registered> {
    const res = await this.fetch(`${this.url}/admin/clusters`, { method: 'POST', headers: { authorization: `Bearer ${this.adminToken}` }, body: JSON.stringify({ clusterId: cluster.id }) });
    if (res.status !== 201) throw new Error(`${this.name}: registering ${cluster.id}: ${res.status} ${await res.text()}`);
    const creds = (await res.json()) as { webhookSecret: string; syncToken: string };
    const target: EdgeTarget = { baseUrl: this.url, clusterId: cluster.id, syncToken: creds.syncToken, fetch: this.fetch };
    const base = `${this.url}/clusters/${cluster.id}/${creds.webhookSecret}`;
    const r = { cluster, target, mutate: overHttps(this.agent, `${base}/mutate-pod`), validate: overHttps(this.agent, `${base}/validate-pod`) };
    this.registered.push(r);
    return r;
  }

  /** A reconciler's push: every collection the production features read, then the PUB controller's ledger resync. */
  static async push(r: Registered): Promise<void> {
    const { failures } = await pushEachCollection(r.target, r.cluster.list, stateCollections());
    if (failures.length) throw new Error(`${r.cluster.id}: push failed: ${failures.map((f) => `${f.collection}: ${f.error}`).join('; ')}`);
    for (const { pub, req } of r.cluster.pubResyncs()) await applyLedger(r.target, pubLedgerRef(NAMESPACE, pub), 'resync', req);
  }

  /** Resident memory of the edge's workerd, KiB. */
  rssKiB(): number {
    let kib = 0;
    for (const pid of this.pids) {
      const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
      kib += Number(line?.split(/\s+/)[1] ?? 0);
    }
    return kib;
  }

  /**
   * What the Durable Objects store, per class (a top directory of the persist directory): how many
   * objects, their SQLite files' bytes (WAL included), and the key + value bytes of the rows they
   * hold (read with the sqlite3 CLI, read-only; null where it is missing or the schema differs).
   */
  storedBytes(): Record<string, Stored> {
    const out: Record<string, Stored> = {};
    for (const e of readdirSync(this.persistDir, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const dir = join(this.persistDir, e.name);
      const into: Stored = { objects: 0, fileBytes: 0, rowBytes: 0 };
      for (const f of readdirSync(dir)) {
        into.fileBytes += statSync(join(dir, f)).size;
        if (!f.endsWith('.sqlite') || f === 'metadata.sqlite') continue;
        into.objects++;
        const rows = rowBytes(join(dir, f));
        into.rowBytes = rows === null || into.rowBytes === null ? null : into.rowBytes + rows;
      }
      out[e.name.replace(/^-/, '')] = into;
    }
    return out;
  }

  async close(): Promise<void> {
    await this.agent.close();
    await this.worker.dispose();
    rmSync(this.persistDir, { recursive: true, force: true });
    open.delete(this.persistDir);
  }
}
