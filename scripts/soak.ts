// `npm run soak`: the system as `npm start` runs it (startSystem), under churn for a while, then
// a report: refusals for staleness, push gaps, change → controller-write latency, queue wait,
// memory and open handles; with --chaos, a verdict per chaos case. Loopback only; stops by itself.
//   --minutes N      how long (default 30)
//   --period S       push/resync period in seconds (default 30)
//   --namespaces N   namespaces churned (default 10)
//   --chaos          pause and restart the API server, restart the edge, cut the edge off
//   --run-log FILE   every reconciler run's line, time-stamped (left out of the console)
// Uses $KUBECONFIG if set (the API-server cases need a control plane this project started),
// otherwise a local control plane named "soak" (left running; `npm run cluster:down soak`).
import { appendFileSync } from 'node:fs';
import { startControlPlane } from '../test/cluster/control-plane.js';
import { startSystem } from './system.js';
import { onStopSignal } from './stop-signals.js';
import { formatReport, runSoak } from './soak/run.js';

const log = (m: string) => process.stderr.write(`[soak] ${m}\n`);

function option(name: string, fallback: number): number {
  const i = process.argv.lastIndexOf(`--${name}`);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isFinite(n) || n <= 0) {
    log(`--${name} needs a positive number, got "${process.argv[i + 1] ?? ''}"`);
    process.exit(2);
  }
  return n;
}

const minutes = option('minutes', 30);
const period = option('period', 30);
const namespaces = Math.round(option('namespaces', 10));
const chaos = process.argv.includes('--chaos');
const runLogAt = process.argv.indexOf('--run-log');
const runLog = runLogAt < 0 ? undefined : process.argv[runLogAt + 1];
const isRunLine = (m: string) => /^reconcile: .* applied, /.test(m);
const logRun = (m: string) => (runLog ? appendFileSync(runLog, `${new Date().toISOString()} ${m}\n`) : undefined);

onStopSignal(() => {
  log('interrupted; the webhook guardian removes the webhook configurations');
  process.exit(130);
});
const kubeconfig = process.env.KUBECONFIG ?? (await startControlPlane('soak', log)).kubeconfig;
const system = await startSystem({ kubeconfig, resyncSeconds: period, log: (m) => (isRunLine(m) ? logRun(m) : log(m)), relay: true });
let code = 0;
try {
  const report = await runSoak(system, { minutes, periodSeconds: period, namespaces, chaos, log });
  process.stdout.write(`${formatReport(report)}\n`);
} catch (e) {
  log(`soak failed: ${e instanceof Error ? e.stack ?? e.message : String(e)}`);
  code = 1;
}
await system.stop();
log('stopped');
process.exit(code);
