// `npm run bench:workloads [-- --only=model,statefulset,…] [--replicas=N] [--pods=100 --nodes=50
// --statefulset-pods=10 --profiles=light-cold,… --seed=1]`: our workload controllers against their
// native counterparts on one local control plane (test/cluster: kube-apiserver, etcd,
// kube-controller-manager, kube-scheduler; the fake kubelet makes pods ready and applies in-place
// image changes), one section per workload, each with its own namespace and its own Node loop
// process (running just that workload's reconciler, its API client counted). By default only
// `model`, the figures on the kubelet model (the others ran on the instant kubelet):
//   model:       figure groups 1 and 2 (bench/workloads/model/figures.ts): our in-place rollouts
//                against their kubelet-bound ideal, and against Deployment / StatefulSet / DaemonSet,
//                over --pods pods on --nodes fake nodes of a pool, per profile, the model printed.
//   statefulset: a 30-replica image change, Advanced StatefulSet (Parallel, maxUnavailable 3,
//                InPlaceIfPossible; the Node loop) against apps/v1 StatefulSet (OrderedReady;
//                kube-controller-manager): wall time, writes per pod, pods recreated.
//   daemonset:   an image change over 50 fake nodes, Advanced DaemonSet (InPlaceIfPossible,
//                maxUnavailable 10%; the Node loop) against apps/v1 DaemonSet (same maxUnavailable).
//   uniteddeployment: a template change through a UnitedDeployment of three Deployment subsets
//                over 3 zones × 10 fake nodes (the Node loop, then kube-controller-manager) against
//                three plain apps/v1 Deployments, one per zone, changed together.
//   imagepulljob: one image pulled on 50 fake nodes, parallelism 5 (ImagePullJob, pull pods through
//                each kubelet; the Node loop) against a client creating the same pull pods 5 at a time.
// Ratios are against the native workload measured in the same run; goals are printed, never
// asserted. A new section is one entry in SECTIONS. Loopback only; bounded; its own control plane
// ("bench-workloads"), stopped at the end.
import { K8S_VERSION } from '../../test/cluster/control-plane.js';
import { codeUnderTest } from '../harness/code-under-test.js';
import { bundleChildren, startLoop, type Bundles, type LoopChild } from '../cluster/children.js';
import { deleteNamespaces, startBenchCluster, type BenchCluster } from '../cluster/cluster.js';
import { STATEFULSET_NAMESPACE, measureStatefulSets } from './statefulset/rollout.js';
import { statefulSetGoals, statefulSetLines } from './statefulset/report.js';
import { UD_NAMESPACE, NODES_PER_ZONE as UD_NODES_PER_ZONE, PODS_PER_ZONE as UD_PODS_PER_ZONE, ZONES as UD_ZONES, measureUnitedDeployments, unitedDeploymentGoals, unitedDeploymentLines } from './uniteddeployment.js';
import { IMAGEPULLJOB_NAMESPACE, NODES as IPJ_NODES, PARALLELISM as IPJ_PARALLELISM, imagePullJobSection } from './imagepulljob.js';
import { measureLambdaPath } from './model/lambda.js';
import { PROFILES, costLines, measureProfile, modelGoals, nativeLines, overheadLines, poolNodes, POOL, type ProfileFigures } from './model/figures.js';
import { DAEMONSET_NAMESPACE, MAX_UNAVAILABLE as DS_MAX_UNAVAILABLE, NODES as DS_NODES, daemonSetGoals, daemonSetLines, measureDaemonSets } from './daemonset.js';

const CONTROL_PLANE = 'bench-workloads';
const NODES = { count: 10, podsEach: 1_500 };
const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const REPLICAS = Number(flag('replicas') ?? 30);
const MODEL = { pods: Number(flag('pods') ?? 100), nodes: Number(flag('nodes') ?? 50), statefulSetPods: Number(flag('statefulset-pods') ?? 10) };
const SEED = Number(flag('seed') ?? 1);
/** `--workloads=cloneset,deployment,…`: roll only these (by app: cloneset, deployment, asts, sts, ads, ds). */
const WORKLOADS = flag('workloads')?.split(',');
/** `--unrelated=5000,20000`: the CloneSet rolled again with 5,000 unrelated pods in its namespace and 20,000 in the cluster (group 3). */
const UNRELATED = flag('unrelated')?.split(',').map(Number);
if (UNRELATED && (UNRELATED.length !== 2 || !UNRELATED.every((n) => Number.isInteger(n) && n >= 0) || UNRELATED[1]! < UNRELATED[0]!)) throw new Error(`--unrelated: <in the namespace>,<in the cluster, at least as many>, not ${flag('unrelated')}`);
/** Group 1 on the Lambda stand-in: in this profile (`--lambda=none`: not measured). */
const LAMBDA_PROFILE = flag('lambda') ?? 'light-prepulled';
const PROFILE_NAMES = flag('profiles')?.split(',') ?? PROFILES.map((p) => p.name);
const badProfiles = PROFILE_NAMES.filter((n) => !PROFILES.some((p) => p.name === n));
if (LAMBDA_PROFILE !== 'none' && !PROFILES.some((p) => p.name === LAMBDA_PROFILE)) badProfiles.push(LAMBDA_PROFILE);
if (badProfiles.length) throw new Error(`--profiles: no profile ${badProfiles.join(', ')} (profiles: ${PROFILES.map((p) => p.name).join(', ')})`);
for (const [k, v] of Object.entries({ ...MODEL, seed: SEED })) if (!Number.isInteger(v) || v < 1) throw new Error(`--${k}: a positive integer, not ${String(v)}`);

/** What a section hands back: its table, its goals (one clause each) and its figures for BENCH_JSON. */
type SectionReport = { lines: string[]; goals: string[]; figures: unknown };

type Section = {
  title: string;
  /** The reconcilers (by kind) its Node loop runs. */
  kinds: string[];
  /** Deleted after the section, so the next one has a quiet cluster. */
  namespaces: string[];
  measure(c: BenchCluster, loop: LoopChild, log: (m: string) => void): Promise<SectionReport>;
};

const SECTIONS: Record<string, Section> = {
  model: {
    title: `Kubelet model: ${MODEL.pods} pods (StatefulSets ${MODEL.statefulSetPods}) over ${MODEL.nodes} fake nodes; profiles ${PROFILE_NAMES.join(', ')}; seed ${SEED} (wall: spec change → every pod at the new image and Ready; ideal: the same strategy on the same model with zero controller latency)`,
    kinds: ['CloneSet', 'StatefulSet', 'DaemonSet'],
    namespaces: [],
    async measure(c, loop, log) {
      const nodes = poolNodes(MODEL.nodes);
      await c.kubelet.addNodes(nodes.map((name) => ({ name, labels: { [POOL]: 'yes' }, taints: [{ key: POOL, value: 'yes', effect: 'NoSchedule' }] })));
      const all: ProfileFigures[] = [];
      try {
        for (const name of PROFILE_NAMES) all.push(await measureProfile(c, loop, MODEL, PROFILES.find((p) => p.name === name)!, SEED, log, undefined, WORKLOADS, UNRELATED ? { inNamespace: UNRELATED[0]!, inCluster: UNRELATED[1]! } : undefined));
        // Last: it stops the Node loop and leaves webhooks pointing at a Worker that is gone.
        if (LAMBDA_PROFILE !== 'none') all.push(await measureLambdaPath(c, loop, MODEL, PROFILES.find((p) => p.name === LAMBDA_PROFILE)!, SEED, log));
      } finally {
        c.kubelet.useModel(undefined);
        await c.kubelet.removeNodes(nodes).catch((e: unknown) => log(`removing the model's nodes: ${String(e)}`));
      }
      const lines = all.flatMap((f) => f.profile.includes('Lambda') ? [
        '', f.model, `  bring-up of every workload at v1: ${(f.bringUpMs / 1000).toFixed(1)} s`,
        `  group 1, controller overhead (${f.profile}):`, ...overheadLines(f),
      ] : [
        '', f.model, `  bring-up of every workload at v1: ${(f.bringUpMs / 1000).toFixed(1)} s`,
        `  group 1, controller overhead (${f.profile}; ours on the Node loop):`, ...overheadLines(f),
        `  group 2, against the native controllers (${f.profile}; kube-controller-manager):`, ...nativeLines(f),
        `  group 3, API-server cost per rollout (${f.profile}; requests and response bytes: each controller's client through its counting proxy, watches included — the Node loop's or kube-controller-manager's, every controller in it; CPU: kube-apiserver over the rollout and 5 s of settling):`, ...costLines(f),
      ]);
      return { lines, goals: modelGoals(all), figures: { sizes: MODEL, seed: SEED, profiles: all } };
    },
  },
  statefulset: {
    title: `StatefulSet: image change, ${REPLICAS} replicas (wall: spec change → every pod at the new image and Ready; status: → the StatefulSet's status says so)`,
    kinds: ['StatefulSet'],
    namespaces: [STATEFULSET_NAMESPACE],
    async measure(c, loop, log) {
      const r = await measureStatefulSets(c, loop, REPLICAS, log);
      return { lines: statefulSetLines(r), goals: statefulSetGoals(r), figures: r };
    },
  },
  daemonset: {
    title: `DaemonSet: image change over ${DS_NODES} fake nodes, maxUnavailable ${DS_MAX_UNAVAILABLE} (wall: spec change → every node's pod at the new image and Ready; status: → the DaemonSet's status says so)`,
    kinds: ['DaemonSet'],
    namespaces: [DAEMONSET_NAMESPACE],
    async measure(c, loop, log) {
      const r = await measureDaemonSets(c, loop, log);
      return { lines: daemonSetLines(r), goals: daemonSetGoals(r), figures: r };
    },
  },
  uniteddeployment: {
    title: `UnitedDeployment: template change, ${UD_ZONES.length} zones × ${UD_NODES_PER_ZONE} fake nodes, ${UD_PODS_PER_ZONE} pods per zone (wall: spec change → every pod at the new image and Ready)`,
    kinds: ['UnitedDeployment'],
    namespaces: [UD_NAMESPACE],
    async measure(c, loop, log) {
      const r = await measureUnitedDeployments(c, loop, log);
      return { lines: unitedDeploymentLines(r), goals: unitedDeploymentGoals(r), figures: r };
    },
  },
  imagepulljob: {
    title: `ImagePullJob: one image on ${IPJ_NODES} fake nodes, parallelism ${IPJ_PARALLELISM} (wall: create → every node's imageID reported; status: → the job's status says completed)`,
    kinds: ['ImagePullJob'],
    namespaces: [IMAGEPULLJOB_NAMESPACE],
    measure: (c, loop, log) => imagePullJobSection(c, loop, log),
  },
};

/** `--only=statefulset,…`: measure just those sections. */
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',') ?? ['model'];
const unknown = (ONLY ?? []).filter((n) => !(n in SECTIONS));
if (unknown.length) throw new Error(`--only: no section ${unknown.join(', ')} (sections: ${Object.keys(SECTIONS).join(', ')})`);
// The model section runs last (its Lambda part leaves the cluster's webhooks pointing at a Worker that is gone).
const chosen = Object.entries(SECTIONS).filter(([name]) => !ONLY || ONLY.includes(name)).sort(([a], [b]) => Number(a === 'model') - Number(b === 'model'));

const started = performance.now();
const log = (m: string) => process.stderr.write(`[bench:workloads ${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${m}\n`);

type Outcome = { name: string; title: string; ok: true; report: SectionReport; loop: { runs: number; peakRssMb: number } } | { name: string; title: string; ok: false; error: string };

async function runSection(c: BenchCluster, bundles: Bundles, name: string, s: Section): Promise<Outcome> {
  let loop: LoopChild | undefined;
  try {
    loop = await startLoop(bundles.loop, c.proxies?.loopKubeconfig ?? c.cp.kubeconfig, log, s.kinds);
    const report = await s.measure(c, loop, log);
    const end = await loop.stop();
    loop = undefined;
    log(`${name}: the Node loop made ${end.runs} runs in all; its peak RSS ${end.peakRssMb.toFixed(0)} MB`);
    return { name, title: s.title, ok: true, report, loop: { runs: end.runs, peakRssMb: end.peakRssMb } };
  } catch (e) {
    log(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
    return { name, title: s.title, ok: false, error: e instanceof Error ? e.message : String(e) };
  } finally {
    await loop?.stop().catch(() => undefined);
    await deleteNamespaces(c.kube, s.namespaces).catch((e: unknown) => log(`${name}: deleting ${s.namespaces.join(', ')}: ${String(e)}`));
  }
}

const CODE = codeUnderTest();
const bundles = await bundleChildren();
let cluster: BenchCluster | undefined;
try {
  log(`sections: ${chosen.map(([n]) => n).join(', ')}; replicas ${REPLICAS}; code: ${CODE}`);
  // The model section brings its own pool of nodes; the others share these.
  const nodes = chosen.some(([n]) => n !== 'model') ? NODES : { ...NODES, count: 0 };
  // The model section counts kube-controller-manager and the Node loop through counting proxies (group 3).
  const c = (cluster = await startBenchCluster(nodes, log, CONTROL_PLANE, ONLY.includes('model')));
  log(`control plane up, ${nodes.count} fake nodes (${nodes.podsEach} pods each)`);
  const outcomes: Outcome[] = [];
  for (const [name, s] of chosen) outcomes.push(await runSection(c, bundles, name, s));

  const lines = [`kube-apiserver ${K8S_VERSION} + etcd + kube-controller-manager + kube-scheduler on this machine, fake kubelet; controller code: ${CODE}`];
  outcomes.forEach((o, i) => {
    lines.push('', `${i + 1}. ${o.title}`);
    if (!o.ok) return void lines.push(`  failed: ${o.error}`);
    lines.push(...o.report.lines, `  the Node loop process: ${o.loop.runs} runs in all, peak RSS ${o.loop.peakRssMb.toFixed(0)} MB`);
  });
  const goals = outcomes.flatMap((o) => (o.ok ? o.report.goals : [`${o.name}: failed (${o.error})`]));
  lines.push('', `goals: ${goals.join('; ')}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  const figures = Object.fromEntries(outcomes.map((o) => [o.name, o.ok ? { ...(o.report.figures as object), loop: o.loop } : { error: o.error }]));
  console.log(`BENCH_JSON ${JSON.stringify({ scenario: 'workloads', code: CODE, replicas: REPLICAS, nodes: NODES, ...figures })}`);
} finally {
  await cluster?.close();
  bundles.dispose();
}
