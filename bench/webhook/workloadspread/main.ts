// Scenario "workloadspread": what a subset decision costs a pod creation when one WorkloadSpread is
// hot, i.e. pods of its workload arrive concurrently and every one is decided by its ledger (one
// Durable Object, one operation at a time, each stored before it answers). Two views against an
// echo baseline measured in the same run in alternating rounds: the placement handler in-process
// (with MemoryLedgers), and admissions over HTTPS on the production Worker under Miniflare, 8 and
// 32 in flight. Each measured round uses a fresh WorkloadSpread (a burst as a scale-up makes it)
// and is checked afterwards: the ledger holds exactly one entry per admission answered. A burst
// of 100 concurrent admissions against 10 / 30 / rest must split exactly.
import { applyLedger } from '../../../src/edge-state/ledger-client.js';
import { pushCollections, type EdgeTarget } from '../../../src/edge-state/push.js';
import { FEATURES, stateCollections } from '../../../src/registry.js';
import { WORKLOADSPREAD_LEDGER, type WorkloadSpreadLedger } from '../../../src/workloadspread/index.js';
import { overHttps, startMiniflarePair, withServingCert, type Exchange, type Tls } from '../../harness/https-target.js';
import { drive, driveAlternating, type Bounds, type Send } from '../../harness/load.js';
import { fixed, ratios, tableRow as row, times, type PlatformResult } from '../../harness/report.js';
import { buildSpreadCluster, placedSubset, spreadPodReviews, WS_NAMESPACE, type SpreadCluster } from './cluster.js';
import { measureSpreadHandler, type SpreadHandlerResult } from './handler.js';
import type { Scenario } from '../main.js';

const CONCURRENCY = [8, 32] as const;
const ROUNDS = 6;
/** Per concurrency, path and round: at most this many admissions, in at most this long. */
const ROUND = { requests: 400, maxMs: 3_000 };
const WARMUP = { requests: 200, maxMs: 2_500 };
const BURST = 100;
const CLUSTER_ID = 'bench-workloadspread';

const log = (msg: string) => process.stderr.write(`bench: ${msg}\n`);
const hotName = (c: number, r: number) => `hot-c${c}-r${r}`;
const HOT = [...CONCURRENCY.flatMap((c) => Array.from({ length: ROUNDS }, (_, r) => hotName(c, r))), 'warm'];

type Edge = { echo: Exchange; real: Exchange; echoPids: number[]; realPids: number[]; target: EdgeTarget; close(): Promise<void> };
export type SpreadResult = PlatformResult & { concurrency: number; ledgerEntries: number };

async function startEdge(tls: Tls, cluster: SpreadCluster): Promise<Edge> {
  // Every collection the production features read, as the reconcilers push them (the others empty).
  const prepare = (edge: EdgeTarget) => pushCollections(edge, cluster.list, stateCollections(FEATURES));
  const pair = await startMiniflarePair({ tls, connections: Math.max(...CONCURRENCY), clusterId: CLUSTER_ID, prepare });
  const path = `/clusters/${CLUSTER_ID}/${pair.webhookSecret}/mutate-pod`;
  const { agent, echoPids, realPids, edge: target, close } = pair;
  return { echo: overHttps(agent, pair.echoUrl + path), real: overHttps(agent, pair.realUrl + path), echoPids, realPids, target, close };
}

/** A placed pod: HTTP 200, the request's uid, and a patch placing it in zone-a (the hot subsets never fill). */
function sender(exchange: Exchange, reviews: { uids: string[]; bodies: string[] }, real: boolean): Send {
  const n = reviews.bodies.length;
  return async (i) => {
    const { status, text } = await exchange(reviews.bodies[i % n]!);
    if (status !== 200 || !text.includes(reviews.uids[i % n]!)) throw new Error(`HTTP ${status}: ${text.slice(0, 200)}`);
    if (!real) return text.includes('"allowed":true');
    if (placedSubset(text) !== 'zone-a') throw new Error(`not placed in zone-a: ${text.slice(0, 400)}`);
    return true;
  };
}

async function ledgerEntries(edge: Edge, name: string): Promise<number> {
  const held = await applyLedger<WorkloadSpreadLedger | null>(edge.target, { kind: WORKLOADSPREAD_LEDGER, namespace: WS_NAMESPACE, name }, 'read');
  return Object.values(held?.versions ?? {}).flat().reduce((n, s) => n + Object.keys(s.creatingPods).length, 0);
}

async function measure(edge: Edge, concurrency: number): Promise<SpreadResult> {
  const bounds: Bounds = { ...ROUND, concurrency };
  const echoSend = sender(edge.echo, spreadPodReviews('echo', 64), false);
  await drive(echoSend, { ...WARMUP, concurrency }, edge.echoPids);
  await drive(sender(edge.real, spreadPodReviews('warm', 64), true), { ...WARMUP, concurrency }, edge.realPids);
  let entries = 0;
  log(`miniflare https, ${concurrency} in flight: ${ROUNDS} alternating rounds of ≤${ROUND.requests} admissions or ≤${ROUND.maxMs} ms per path`);
  const { echo: e, real: rl } = await driveAlternating(ROUNDS, async (path, r) => {
    if (path === 'echo') return drive(echoSend, bounds, edge.echoPids);
    const name = hotName(concurrency, r);
    const tally = await drive(sender(edge.real, spreadPodReviews(name, 64), true), bounds, edge.realPids);
    const held = await ledgerEntries(edge, name);
    const answered = tally.latenciesMs.length - tally.failed;
    if (held !== answered) throw new Error(`${name}: the ledger holds ${held} entries for ${answered} placed admissions`);
    entries += held;
    return tally;
  });
  return { platform: 'miniflare https', concurrency, ledgerEntries: entries, echo: e, real: rl, ratio: ratios(e, rl) };
}

/** 100 admissions all in flight at once against 10 / 30 / rest: the split must be exact. */
async function burst(edge: Edge): Promise<Record<string, number>> {
  const { bodies } = spreadPodReviews('exact', BURST);
  const answers = await Promise.all(bodies.map((b) => edge.real(b)));
  const split: Record<string, number> = {};
  for (const a of answers) {
    const s = placedSubset(a.text) || `HTTP ${a.status}, no subset`;
    split[s] = (split[s] ?? 0) + 1;
  }
  if (split['zone-a'] !== 10 || split['zone-b'] !== 30 || split['zone-c'] !== 60) throw new Error(`burst of ${BURST}: split ${JSON.stringify(split)}`);
  return split;
}


function tables(handler: SpreadHandlerResult, results: SpreadResult[]): string[] {
  const hw = [10, 8, 7, 9, 9, 9, 9, 10];
  const h = [row(['path', '', 'calls', 'p50 ms', 'p99 ms', 'cpu p50', 'cpu p99', 'p50 ratio'], hw)];
  for (const [path, f] of [['echo', handler.echo], ['handler', handler.handler]] as const) {
    h.push(row([path, '', String(f.calls), fixed(f.p50Ms, 3), fixed(f.p99Ms, 3), fixed(f.cpuP50Ms, 3), fixed(f.cpuP99Ms, 3), path === 'handler' ? times(handler.ratio.p50) : ''], hw));
  }
  const w = [16, 10, 9, 6, 5, 10, 8, 8, 11];
  const e = [row(['platform', 'path', 'in flight', 'reqs', 'fail', 'decisions/s', 'p50 ms', 'p99 ms', 'srv µs/adm'], w)];
  for (const r of results) {
    for (const [path, f] of [['echo', r.echo], ['real', r.real]] as const) {
      e.push(row([r.platform, path, String(r.concurrency), String(f.requests), String(f.failed), fixed(f.perSecond, 0), fixed(f.p50Ms, 2), fixed(f.p99Ms, 2), fixed(f.serverCpuUs, 0)], w));
    }
    e.push(row(['', 'real/echo', '', '', '', times(r.ratio.throughput), times(r.ratio.p50), times(r.ratio.p99), times(r.ratio.serverCpu)], w));
  }
  return [
    'placement handler in-process (makePlacePodHandler, MemoryLedgers; echo: JSON.parse of the review + JSON.stringify of an allowed answer)',
    ...h,
    '',
    `end to end over HTTPS, production Worker (every pod handler), one hot WorkloadSpread per round; ≤${ROUND.requests} admissions or ≤${ROUND.maxMs / 1000} s × ${ROUNDS} alternating rounds per path`,
    ...e,
  ];
}

async function run(): Promise<Record<string, unknown>> {
  const cluster = buildSpreadCluster(HOT, 100_000);
  const handler = await measureSpreadHandler();
  const results: SpreadResult[] = [];
  let split: Record<string, number> = {};
  await withServingCert(async (tls) => {
    log('miniflare https: starting the echo and the production Worker');
    const edge = await startEdge(tls, cluster);
    try {
      split = await burst(edge);
      log(`burst of ${BURST} concurrent admissions against 10 / 30 / rest: ${JSON.stringify(split)}`);
      for (const c of CONCURRENCY) results.push(await measure(edge, c));
    } finally {
      await edge.close();
    }
  });
  process.stdout.write(`${[...tables(handler, results), '', `burst: ${BURST} admissions at once against 10 / 30 / rest → ${JSON.stringify(split)}; every round's ledger held exactly one entry per placed admission`].join('\n')}\n`);
  return { handler, endToEnd: results, burst: split, rounds: ROUNDS, bounds: ROUND, concurrency: CONCURRENCY };
}

export const workloadSpreadScenario: Scenario = {
  summary: 'WorkloadSpread subset decisions for one hot WorkloadSpread: handler in-process and the production Worker under Miniflare over HTTPS (8 and 32 in flight), vs echo',
  run,
};
