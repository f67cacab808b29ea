// A workload controller, the CloneSet's unless told, as a user runs it (`kruise-serverless reconcile`
// without --once): the Node loop, watch-triggered, in its own process, its API client counted (bench/cluster/counting.ts).
//   node <bundle of this file> <kubeconfig> [<kinds>]   (bench/cluster/children.ts forks it, with IPC)
// <kinds>: the reconcilers to run, by kind, comma-separated (default CloneSet; bench/workloads/main.ts
// runs StatefulSet).
// Messages: it sends {type:'ready'} after its first full resync (watches started), and answers
// 'snapshot' with its counts so far; 'stop' ends the loop, releases its lease and exits.
import { hostname } from 'node:os';
import { KubeHttp } from '../../src/kube/http.js';
import { reconcilers } from '../../src/reconcilers.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { HeldLeases } from '../../src/reconcile/lease.js';
import { countRequests, peakRssMb, traceRequests } from './counting.js';

export type LoopSnapshot = {
  type: 'snapshot';
  tally: Record<string, number>;
  /** Writes by namespace ('' for cluster-scoped objects). */
  byNamespace: Record<string, number>;
  runs: number;
  applied: number;
  conflicts: number;
  failed: number;
  skipped: number;
  /** Time spent in runs (sum of their durations, ms) and the API requests they made (reads included). */
  busyMs: number;
  apiCalls: number;
  peakRssMb: number;
};

const [kubeconfig = '', kinds = 'CloneSet'] = process.argv.slice(2);
const send = (m: unknown) => process.send?.(m);
const kube = await KubeHttp.fromKubeConfigFile(kubeconfig);
const byNamespace: Record<string, number> = {};
const tally = countRequests(kube, byNamespace);
// KS_BENCH_TRACE=2: also one stderr line per API request (when it started, how long it took).
if (process.env.KS_BENCH_TRACE === '2') traceRequests(kube);
const wanted = kinds.split(',');
const running = reconcilers().filter((r) => wanted.includes(r.kind));
const missing = wanted.filter((k) => !running.some((r) => r.kind === k));
if (missing.length) throw new Error(`no ${missing.join(', ')} reconciler in src/reconcilers.ts`);
const identity = `${hostname()}-${process.pid}`;
// As `reconcile` runs the Node loop: leases kept between runs.
const heldLeases = new HeldLeases();
const counts = { runs: 0, applied: 0, conflicts: 0, failed: 0, skipped: 0, busyMs: 0, apiCalls: 0 };
const snapshot = (): LoopSnapshot => ({ type: 'snapshot', tally: { ...tally }, byNamespace: { ...byNamespace }, ...counts, peakRssMb: peakRssMb() });

// KS_BENCH_TRACE=1: one stderr line per run (when it ended, how long it took, what it wrote).
const TRACE = process.env.KS_BENCH_TRACE === '1' || process.env.KS_BENCH_TRACE === '2';
const stop = new AbortController();
process.on('message', (m) => {
  if (m === 'snapshot') send(snapshot());
  if (m === 'stop') stop.abort();
});
process.on('disconnect', () => stop.abort());

let ready = false;
await runLoop({
  kube, reconcilers: running, watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
  run: (r, scope) => runReconciler(kube, r, { scope, identity, heldLeases, log: (m) => console.error(`[loop] ${m}`) }),
  log: (m) => console.error(`[loop] ${m}`),
  onReport: (r, scope) => {
    if (TRACE) console.error(`[loop trace] ${Date.now() % 1_000_000} ms: ${scope.kind} run ${r.durationMs} ms, ${r.apiCalls} calls, ${r.applied} applied, ${r.conflicts} conflicts`);
    counts.runs += 1;
    counts.busyMs += r.durationMs;
    counts.apiCalls += r.apiCalls;
    counts.applied += r.applied;
    counts.conflicts += r.conflicts;
    counts.failed += r.failed.length;
    if (!r.acted) counts.skipped += 1;
    if (r.failed.length) console.error(`[loop] ${r.failed.length} writes failed: ${r.failed.slice(0, 3).map((f) => `${f.write}: ${f.error}`).join('; ')}`);
    if (!ready && scope.kind === 'all') {
      ready = true;
      // Watches start right after the first resync; give them a moment to be established.
      setTimeout(() => send({ type: 'ready' }), 1000);
    }
  },
});
await heldLeases.releaseAll(kube);
kube.close();
send(snapshot());
process.disconnect?.();
