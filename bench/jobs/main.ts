// `npm run bench:jobs [-- --runs=N] [--only=broadcastjob,advancedcronjob]`: BroadcastJob and
// AdvancedCronJob on one local control plane ("bench-jobs", its own, stopped at the end):
//   broadcastjob:    one BroadcastJob over 50 fake nodes with parallelism 10, our controller on the
//                    Node loop in its own process, against a client creating the same pods itself
//                    (bench/jobs/broadcastjob.ts): time to complete, API writes per node;
//   advancedcronjob: a `*/1 * * * *` AdvancedCronJob's scheduling error over N runs (default 5),
//                    on the Node loop and on the Lambda path in the same minutes
//                    (bench/jobs/advancedcronjob.ts). Goal ≤ 2 s.
// Figures are printed, never asserted. Loopback only; bounded.
import { K8S_VERSION } from '../../test/cluster/control-plane.js';
import { advancedCronJobSection } from './advancedcronjob.js';
import { BROADCASTJOB_KINDS, BROADCASTJOB_NAMESPACE, broadcastJobSection } from './broadcastjob.js';
import { bundleChildren, startLoop } from '../cluster/children.js';
import { deleteNamespaces, startBenchCluster } from '../cluster/cluster.js';
import { codeUnderTest } from '../harness/code-under-test.js';

const SECTIONS = ['broadcastjob', 'advancedcronjob'];
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',') ?? SECTIONS;
const unknown = ONLY.filter((n) => !SECTIONS.includes(n));
if (unknown.length) throw new Error(`--only: no section ${unknown.join(', ')} (sections: ${SECTIONS.join(', ')})`);
const RUNS = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 5);

const started = performance.now();
const log = (m: string) => process.stderr.write(`[bench:jobs ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${m}\n`);
const CODE = codeUnderTest();
const bundles = await bundleChildren();
const c = await startBenchCluster({ count: 0, podsEach: 110 }, log, 'bench-jobs');
const lines = [`kube-apiserver ${K8S_VERSION} + etcd + kube-controller-manager + kube-scheduler on this machine, fake kubelet; controller code: ${CODE}`];
const goals: string[] = [];
const figures: Record<string, unknown> = {};
try {
  if (ONLY.includes('broadcastjob')) {
    const loop = await startLoop(bundles.loop, c.cp.kubeconfig, log, BROADCASTJOB_KINDS);
    try {
      const r = await broadcastJobSection(c, loop, log);
      lines.push('', `1. BroadcastJob over ${r.figures.nodes} fake nodes, parallelism ${r.figures.parallelism}`, ...r.lines);
      goals.push(...r.goals);
      figures.broadcastjob = r.figures;
    } catch (e) {
      lines.push('', `1. BroadcastJob: failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      await loop.stop().catch(() => undefined);
      await deleteNamespaces(c.kube, [BROADCASTJOB_NAMESPACE]).catch(() => undefined);
    }
  }
  if (ONLY.includes('advancedcronjob')) {
    try {
      const r = await advancedCronJobSection({ kube: c.kube, runs: RUNS, log });
      lines.push('', `2. AdvancedCronJob */1: scheduling error over ${RUNS} runs per path`, ...r.lines);
      goals.push(...r.goals);
      figures.advancedcronjob = r.figures;
    } catch (e) {
      lines.push('', `2. AdvancedCronJob: failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  lines.push('', `goals: ${goals.length ? goals.join('; ') : '-'}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  console.log(`BENCH_JSON ${JSON.stringify({ scenario: 'jobs', code: CODE, ...figures })}`);
} finally {
  await c.close();
  bundles.dispose();
}
