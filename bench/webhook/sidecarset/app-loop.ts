// The production app's whole admission path, in-process, in a loop: for profiling, not a benchmark
// (no baseline). The bench cluster is pushed into a MemoryStateStore through the sync API, then a
// pod matched by <k> SidecarSets is admitted <n> times per round, three rounds (the first warms the
// JIT). Usage: node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/webhook/sidecarset/app-loop.ts [k] [n]
import '../../harness/offline-env.js';
import { pushCollections } from '../../../src/edge-state/push.js';
import { FEATURES, stateCollections, webhookEndpoints } from '../../../src/registry.js';
import { buildStoredApp } from '../../harness/real-app.js';
import { buildBenchCluster, matchedPodReviews, MATCH_COUNTS, type MatchCount } from './cluster.js';

const k = Number(process.argv[2] ?? 10) as MatchCount;
const n = Number(process.argv[3] ?? 3000);
if (!MATCH_COUNTS.includes(k) || !(n > 0)) throw new Error(`usage: sidecarset-app-loop.ts [${MATCH_COUNTS.join('|')}] [admissions per round]`);

const CLUSTER = 'loop';
const cluster = await buildBenchCluster();
const { app, webhookSecret, syncToken } = await buildStoredApp(CLUSTER, webhookEndpoints(FEATURES));
const fetch = async (input: string, init?: RequestInit) => app.request(input, init);
await pushCollections({ baseUrl: 'http://loop.invalid', clusterId: CLUSTER, syncToken, fetch }, cluster.list, stateCollections(FEATURES));
const { bodies } = matchedPodReviews(k, 64);
const url = `http://loop.invalid/clusters/${CLUSTER}/${webhookSecret}/mutate-pod`;

for (let round = 0; round < 3; round++) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const res = await app.request(url, { method: 'POST', body: bodies[i % bodies.length], headers: { 'content-type': 'application/json' } });
    const text = await res.text();
    if (res.status !== 200 || !text.includes('"patch":')) throw new Error(`admission ${i}: ${res.status} ${text.slice(0, 200)}`);
  }
  const cpu = process.cpuUsage(cpu0);
  const wallUs = ((performance.now() - t0) / n) * 1000;
  process.stdout.write(`round ${round}: ${wallUs.toFixed(0)} µs wall, ${((cpu.user + cpu.system) / n).toFixed(0)} µs CPU per admission (${k} matching)\n`);
}
