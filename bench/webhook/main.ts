// npm run bench:webhook [-- <scenario>]   (default: runtime)
// Admission webhook benchmarks. Every figure is compared with a baseline measured in the same run
// and printed, never judged: this machine is shared and noisy. Output: a table on stdout, then
// one `BENCH_JSON {...}` line with every figure; progress goes to stderr. All traffic stays on
// 127.0.0.1, every loop is bounded in count and time, and the process exits by itself.
import '../harness/offline-env.js'; // first: before anything loads Miniflare
import { cpus, loadavg } from 'node:os';
import { stop as stopEsbuild } from 'esbuild';
import { descendants } from '../harness/cpu.js';
import { runtimeScenario } from './runtime.js';
import { sidecarSetScenario } from './sidecarset/main.js';
import { workloadSpreadScenario } from './workloadspread/main.js';
import { pubScenario } from './pub/main.js';
import { apiserverScenario } from './apiserver.js';

export type Scenario = {
  summary: string;
  /** Prints its table to stdout and returns its figures for the BENCH_JSON line. */
  run(): Promise<Record<string, unknown>>;
};

const SCENARIOS: Record<string, Scenario> = {
  runtime: runtimeScenario,
  sidecarset: sidecarSetScenario,
  workloadspread: workloadSpreadScenario,
  pub: pubScenario,
  apiserver: apiserverScenario,
};

/** Last resort if something hangs: a scenario should finish in about two minutes. */
const WATCHDOG_MS = 240_000;

const name = process.argv[2] ?? 'runtime';
const scenario = SCENARIOS[name];
if (!scenario) {
  const known = Object.entries(SCENARIOS).map(([n, s]) => `  ${n}: ${s.summary}`).join('\n');
  process.stderr.write(`unknown scenario "${name}"; available:\n${known}\n`);
  process.exit(2);
}

const watchdog = setTimeout(() => {
  process.stderr.write(`bench: ${name} still running after ${WATCHDOG_MS / 1000}s; stopping the processes it started\n`);
  for (const pid of descendants().keys()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  process.exit(1);
}, WATCHDOG_MS);
watchdog.unref();

const started = performance.now();
const host = { node: process.version, cpus: cpus().length, loadavgBefore: loadavg().map((l) => Number(l.toFixed(2))) };
process.stderr.write(`bench: scenario ${name} (node ${host.node}, ${host.cpus} CPUs, load average ${host.loadavgBefore.join(' ')})\n`);
try {
  const figures = await scenario.run();
  const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
  const hostAfter = { ...host, loadavgAfter: loadavg().map((l) => Number(l.toFixed(2))) };
  process.stdout.write(`host: node ${host.node}, ${host.cpus} CPUs, load average ${host.loadavgBefore.join(' ')} → ${hostAfter.loadavgAfter.join(' ')}; ${seconds} s\n`);
  process.stdout.write(`BENCH_JSON ${JSON.stringify({ scenario: name, at: new Date().toISOString(), seconds, host: hostAfter, ...figures })}\n`);
} finally {
  clearTimeout(watchdog);
  await stopEsbuild(); // bundleWorker's esbuild service process
}
