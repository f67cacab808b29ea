// One measured invocation, in its own process so its peak RSS is the reconciler's alone.
//   node <bundle of this file> <kubeconfig> <mode: full|observe|idle>   (bench/reconcile/main.ts bundles it)
// Prints one JSON line: wall ms, API calls, writes planned/applied, peak RSS.
import { KubeHttp } from '../../src/kube/http.js';
import { loadKubeConfig } from '../../src/kube/node-client.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { resourceDistributionReconciler } from '../../src/resourcedistribution/reconciler.js';

const [kubeconfig = '', mode = 'full'] = process.argv.slice(2);
const kube = await KubeHttp.fromKubeConfig(loadKubeConfig(kubeconfig));
const started = performance.now();
let out: Record<string, unknown>;
if (mode === 'idle') {
  // Memory floor: the bundle loaded and a client made, nothing listed.
  out = { apiCalls: 0, writes: 0, applied: 0 };
} else if (mode === 'observe') {
  // The floor: the LISTs a resync cannot avoid, and nothing else.
  await resourceDistributionReconciler.observe(kube, { kind: 'all' });
  out = { apiCalls: kube.calls, writes: 0, applied: 0 };
} else {
  const r = await runReconciler(kube, resourceDistributionReconciler, { identity: `bench-${process.pid}`, leaseDurationSeconds: 120 });
  out = { apiCalls: r.apiCalls, writes: r.plan.writes.length, applied: r.applied, conflicts: r.conflicts, failed: r.failed.length, acted: r.acted };
}
const wallMs = performance.now() - started;
kube.close();
console.log(JSON.stringify({ mode, wallMs, ...out, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
