// Part 1 of `npm run bench:cloneset`: the same image change on three workloads with the same pod
// template, each first at `replicas` ready pods — a CloneSet InPlaceIfPossible, a CloneSet
// ReCreate (our controller on the Node loop, in its own process) and an apps/v1 Deployment
// (kube-controller-manager). Per rollout: wall time from the spec change to every pod updated and
// Ready, the controller's API writes, and the pods recreated (uids that changed).
//
// Writes: for the CloneSets, every write request the loop's own client sent (leases and Events
// included). For all three, the API server's apiserver_request_total deltas minus the writers we
// can count (the fake kubelet, this process), the scheduler's (pods/binding, events.k8s.io Events)
// and the API server's own (its reconciler of the `kubernetes` Service's endpoints, which retries
// every 10 s here: a loopback address is refused): for the Deployment that is
// kube-controller-manager's writes; for the CloneSets it should equal the loop's count, a cross-check.
import type { KubeObject } from '../../src/kube/http.js';
import { apiserverRequests, describeWrites, minus, total, writesOf, type Tally } from '../cluster/counting.js';
import { CLONESET, IMAGE, cloneSet, createNamespace, deployment, imagePatch, podsOf, rolledOut, sleep, until, type BenchCluster } from '../cluster/cluster.js';
import type { LoopChild, LoopSnapshot } from '../cluster/children.js';
import { cpuByGroup, describeCpu } from '../harness/cpu.js';

export const ROLLOUT_NAMESPACE = 'bench-rollout';
const ROLLOUT_TIMEOUT_MS = 300_000;
/** After the pods are done: trailing status writes land before the counts are read. */
const SETTLE_MS = 5_000;

export type RolloutResult = {
  workload: string;
  controller: string;
  replicas: number;
  /** Spec change → every pod updated and Ready. */
  wallMs: number;
  /** Spec change → the workload's own status says so. */
  statusMs: number;
  recreated: number;
  /** The controller's writes: the loop's client (CloneSets) or the API server's count less everyone else's (Deployment). */
  writes: Tally;
  /** The API server's count less the kubelet's, the scheduler's and this process's writes. */
  attributed: Tally;
  /** Writes in the same window that are not the controller's: the scheduler's, the fake kubelet's, the API server's own. */
  scheduler: number;
  kubelet: number;
  apiserver: number;
  /** The Node loop's writes in the window (for the Deployment: it should be idle). */
  loop: number;
  /** The Node loop's writes in the window to other namespaces than this rollout's and kruise-system (its leases): 0 unless another workload was still moving. */
  loopElsewhere: number;
  runs?: number;
  conflicts?: number;
};

type Workload = { object: KubeObject; label: string; controller: string; app: string };

type Status = { observedGeneration?: number; replicas?: number; readyReplicas?: number; updatedReplicas?: number; updatedReadyReplicas?: number; availableReplicas?: number; currentRevision?: string; updateRevision?: string };

/** The workload's status reports every replica updated and ready at its current generation. */
async function statusDone(c: BenchCluster, w: Workload, replicas: number): Promise<boolean> {
  const { apiVersion, kind } = w.object;
  const got = await c.kube.get<KubeObject & { metadata: { generation?: number }; status?: Status }>(apiVersion!, kind!, w.app, ROLLOUT_NAMESPACE);
  const s = got.status ?? {};
  if ((s.observedGeneration ?? 0) < (got.metadata.generation ?? 0) || s.replicas !== replicas) return false;
  if (kind === 'Deployment') return s.updatedReplicas === replicas && s.availableReplicas === replicas;
  return s.updatedReadyReplicas === replicas && s.readyReplicas === replicas && s.currentRevision === s.updateRevision;
}

const isScheduler = (key: string) => key === 'POST pods/binding' || key.includes('events.k8s.io/');
const isApiserverOwn = (key: string) => / endpoints$/.test(key);
const only = (t: Tally, keep: (key: string) => boolean): Tally => Object.fromEntries(Object.entries(t).filter(([k]) => keep(k)));

export type RolloutFailure = { workload: string; error: string };

export type Counts = { apiserver: Tally; loop: LoopSnapshot; kubelet: Tally; own: Tally };

/** Every counter at one moment: the kubelet paused meanwhile (between its passes), so its writes and the API server's count agree. */
export async function snapshot(c: BenchCluster, loop: LoopChild): Promise<Counts> {
  await c.kubelet.stop();
  try {
    const loopCounts = await loop.snapshot();
    const apiserver = await apiserverRequests(c.kube);
    return { apiserver, loop: loopCounts, kubelet: { ...c.kubeletRequests }, own: { ...c.own } };
  } finally {
    c.kubelet.start();
  }
}

/** The writes between two snapshots, by writer: the API server's count less everyone we can count is the rest (kube-controller-manager's, and the loop's again). */
export function attributeWrites(s0: Counts, s1: Counts): { kubelet: Tally; scheduler: Tally; apiserver: Tally; attributed: Tally; loopWrites: Tally } {
  const kubelet = writesOf(minus(s1.kubelet, s0.kubelet));
  const own = writesOf(minus(s1.own, s0.own));
  const seen = writesOf(minus(s1.apiserver, s0.apiserver));
  const scheduler = only(seen, isScheduler);
  const apiserver = only(seen, isApiserverOwn);
  const attributed = writesOf(minus(minus(minus(minus(seen, kubelet), own), scheduler), apiserver));
  return { kubelet, scheduler, apiserver, attributed, loopWrites: writesOf(minus(s1.loop.tally, s0.loop.tally)) };
}

async function rollOne(c: BenchCluster, loop: LoopChild, w: Workload, replicas: number, log: (m: string) => void): Promise<RolloutResult> {
  const before = new Set((await podsOf(c.kube, ROLLOUT_NAMESPACE, w.app)).map((p) => p.metadata.uid));
  const s0 = await snapshot(c, loop);
  const cpuGroups: Record<string, number[]> = { loop: [loop.pid] };
  for (const [k, pid] of Object.entries(c.cp.pids)) cpuGroups[k] = [pid];
  const cpu0 = cpuByGroup(cpuGroups);
  const t0 = performance.now();
  await c.kube.patch(w.object, imagePatch(IMAGE(2)), 'json');
  let statusAt: number | undefined;
  const wallMs = await until(`${w.label}: every pod at the new image and Ready`, async () => {
    if (statusAt === undefined && (await statusDone(c, w, replicas))) statusAt = performance.now();
    return rolledOut(await podsOf(c.kube, ROLLOUT_NAMESPACE, w.app), replicas, IMAGE(2)) ? performance.now() - t0 : undefined;
  }, ROLLOUT_TIMEOUT_MS, 200);
  await until(`${w.label}: its status to report the rollout`, async () => {
    if (statusAt === undefined && (await statusDone(c, w, replicas))) statusAt = performance.now();
    return statusAt;
  }, 60_000, 100);
  const cpu = describeCpu(cpu0, cpuByGroup(cpuGroups));
  await sleep(SETTLE_MS);
  const s1 = await snapshot(c, loop);
  const after = await podsOf(c.kube, ROLLOUT_NAMESPACE, w.app);
  const { kubelet, scheduler, apiserver, attributed, loopWrites } = attributeWrites(s0, s1);
  const isCloneSet = w.object.kind === CLONESET.kind;
  const result: RolloutResult = {
    workload: w.label, controller: w.controller, replicas, wallMs, statusMs: (statusAt ?? performance.now()) - t0,
    recreated: after.filter((p) => !before.has(p.metadata.uid)).length,
    writes: isCloneSet ? loopWrites : writesOf(minus(attributed, loopWrites)),
    attributed, scheduler: total(scheduler), kubelet: total(kubelet), apiserver: total(apiserver), loop: total(loopWrites),
    loopElsewhere: total(minus(s1.loop.byNamespace, s0.loop.byNamespace), (ns) => ns !== ROLLOUT_NAMESPACE && ns !== 'kruise-system'),
    ...(isCloneSet ? { runs: s1.loop.runs - s0.loop.runs, conflicts: s1.loop.conflicts - s0.loop.conflicts } : {}),
  };
  log(`${w.label}: ${(wallMs / 1000).toFixed(1)} s, ${result.recreated} pods recreated, controller writes ${total(result.writes)} (${describeWrites(result.writes)}); API server less kubelet/scheduler/bench: ${total(attributed)} (${describeWrites(attributed)}); CPU ms until done: ${cpu}`);
  return result;
}

export type Rollouts = { bringUpMs: number; results: RolloutResult[]; failures: RolloutFailure[] };

export async function measureRollouts(c: BenchCluster, loop: LoopChild, replicas: number, log: (m: string) => void): Promise<Rollouts> {
  await createNamespace(c.kube, ROLLOUT_NAMESPACE);
  const workloads: Workload[] = [
    { object: deployment('deploy', ROLLOUT_NAMESPACE, replicas, IMAGE(1)), label: 'Deployment (maxSurge 0)', controller: 'kube-controller-manager', app: 'deploy' },
    { object: cloneSet('inplace', ROLLOUT_NAMESPACE, replicas, IMAGE(1), 'InPlaceIfPossible'), label: 'CloneSet InPlaceIfPossible', controller: 'Node loop', app: 'inplace' },
    { object: cloneSet('recreate', ROLLOUT_NAMESPACE, replicas, IMAGE(1), 'ReCreate'), label: 'CloneSet ReCreate', controller: 'Node loop', app: 'recreate' },
  ];
  const t0 = performance.now();
  for (const w of workloads) w.object = await c.kube.create(w.object);
  await until(`${replicas} ready pods for each workload`, async () => {
    for (const w of workloads) if (!rolledOut(await podsOf(c.kube, ROLLOUT_NAMESPACE, w.app), replicas, IMAGE(1)) || !(await statusDone(c, w, replicas))) return undefined;
    return true;
  }, ROLLOUT_TIMEOUT_MS, 500);
  const bringUpMs = performance.now() - t0;
  log(`three workloads at ${replicas} ready pods each in ${(bringUpMs / 1000).toFixed(1)} s`);
  await sleep(3_000);
  // One at a time, so each has the machine to itself; the Deployment first, while the loop idles.
  return { bringUpMs, ...(await rollInTurn(workloads, (w) => rollOne(c, loop, w, replicas, log), log)) };
}

/** Rolls each workload in turn; one that fails is reported and the next still rolls. */
export async function rollInTurn<W extends { label: string }, R>(workloads: readonly W[], roll: (w: W) => Promise<R>, log: (m: string) => void): Promise<{ results: R[]; failures: RolloutFailure[] }> {
  const results: R[] = [];
  const failures: RolloutFailure[] = [];
  for (const w of workloads) {
    try {
      results.push(await roll(w));
    } catch (e) {
      failures.push({ workload: w.label, error: e instanceof Error ? e.message : String(e) });
      log(`${w.label}: ${failures.at(-1)!.error}`);
    }
  }
  return { results, failures };
}

