// A temporary standalone entry for the BroadcastJob section (bench/broadcastjob.ts) until
// bench/jobs.ts calls it: `npx tsx bench/broadcastjob-standalone.ts`, under the shared lock. Its
// own control plane ("bench-broadcastjob"), stopped at the end.
import { K8S_VERSION } from '../test/cluster/control-plane.js';
import { bundleChildren, startLoop } from './cloneset-children.js';
import { deleteNamespaces, startBenchCluster } from './cloneset-cluster.js';
import { BROADCASTJOB_KINDS, BROADCASTJOB_NAMESPACE, broadcastJobSection } from './broadcastjob.js';

const started = performance.now();
const log = (m: string) => process.stderr.write(`[bench:broadcastjob ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${m}\n`);
const bundles = await bundleChildren();
const c = await startBenchCluster({ count: 0, podsEach: 110 }, log, 'bench-broadcastjob');
try {
  const loop = await startLoop(bundles.loop, c.cp.kubeconfig, log, BROADCASTJOB_KINDS);
  try {
    const r = await broadcastJobSection(c, loop, log);
    console.log(`BroadcastJob over ${r.figures.nodes} fake nodes, parallelism ${r.figures.parallelism} (kube-apiserver ${K8S_VERSION} + etcd + kube-controller-manager + kube-scheduler, fake kubelet)`);
    console.log(r.lines.join('\n'));
    console.log(`BENCH_JSON ${JSON.stringify(r.figures)}`);
  } finally {
    await loop.stop();
    await deleteNamespaces(c.kube, [BROADCASTJOB_NAMESPACE]).catch(() => undefined);
  }
} finally {
  await c.close();
  bundles.dispose();
}
