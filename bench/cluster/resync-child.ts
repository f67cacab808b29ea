// One full resync of the CloneSet controller (`reconcile --once` for one kind), in its own process
// so its peak RSS is the reconciler's alone.
//   node <bundle of this file> <kubeconfig> <idle|resync>     (bench/cluster/children.ts runs it)
// Prints one JSON line: wall ms, requests by key, what the plan held and what was applied, peak RSS.
import { KubeHttp } from '../../src/kube/http.js';
import { reconcilers } from '../../src/reconcilers.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { countRequests, peakRssMb } from './counting.js';

export type ResyncFigures = {
  mode: 'idle' | 'resync';
  wallMs: number;
  tally: Record<string, number>;
  planned: { writes: number; status: number; events: number };
  applied: number;
  acted: boolean;
  peakRssMb: number;
};

const [kubeconfig = '', mode = 'resync'] = process.argv.slice(2);
const kube = await KubeHttp.fromKubeConfigFile(kubeconfig);
const tally = countRequests(kube);
const cloneSets = reconcilers().find((r) => r.kind === 'CloneSet');
if (!cloneSets) throw new Error('no CloneSet reconciler in src/reconcilers.ts');
const started = performance.now();
let out: Pick<ResyncFigures, 'planned' | 'applied' | 'acted'> = { planned: { writes: 0, status: 0, events: 0 }, applied: 0, acted: false };
if (mode === 'resync') {
  const r = await runReconciler(kube, cloneSets, { identity: `bench-resync-${process.pid}`, leaseDurationSeconds: 120 });
  out = { planned: { writes: r.plan.writes.length, status: r.plan.status.length, events: r.plan.events.length }, applied: r.applied, acted: r.acted };
}
const wallMs = performance.now() - started;
kube.close();
const figures: ResyncFigures = { mode: mode === 'idle' ? 'idle' : 'resync', wallMs, tally, ...out, peakRssMb: peakRssMb() };
console.log(JSON.stringify(figures));
