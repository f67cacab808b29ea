// Two builds of the Worker compared on the sidecarset scenario's admissions (the pod matched by <k>
// of 1,000 SidecarSets, 8 in flight, over HTTPS under Miniflare): workerd's CPU per admission of
// each, in alternating rounds of one run so machine noise hits both, beside the answer-sized echo.
// For checking a change to the admission path, e.g. with the other build in a copy of the repo:
//   node --import tsx bench/webhook/worker-ab.ts /tmp/before/functions/worker/index.ts functions/worker/index.ts [k] [rounds]
import '../harness/offline-env.js';
import { resolve } from 'node:path';
import { stop as stopEsbuild } from 'esbuild';
import { startMiniflarePair, withServingCert, overHttps, type MiniflarePair } from '../harness/https-target.js';
import { drive, figures, mergeTallies, type Send, type Tally } from '../harness/load.js';
import { buildBenchCluster, matchedPodReviews, MATCH_COUNTS, type MatchCount } from './sidecarset/cluster.js';
import { pushCluster } from './sidecarset/main.js';

const [entryA, entryB, kArg, roundsArg] = process.argv.slice(2);
const k = Number(kArg ?? 10) as MatchCount;
const rounds = Number(roundsArg ?? 8);
if (!entryA || !entryB || !MATCH_COUNTS.includes(k) || !(rounds > 0)) throw new Error(`usage: worker-ab.ts <entryA> <entryB> [${MATCH_COUNTS.join('|')}] [rounds]`);
const IN_FLIGHT = 8;
const ROUND = { requests: 600, concurrency: IN_FLIGHT, maxMs: 5_000 };

const cluster = await buildBenchCluster();
const { bodies } = matchedPodReviews(k, 64);

function sender(pair: MiniflarePair, query = ''): Send {
  const exchange = overHttps(pair.agent, `${pair.realUrl}/clusters/${pair.edge.clusterId}/${pair.webhookSecret}/mutate-pod${query}`);
  return async (i) => {
    const { status, text } = await exchange(bodies[i % bodies.length]!);
    return status === 200 && text.includes('"patch":');
  };
}

await withServingCert(async (tls) => {
  const pairs: MiniflarePair[] = [];
  try {
    for (const entry of [entryA, entryB]) {
      pairs.push(await startMiniflarePair({ tls, connections: IN_FLIGHT, clusterId: 'ab', entry: resolve(entry), prepare: (edge) => pushCluster(cluster, edge) }));
    }
    const sends = pairs.map((p) => sender(p));
    const answerBytes = Buffer.byteLength((await overHttps(pairs[0]!.agent, `${pairs[0]!.realUrl}/clusters/ab/${pairs[0]!.webhookSecret}/mutate-pod`)(bodies[0]!)).text);
    const echo = pairs[0]!;
    const sized = overHttps(echo.agent, `${echo.echoUrl}/mutate-pod?answer=${answerBytes}`);
    const sizedSend: Send = async (i) => (await sized(bodies[i % bodies.length]!)).status === 200;
    const paths = [
      { name: 'A', send: sends[0]!, pids: pairs[0]!.realPids },
      { name: 'B', send: sends[1]!, pids: pairs[1]!.realPids },
      { name: 'sized echo', send: sizedSend, pids: echo.echoPids },
    ];
    for (const p of paths) await drive(p.send, { ...ROUND, requests: 1_500, maxMs: 15_000 }, p.pids);
    const tallies = new Map<string, Tally[]>(paths.map((p) => [p.name, []]));
    for (let r = 0; r < rounds; r++) {
      for (let i = 0; i < paths.length; i++) {
        const p = paths[(r + i) % paths.length]!;
        tallies.get(p.name)!.push(await drive(p.send, ROUND, p.pids));
      }
    }
    const sizedUs = figures(mergeTallies(tallies.get('sized echo')!)).serverCpuUs ?? NaN;
    for (const p of paths) {
      const list = tallies.get(p.name)!;
      const f = figures(mergeTallies(list));
      const perRound = list.map((t) => ((t.serverCpuMs ?? NaN) * 1000) / t.latenciesMs.length);
      const sorted = [...perRound].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)]!;
      process.stdout.write(`${p.name.padEnd(10)} ${String(f.requests).padStart(6)} adm, ${f.failed} failed, workerd µs/adm ${(f.serverCpuUs ?? NaN).toFixed(0)} (round median ${median.toFixed(0)}), /sized echo ${((f.serverCpuUs ?? NaN) / sizedUs).toFixed(2)}×, p50 ${f.p50Ms.toFixed(2)} ms\n`);
    }
  } finally {
    for (const p of pairs) await p.close();
  }
});
await stopEsbuild();
