// npm run bench:edge-clusters [-- --clusters=50 --pods=300 --rounds=4 --round-seconds=8 --in-flight=8 --push-period-seconds=15]
// Many clusters on one edge (issue 30, group 4). One edge (the production Worker under Miniflare)
// serves `clusters` registered clusters, each with its own path secret, sync token and pushed
// state; admissions (pod CREATEs to mutate-pod, evictions to validate-pod against a PUB ledger,
// 3 : 1) go round-robin over all of them while every cluster's reconciler keeps pushing (churned
// pods, PUB resyncs) once per push period. The same load goes to one cluster alone on a second,
// fresh edge. Rounds alternate between the two edges (each edge's pushes run only during its own
// rounds). Printed: admission p50/p99 both ways and their ratio, and what the edge holds per
// cluster (Durable Object storage bytes, workerd RSS). Figures are printed, never asserted.
import '../harness/offline-env.js'; // first: before anything loads Miniflare
import { cpus, loadavg } from 'node:os';
import { stop as stopEsbuild } from 'esbuild';
import { listCollection } from '../../src/edge-state/live-state.js';
import { stateCollections } from '../../src/registry.js';
import { descendants } from '../harness/cpu.js';
import { withServingCert } from '../harness/https-target.js';
import { drive, figures, mergeTallies, type Figures, type Tally } from '../harness/load.js';
import { EdgeCluster, type Review } from './cluster.js';
import { Edge, removeLeftovers, type Registered } from './edge.js';
import { print, type Memory, type Options, type Side, type SideResult } from './report.js';
import { BackgroundPushes } from './pushes.js';

const WATCHDOG_MS = 540_000;
const REVIEWS_PER_CLUSTER = 400;

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);

function option(name: string, fallback: number): number {
  const arg = process.argv.slice(2).find((a) => a.startsWith(`--${name}=`));
  if (!arg) return fallback;
  const v = Number(arg.slice(name.length + 3));
  if (!Number.isInteger(v) || v < 1) throw new Error(`--${name} must be a whole number ≥ 1, got "${arg.slice(name.length + 3)}"`);
  return v;
}

const opts: Options = {
  clusters: option('clusters', 50),
  pods: option('pods', 300),
  rounds: option('rounds', 4),
  roundMs: option('round-seconds', 8) * 1000,
  inFlight: option('in-flight', 8),
  pushPeriodMs: option('push-period-seconds', 15) * 1000,
};


/** Per cluster, its admissions (3 creates then 1 eviction, repeating). */
function reviewsOf(r: Registered): Review[] {
  const creates = r.cluster.podReviews(REVIEWS_PER_CLUSTER);
  const evictions = r.cluster.evictionReviews(REVIEWS_PER_CLUSTER / 3);
  return Array.from({ length: REVIEWS_PER_CLUSTER }, (_, i) => (i % 4 === 3 ? evictions[i >> 2]! : creates[i - (i >> 2)]!));
}

/** Latency per kind of admission, beside the load's own tally. */
class ByKind {
  readonly ms = { create: [] as number[], evict: [] as number[] };
  reset(): void {
    this.ms.create.length = 0;
    this.ms.evict.length = 0;
  }
  figures(kind: 'create' | 'evict'): Figures {
    const t: Tally = { latenciesMs: this.ms[kind], failed: 0, elapsedMs: 1, clientCpuMs: 0, serverCpuMs: undefined };
    return figures(t);
  }
}

/** Request i goes to cluster i mod n, its next review; the answer must be that review's decision. */
function sender(edge: Edge, reviews: Review[][], kinds: ByKind) {
  const next = reviews.map(() => 0);
  return async (i: number): Promise<boolean> => {
    const c = i % reviews.length;
    const list = reviews[c]!;
    const n = next[c]!;
    next[c] = n + 1;
    const review = list[n % list.length]!;
    const r = edge.registered[c]!;
    const t0 = performance.now();
    const { status, text } = await (review.kind === 'create' ? r.mutate : r.validate)(review.body);
    kinds.ms[review.kind].push(performance.now() - t0);
    if (status !== 200 || !text.includes(review.uid)) throw new Error(`${r.cluster.id} ${review.kind}: HTTP ${status}: ${text.slice(0, 200)}`);
    // A pod CREATE: allowed and injected. An eviction: allowed, or the budget's refusal.
    const expected = review.kind === 'create' ? text.includes('"allowed":true') && text.includes('"patch"') : text.includes('"allowed":true') || text.includes('pub unavailable allowed is negative');
    if (!expected) throw new Error(`${r.cluster.id} ${review.kind}: unexpected answer ${text.slice(0, 300)}`);
    return true;
  };
}

async function startSide(side: Side, count: number, clusters: EdgeCluster[], tls: Parameters<typeof Edge.start>[1]): Promise<{ edge: Edge; memory: Memory }> {
  const t0 = performance.now();
  const edge = await Edge.start(side, tls, opts.inFlight + 4);
  try {
    await edge.warm();
    const rssBaseKiB = edge.rssKiB();
    for (const c of clusters.slice(0, count)) await Edge.push(await edge.register(c));
    const memory: Memory = { clusters: count, rssBaseKiB, rssPushedKiB: edge.rssKiB(), rssAfterKiB: 0, storage: edge.storedBytes() };
    log(`${side}: edge up, ${count} cluster(s) registered and pushed in ${((performance.now() - t0) / 1000).toFixed(1)} s; workerd RSS ${rssBaseKiB} → ${memory.rssPushedKiB} KiB`);
    return { edge, memory };
  } catch (e) {
    await edge.close();
    throw e;
  }
}

/** What one cluster's reconciler pushes, as JSON: the logical size of its state. */
async function pushedJsonBytes(cluster: EdgeCluster): Promise<number> {
  let bytes = 0;
  for (const spec of stateCollections()) bytes += JSON.stringify((await listCollection(cluster.list, spec)).items).length;
  return bytes;
}

async function run(): Promise<Record<string, unknown>> {
  const clusters = await Promise.all(Array.from({ length: opts.clusters }, (_, i) => EdgeCluster.build(i, opts.pods)));
  const jsonBytes = await pushedJsonBytes(clusters[0]!);
  return withServingCert(async (tls) => {
    const sides: Partial<Record<Side, { edge: Edge; memory: Memory }>> = {};
    try {
      sides.many = await startSide('many', opts.clusters, clusters, tls);
      // A fresh edge, the first cluster alone (its own copy of the same state as on the shared edge).
      sides.alone = await startSide('alone', 1, [await EdgeCluster.build(0, opts.pods)], tls);
      const results = {} as Record<Side, SideResult>;
      const tallies: Record<Side, Tally[]> = { many: [], alone: [] };
      const kinds: Record<Side, ByKind> = { many: new ByKind(), alone: new ByKind() };
      const pushes: Record<Side, BackgroundPushes> = {
        many: new BackgroundPushes(sides.many.edge.registered, opts.pushPeriodMs, log),
        alone: new BackgroundPushes(sides.alone.edge.registered, opts.pushPeriodMs, log),
      };
      const senders = {
        many: sender(sides.many.edge, sides.many.edge.registered.map(reviewsOf), kinds.many),
        alone: sender(sides.alone.edge, sides.alone.edge.registered.map(reviewsOf), kinds.alone),
      };
      const order: Side[] = ['many', 'alone'];
      log(`warming up both edges (${opts.inFlight} in flight)`);
      for (const s of order) {
        const warm = await drive(senders[s], { requests: opts.clusters * 8, concurrency: opts.inFlight, maxMs: 10_000 }, sides[s]!.edge.pids);
        if (warm.failed) throw new Error(`${s}: ${warm.failed} warm-up admissions failed, first: ${warm.firstError}`);
      }
      for (const s of order) kinds[s].reset();
      for (let r = 0; r < opts.rounds; r++) {
        for (const s of r % 2 ? [...order].reverse() : order) {
          pushes[s].start();
          const t = await drive(senders[s], { requests: 1_000_000, concurrency: opts.inFlight, maxMs: opts.roundMs }, sides[s]!.edge.pids);
          await pushes[s].stop();
          if (t.failed) throw new Error(`${s}: ${t.failed} admissions failed, first: ${t.firstError}`);
          tallies[s].push(t);
          log(`round ${r + 1}/${opts.rounds} ${s}: ${t.latenciesMs.length} admissions, ${pushes[s].count} pushes so far`);
        }
      }
      for (const s of order) {
        const side = sides[s]!;
        side.memory.rssAfterKiB = side.edge.rssKiB();
        side.memory.storage = side.edge.storedBytes();
        const p = pushes[s].figures();
        results[s] = { all: figures(mergeTallies(tallies[s])), create: kinds[s].figures('create'), evict: kinds[s].figures('evict'), pushes: p.count, pushP50Ms: p.p50Ms, pushP99Ms: p.p99Ms, pushFailures: p.failures, memory: side.memory };
      }
      print(opts, results, jsonBytes);
      return { options: opts, results, pushedJsonBytesPerCluster: jsonBytes };
    } finally {
      for (const s of ['many', 'alone'] as const) await sides[s]?.edge.close();
    }
  });
}

/** Stops the processes this run started (workerd) and removes what the edges stored. */
function abandon(): never {
  for (const pid of descendants().keys()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  removeLeftovers();
  process.exit(1);
}

const watchdog = setTimeout(() => {
  process.stderr.write(`bench: still running after ${WATCHDOG_MS / 1000}s; stopping the processes it started\n`);
  abandon();
}, WATCHDOG_MS);
watchdog.unref();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, abandon);

const started = performance.now();
const host = { node: process.version, cpus: cpus().length, loadavgBefore: loadavg().map((l) => Number(l.toFixed(2))) };
log(`edge-clusters: ${JSON.stringify(opts)} (node ${host.node}, ${host.cpus} CPUs, load average ${host.loadavgBefore.join(' ')})`);
try {
  const out = await run();
  const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  const loadAfter = loadavg().map((l) => Number(l.toFixed(2)));
  process.stdout.write(`host: node ${host.node}, ${host.cpus} CPUs, load average ${host.loadavgBefore.join(' ')} → ${loadAfter.join(' ')}; ${seconds} s\n`);
  process.stdout.write(`BENCH_JSON ${JSON.stringify({ subject: 'edge-clusters', at: new Date().toISOString(), seconds, host: { ...host, loadavgAfter: loadAfter }, ...out })}\n`);
} finally {
  clearTimeout(watchdog);
  await stopEsbuild();
}
