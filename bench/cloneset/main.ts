// `npm run bench:cloneset [-- --quick]`: the CloneSet controller against one local control plane
// (test/cluster: kube-apiserver, etcd, kube-controller-manager, kube-scheduler; the fake kubelet
// makes pods ready and applies in-place image changes), in one run:
//   3. spec change → first pod write, through the Node loop and through the Lambda path
//      (run first, on the quiet cluster);
//   1. a 100-replica image change: CloneSet InPlaceIfPossible, CloneSet ReCreate and an apps/v1
//      Deployment, with the controller's writes and the pods recreated;
//   2. a no-op full resync over 100 and 1,000 CloneSets × 10 ready pods: LISTs, writes, duration,
//      peak RSS.
// Ratios are against baselines measured in the same run (the Deployment, the Node loop); goals are
// printed, never asserted. --quick: 20 replicas, 10 and 50 CloneSets, 3 samples; --only=rollouts
// (or resyncs, latency, comma-separated) measures just those parts. Loopback only;
// bounded; its own control plane ("bench-cloneset"), stopped at the end.
import { K8S_VERSION } from '../../test/cluster/control-plane.js';
import { startLambdaPath, type LambdaPath } from '../../test/e2e/support/lambda-path.js';
import { codeUnderTest } from '../harness/code-under-test.js';
import { bundleChildren, startLoop, type LoopChild } from '../cluster/children.js';
import { deleteNamespaces, startBenchCluster, type BenchCluster } from '../cluster/cluster.js';
import { startEdge, type Edge } from './edge.js';
import { LATENCY_NAMESPACE, measureFirstWrites, untilRetargeted, type LatencyResult } from './latency.js';
import { report, type Outcome, type Results } from './report.js';
import { measureResyncs } from './resync.js';
import { ROLLOUT_NAMESPACE, measureRollouts } from './rollout.js';

const QUICK = process.argv.includes('--quick');
/** `--only=rollouts,resyncs,latency`: measure just those parts (the others are reported as skipped). */
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const wanted = (part: 'rollouts' | 'resyncs' | 'latency') => !ONLY || ONLY.includes(part);
const SIZES = QUICK
  ? { replicas: 20, steps: [10, 50], podsEach: 10, samples: 3 }
  : { replicas: 100, steps: [100, 1_000], podsEach: 10, samples: 7 };
const NODES = { count: 10, podsEach: 1_500 };

const started = performance.now();
const log = (m: string) => process.stderr.write(`[bench:cloneset ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${m}\n`);

async function attempt<T>(what: string, body: () => Promise<T>, part?: 'rollouts' | 'resyncs' | 'latency'): Promise<Outcome<T>> {
  if (part && !wanted(part)) return { ok: false, error: 'skipped (--only)' };
  try {
    return { ok: true, value: await body() };
  } catch (e) {
    log(`${what} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}

const CODE = codeUnderTest();
const bundles = await bundleChildren();
let cluster: BenchCluster | undefined;
let lambda: LambdaPath | undefined;
const edges: Edge[] = [];
let loop: LoopChild | undefined;
try {
  log(`sizes: ${JSON.stringify(SIZES)}${QUICK ? ' (--quick)' : ''}; code: ${CODE}`);
  const c = (cluster = await startBenchCluster(NODES, log));
  log(`control plane up, ${NODES.count} fake nodes (${NODES.podsEach} pods each)`);

  // 3 first, on a quiet cluster. The Worker it uses publishes change events to the Lambda path;
  // parts 1 and 2 use another Worker that publishes none, so no Lambda competes with the loop.
  let latency: Outcome<LatencyResult> = { ok: false, error: 'skipped (--only)' };
  if (wanted('latency')) {
    lambda = await startLambdaPath();
    const lambdaEdge = await startEdge(c.cp, c.kube, 'bench-edge-lambda', lambda.bindings);
    edges.push(lambdaEdge);
    log(`webhooks (${lambdaEdge.endpoints.join(', ')}) at the Worker that publishes to the EventBridge stand-in`);
    latency = await attempt('first write', () => measureFirstWrites(c, bundles, lambda!, lambdaEdge, SIZES.samples, log));
    edges.push(await startEdge(c.cp, c.kube, 'bench-edge', undefined));
    await untilRetargeted(c, lambda);
    await lambda.close();
    lambda = undefined;
    await lambdaEdge.dispose();
    edges.splice(edges.indexOf(lambdaEdge), 1);
    log('webhooks now at a Worker that publishes no change events; the Lambda path is closed');
  } else {
    edges.push(await startEdge(c.cp, c.kube, 'bench-edge', undefined));
  }

  // Part 3's CloneSets go first: nothing but part 1's workloads moves while part 1 counts.
  await deleteNamespaces(c.kube, [LATENCY_NAMESPACE]);
  loop = await startLoop(bundles.loop, c.cp.kubeconfig, log);
  const rollouts = await attempt('rollouts', () => measureRollouts(c, loop!, SIZES.replicas, log), 'rollouts');
  const loopEnd = await loop.stop();
  loop = undefined;
  log(`the Node loop made ${loopEnd.runs} runs in all; its peak RSS ${loopEnd.peakRssMb.toFixed(0)} MB`);
  await deleteNamespaces(c.kube, [ROLLOUT_NAMESPACE]);

  const resyncs = await attempt('resyncs', () => measureResyncs(c, bundles, SIZES.steps, SIZES.podsEach, log), 'resyncs');

  const results: Results = { rollouts, resyncs, latency, loop: { runs: loopEnd.runs, peakRssMb: loopEnd.peakRssMb } };
  const head = `kube-apiserver ${K8S_VERSION} + etcd + kube-controller-manager + kube-scheduler on this machine, fake kubelet; controller code: ${CODE}`;
  process.stdout.write(`${[head, ...report(results, SIZES)].join('\n')}\n`);
  console.log(`BENCH_JSON ${JSON.stringify({ scenario: 'cloneset', code: CODE, quick: QUICK, sizes: SIZES, nodes: NODES, ...results })}`);
} finally {
  await loop?.stop().catch(() => undefined);
  await lambda?.close().catch(() => undefined);
  for (const e of edges) await e.dispose().catch(() => undefined);
  await cluster?.close();
  bundles.dispose();
}
