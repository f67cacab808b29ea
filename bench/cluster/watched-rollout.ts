// One workload's image change as the watches see it (bench/cluster/rollout-watch.ts), for the sections of
// `npm run bench:workloads`: wall time to every pod updated and Ready and to the status saying so,
// each step of a pod's update with who took it, the controller's writes (attributed as
// bench/cloneset/rollout.ts does) and the pods recreated.
import type { KubeObject } from '../../src/kube/http.js';
import { minus, total } from './counting.js';
import { IMAGE, imagePatch, podsOf, rolledOut, sleep, until, type BenchCluster, type Pod } from './cluster.js';
import type { LoopChild } from './children.js';
import { attributeWrites, rollInTurn, snapshot, type RolloutResult } from '../cloneset/rollout.js';
import { phaseMedians, watchRollout, type Actor, type Mark, type PodEvent, type Progress } from './rollout-watch.js';

const ROLLOUT_TIMEOUT_MS = 600_000;
/** After the pods are done: trailing status writes land before the counts are read. */
const SETTLE_MS = 5_000;
/** No pod finished its update for this long: logged as it happens (a figure, not a failure). */
const PAUSE_LOG_MS = 10_000;

export type WatchedRollout = RolloutResult & { progress: Progress; longestPause: { ms: number; after: number }; phases: { name: string; by: Actor; ms: number; pods: number }[];
  /** Pod name → mark → ms after the spec change (each pod's steps, as the watch saw them). */
  podMarks: Record<string, Record<string, number>>;
  /** The Node loop's runs in the window (ours): failed writes, time in runs, API requests (reads included). */
  failed?: number; busyMs?: number; apiCalls?: number };

/** A workload to roll: pods labelled app=<app> in `namespace`; `ours` when the Node loop controls it. */
export type RolloutWorkload = {
  object: KubeObject & { metadata: { name: string; namespace: string } };
  namespace: string; label: string; controller: string; app: string; ours: boolean; marks: readonly Mark[];
  /** The workload's status reports the rollout complete. */
  statusDone(workload: KubeObject): boolean;
};

const gate = (p: Pod) => p.status?.conditions?.find((c) => c.type === 'InPlaceUpdateReady')?.status;
const specAt = (e: PodEvent) => e.pod.spec.containers[0]?.image === e.image;
const runsNew = (e: PodEvent) => e.pod.status?.containerStatuses?.find((s) => s.name === 'main')?.image === e.image;
const done = (e: PodEvent) => rolledOut([e.pod], 1, e.image);

/** An in-place update's steps; each predicate holds from its step on, so an event that shows a later step records the earlier ones too. */
export const IN_PLACE_MARKS: readonly Mark[] = [
  { name: 'InPlaceUpdateReady False', by: 'controller', reached: (e) => e.old && (gate(e.pod) === 'False' || specAt(e)) },
  { name: 'new image in spec', by: 'controller', reached: (e) => e.old && specAt(e) },
  { name: 'new image running', by: 'kubelet', reached: (e) => e.old && runsNew(e) },
  { name: 'InPlaceUpdateReady True', by: 'controller', reached: (e) => e.old && runsNew(e) && gate(e.pod) === 'True' },
  { name: 'Ready', by: 'kubelet', reached: (e) => e.old && done(e) },
];

/** A recreate's steps (a StatefulSet's new pod has the old one's name; a DaemonSet's, a new one). */
export const RECREATE_MARKS: readonly Mark[] = [
  { name: 'deleted', by: 'controller', reached: (e) => !e.old || Boolean(e.pod.metadata.deletionTimestamp) || e.type === 'DELETED' },
  { name: 'gone', by: 'kubelet', reached: (e) => !e.old || e.type === 'DELETED' },
  { name: 'created', by: 'controller', reached: (e) => !e.old },
  { name: 'scheduled', by: 'scheduler', reached: (e) => !e.old && Boolean((e.pod.spec as { nodeName?: string }).nodeName) },
  { name: 'Ready', by: 'kubelet', reached: (e) => !e.old && done(e) },
];

/** The longest stretch in which no more pods got done, and how many were done then. */
function longestPause(doneMs: readonly number[]): { ms: number; after: number } {
  let best = { ms: 0, after: 0 };
  doneMs.forEach((t, i) => {
    const gap = t - (i === 0 ? 0 : doneMs[i - 1]!);
    if (gap > best.ms) best = { ms: gap, after: i };
  });
  return best;
}

/** `image`: where to roll to (default IMAGE(2)). */
export async function rollOne(c: BenchCluster, loop: LoopChild, w: RolloutWorkload, replicas: number, log: (m: string) => void, image = IMAGE(2)): Promise<WatchedRollout> {
  const watch = await watchRollout(c.kube, { namespace: w.namespace, app: w.app, replicas, image, workload: w.object, statusDone: w.statusDone, marks: w.marks });
  try {
    const s0 = await snapshot(c, loop);
    watch.start();
    await c.kube.patch(w.object, imagePatch(image), 'json');
    let lastCount = 0;
    let lastGain = 0;
    let pauseLogged = false;
    const started = performance.now();
    await until(`${w.label}: every pod at the new image and Ready, and its status saying so`, async () => {
      if (watch.broken) throw new Error(watch.broken);
      const now = performance.now() - started;
      const count = watch.progress.doneMs.length;
      if (count > lastCount) [lastCount, lastGain, pauseLogged] = [count, now, false];
      else if (!pauseLogged && now - lastGain > PAUSE_LOG_MS) {
        pauseLogged = true;
        log(`${w.label}: no pod done for ${(PAUSE_LOG_MS / 1000).toFixed(0)} s, ${count}/${replicas} done`);
      }
      return watch.doneMs !== undefined && watch.statusMs !== undefined ? true : undefined;
    }, ROLLOUT_TIMEOUT_MS, 100);
    await sleep(SETTLE_MS);
    const s1 = await snapshot(c, loop);
    const after = await podsOf(c.kube, w.namespace, w.app);
    const { kubelet, scheduler, apiserver, attributed, loopWrites } = attributeWrites(s0, s1);
    const result: WatchedRollout = {
      workload: w.label, controller: w.controller, replicas, wallMs: watch.doneMs!, statusMs: watch.statusMs!,
      recreated: after.filter((p) => !watch.before.has(p.metadata.uid)).length,
      writes: w.ours ? loopWrites : minus(attributed, loopWrites),
      attributed, scheduler: total(scheduler), kubelet: total(kubelet), apiserver: total(apiserver), loop: total(loopWrites),
      loopElsewhere: total(minus(s1.loop.byNamespace, s0.loop.byNamespace), (ns) => ns !== w.namespace && ns !== 'kruise-system'),
      progress: watch.progress, longestPause: longestPause(watch.progress.doneMs),
      podMarks: Object.fromEntries(watch.marks),
      phases: phaseMedians(watch, w.marks).map((p) => ({ name: p.mark.name, by: p.mark.by, ms: p.ms, pods: p.pods })),
      ...(w.ours ? { runs: s1.loop.runs - s0.loop.runs, conflicts: s1.loop.conflicts - s0.loop.conflicts, failed: s1.loop.failed - s0.loop.failed, busyMs: s1.loop.busyMs - s0.loop.busyMs, apiCalls: s1.loop.apiCalls - s0.loop.apiCalls } : {}),
    };
    log(`${w.label}: ${(result.wallMs / 1000).toFixed(2)} s (status ${(result.statusMs / 1000).toFixed(2)} s), ${result.recreated} pods recreated, controller writes ${total(result.writes)}`);
    return result;
  } finally {
    watch.stop();
  }
}


export type RolloutPair = { bringUpMs: number; results: WatchedRollout[]; failures: { workload: string; error: string }[] };

/**
 * Creates the workloads at IMAGE(1), waits for `replicas` ready pods each and their status, then
 * rolls them to IMAGE(2) one at a time (in the order given: the native one first, while the loop idles).
 */
export async function bringUpAndRoll(c: BenchCluster, loop: LoopChild, workloads: RolloutWorkload[], replicas: number, what: string, log: (m: string) => void): Promise<RolloutPair> {
  const t0 = performance.now();
  for (const w of workloads) w.object = (await c.kube.create(w.object)) as RolloutWorkload['object'];
  await until(`${replicas} ready pods for each ${what}`, async () => {
    for (const w of workloads) {
      if (!rolledOut(await podsOf(c.kube, w.namespace, w.app), replicas, IMAGE(1))) return undefined;
      if (!w.statusDone(await c.kube.get(w.object.apiVersion!, w.object.kind!, w.app, w.namespace))) return undefined;
    }
    return true;
  }, ROLLOUT_TIMEOUT_MS, 500);
  const bringUpMs = performance.now() - t0;
  log(`every ${what} at ${replicas} ready pods in ${(bringUpMs / 1000).toFixed(1)} s`);
  await sleep(3_000);
  return { bringUpMs, ...(await rollInTurn(workloads, (w) => rollOne(c, loop, w, replicas, log), log)) };
}
