// The edge-clusters subject's output: one table of admissions (many clusters against one alone),
// push times, what the edge holds per cluster, and the goals line bench:all picks up.
import type { Figures } from '../harness/load.js';
import { fixed, tableRow, times } from '../harness/report.js';
import { CHURN } from './cluster.js';
import type { Stored } from './edge.js';

const GOAL_P99 = 1.2;

export type Options = { clusters: number; pods: number; rounds: number; roundMs: number; inFlight: number; pushPeriodMs: number };
export type Side = 'many' | 'alone';
export type Memory = { clusters: number; rssBaseKiB: number; rssPushedKiB: number; rssAfterKiB: number; storage: Record<string, Stored> };
export type SideResult = { all: Figures; create: Figures; evict: Figures; pushes: number; pushP50Ms: number; pushP99Ms: number; pushFailures: number; memory: Memory };

const kib = (bytes: number | null) => (bytes === null ? '-' : (bytes / 1024).toFixed(0));

/** One line per edge: what it stores and its workerd's RSS, in total and per cluster. */
function memoryLine(m: Memory): string {
  const none: Stored = { objects: 0, fileBytes: 0, rowBytes: 0 };
  const clusterObj = m.storage.ClusterObject ?? none;
  const ledgerObj = m.storage.LedgerObject ?? none;
  const rows = clusterObj.rowBytes === null || ledgerObj.rowBytes === null ? null : clusterObj.rowBytes + ledgerObj.rowBytes;
  return `${String(m.clusters).padStart(3)} cluster(s): stored rows ${kib(clusterObj.rowBytes)} KiB in ${clusterObj.objects} cluster objects + ${kib(ledgerObj.rowBytes)} KiB in ${ledgerObj.objects} ledger objects`
    + ` = ${kib(rows === null ? null : rows / m.clusters)} KiB per cluster (SQLite files with WAL: ${kib((clusterObj.fileBytes + ledgerObj.fileBytes) / m.clusters)} KiB per cluster);`
    + ` workerd RSS ${m.rssBaseKiB} KiB idle → ${m.rssPushedKiB} KiB pushed → ${m.rssAfterKiB} KiB after the rounds`;
}

export function print(opts: Options, results: Record<Side, SideResult>, jsonBytes: number): void {
  const w = [24, 8, 8, 8, 8, 8, 8, 8, 8, 9];
  const row = (cells: string[]) => tableRow(cells, w, 1);
  const ratio = (f: (x: SideResult) => number) => times(f(results.many) / f(results.alone));
  const lines = [
    `production Worker under Miniflare (KS_LOG_LEVEL=warn, Durable Objects persisted on tmpfs); ${opts.pods} pods, 4 SidecarSets, 2 PUBs, 1 WorkloadSpread per cluster;`
      + ` ${opts.inFlight} admissions in flight (pod CREATE : eviction = 3 : 1), ${opts.rounds} alternating rounds of ${opts.roundMs / 1000} s per edge;`
      + ` every cluster pushes (${CHURN} pods churned per churning workload, PUB resync) once per ${opts.pushPeriodMs / 1000} s during its edge's rounds`,
    row(['edge', 'adm', 'adm/s', 'p50 ms', 'p99 ms', 'create50', 'create99', 'evict50', 'evict99', 'pushes']),
  ];
  const label = { many: `${opts.clusters} clusters, spread`, alone: '1 cluster alone' };
  for (const s of ['many', 'alone'] as const) {
    const r = results[s];
    lines.push(row([label[s], String(r.all.requests), fixed(r.all.perSecond, 0), fixed(r.all.p50Ms, 2), fixed(r.all.p99Ms, 2), fixed(r.create.p50Ms, 2), fixed(r.create.p99Ms, 2), fixed(r.evict.p50Ms, 2), fixed(r.evict.p99Ms, 2), `${r.pushes}${r.pushFailures ? ` (${r.pushFailures} failed)` : ''}`]));
  }
  lines.push(row(['many / alone', '', ratio((x) => x.all.perSecond), ratio((x) => x.all.p50Ms), ratio((x) => x.all.p99Ms), ratio((x) => x.create.p50Ms), ratio((x) => x.create.p99Ms), ratio((x) => x.evict.p50Ms), ratio((x) => x.evict.p99Ms), '']));
  lines.push(`push (all collections + PUB resync) p50/p99 ms: many ${fixed(results.many.pushP50Ms, 0)} / ${fixed(results.many.pushP99Ms, 0)}, alone ${fixed(results.alone.pushP50Ms, 0)} / ${fixed(results.alone.pushP99Ms, 0)}`);
  lines.push('', `state per cluster, after the rounds (a push carries ${kib(jsonBytes)} KiB of JSON per cluster):`);
  for (const s of ['many', 'alone'] as const) lines.push(`  ${memoryLine(results[s].memory)}`);
  // The first cluster also pays for what any cluster needs (objects' isolates, the app's caches): per added cluster, the difference.
  const added = opts.clusters - 1;
  const marginal = (f: (m: Memory) => number) => (added ? ((f(results.many.memory) - f(results.alone.memory)) / added).toFixed(0) : '-');
  lines.push(`  workerd RSS per added cluster (many − alone, ÷ ${added}): ${marginal((m) => m.rssPushedKiB)} KiB pushed, ${marginal((m) => m.rssAfterKiB)} KiB after the rounds`);
  const p99 = results.many.all.p99Ms / results.alone.all.p99Ms;
  lines.push('', `goals: many/alone admission p99 ${times(p99)} (goal ≤ ${GOAL_P99}×, ${p99 <= GOAL_P99 ? 'met' : 'not met'}); p50 ${ratio((x) => x.all.p50Ms)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
