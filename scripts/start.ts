// `npm start`: the whole system locally (scripts/system.ts) against $KUBECONFIG, or a local
// control plane (started, or reused if running).
// Ctrl-C removes the webhook configurations (a stopped edge must not block pod creation), logs
// "stopped" and leaves the control plane running (`npm run cluster:down` stops it). Repeated
// Ctrl-C while that runs is ignored; if it takes longer than CLEANUP_SECONDS the process exits
// with 1 and the guardian (webhook-guardian.ts) removes the configurations.
//   --detach   only install the CRDs and return
//   --verbose  log every reconcile run and every collection pushed (default: one line per push
//              and one per run that wrote something)
import { join } from 'node:path';
import { REPO_ROOT, startControlPlane } from '../test/cluster/control-plane.js';
import { loadKubeConfig } from '../src/kube/node-client.js';
import { KubeHttp } from '../src/kube/http.js';
import { readCrdManifests } from '../src/kube/crd-manifests.js';
import { applyClusterSide } from '../src/install/apply.js';
import { startSystem, type System } from './system.js';
import { onStopSignal } from './stop-signals.js';

// Output may go to a pipe that dies first (`npm start | tee log`, then Ctrl-C): a failed write
// must not stop the cleanup below.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
const log = (m: string) => {
  try {
    process.stderr.write(`[start] ${m}\n`);
  } catch {
    // the terminal is gone; keep going
  }
};
const detach = process.argv.includes('--detach');
const verbose = process.argv.includes('--verbose');
const RESYNC_SECONDS = 30;
const CLEANUP_SECONDS = 30;

let system: System | undefined;
const stopRequested = new Promise<void>((resolve) => onStopSignal(() => {
  // Before the system is up there is nothing of ours to remove but what the guardian covers.
  if (!system) {
    log('interrupted during start-up');
    process.exit(130);
  }
  resolve();
}));

const external = process.env.KUBECONFIG;
const kubeconfig = external ?? (await startControlPlane('dev', log)).kubeconfig;
log(external ? `using $KUBECONFIG (${external})` : `local control plane: export KUBECONFIG=${kubeconfig}`);

if (detach) {
  const kube = await KubeHttp.fromKubeConfig(loadKubeConfig(kubeconfig));
  const crds = readCrdManifests(join(REPO_ROOT, 'infra', 'crds'));
  // No edge: the CRDs as generated (conversion None), which any later install points at its edge.
  await applyClusterSide(kube, crds, { log });
  log(`installed ${crds.length} CRDs; done (the control plane keeps running; stop it with \`npm run cluster:down\`)`);
  kube.close();
  process.exit(0);
}

system = await startSystem({ kubeconfig, resyncSeconds: RESYNC_SECONDS, verbose, log });
log('running; Ctrl-C to stop (webhook configurations are removed, the control plane keeps running)');
const ended = await Promise.race([stopRequested.then(() => 'signal' as const), system.running.then(() => 'loop' as const, () => 'loop' as const)]);
if (ended === 'loop') log('the reconcile loop ended');
const deadline = setTimeout(() => {
  log(`cleanup did not finish within ${CLEANUP_SECONDS} s; exiting (the webhook guardian removes the webhook configurations)`);
  process.exit(1);
}, CLEANUP_SECONDS * 1000);
await system.stop();
clearTimeout(deadline);
log('stopped');
process.exit(0);
