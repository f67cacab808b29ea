// The StatefulSet section of `npm run bench:workloads`: the same image change on two StatefulSets
// with the same pod template (bench/cloneset-cluster.ts's) and `replicas` ready pods each —
//   - an Advanced StatefulSet (apps.kruise.io/v1beta1), Parallel, maxUnavailable 3,
//     InPlaceIfPossible: our controller on the Node loop, in its own process;
//   - an apps/v1 StatefulSet, RollingUpdate with OrderedReady (the defaults): kube-controller-manager.
// Per rollout: wall time from the spec change to every pod updated and Ready, and to the
// StatefulSet's status saying so (both from watch events: bench/rollout-watch.ts); when pods got
// there, and each step of a pod's update with who took it (per-pod medians); the controller's API
// writes, attributed as bench/cloneset-rollout.ts does; the pods recreated.
//
// serviceName names a Service that is never created: neither controller looks it up, and without
// one no endpoints controller writes for every readiness change in the window.
import type { KubeObject } from '../src/kube/http.js';
import { minus, total } from './cloneset-counting.js';
import { IMAGE, createNamespace, imagePatch, podTemplate, podsOf, rolledOut, sleep, until, type BenchCluster, type Pod } from './cloneset-cluster.js';
import type { LoopChild } from './cloneset-children.js';
import { attributeWrites, snapshot, type RolloutResult } from './cloneset-rollout.js';
import { phaseMedians, watchRollout, type Actor, type Mark, type PodEvent, type Progress } from './rollout-watch.js';

export const STATEFULSET_NAMESPACE = 'bench-statefulset';
const ROLLOUT_TIMEOUT_MS = 600_000;
/** After the pods are done: trailing status writes land before the counts are read. */
const SETTLE_MS = 5_000;
/** No pod finished its update for this long: logged as it happens (a figure, not a failure). */
const PAUSE_LOG_MS = 10_000;

export const ADVANCED_STATEFULSET = { apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet' } as const;
export const NATIVE_STATEFULSET = { apiVersion: 'apps/v1', kind: 'StatefulSet' } as const;
export const MAX_UNAVAILABLE = 3;

type Named = KubeObject & { metadata: { name: string; namespace: string } };

export function advancedStatefulSet(name: string, namespace: string, replicas: number, image: string): Named {
  return {
    ...ADVANCED_STATEFULSET, metadata: { name, namespace },
    spec: {
      replicas, serviceName: name, podManagementPolicy: 'Parallel', selector: { matchLabels: { app: name } }, template: withInPlaceGate(podTemplate(name, image)),
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: MAX_UNAVAILABLE, podUpdatePolicy: 'InPlaceIfPossible' } },
    },
  };
}

/** The template with the InPlaceUpdateReady readiness gate, which in-place updates require (as OpenKruise's validation does). */
function withInPlaceGate(template: Record<string, unknown>): Record<string, unknown> {
  const spec = template.spec as Record<string, unknown>;
  return { ...template, spec: { ...spec, readinessGates: [{ conditionType: 'InPlaceUpdateReady' }] } };
}

export function nativeStatefulSet(name: string, namespace: string, replicas: number, image: string): Named {
  return {
    ...NATIVE_STATEFULSET, metadata: { name, namespace },
    spec: {
      replicas, serviceName: name, podManagementPolicy: 'OrderedReady', selector: { matchLabels: { app: name } }, template: podTemplate(name, image),
      updateStrategy: { type: 'RollingUpdate' },
    },
  };
}

export type StatefulSetRollout = RolloutResult & { progress: Progress; longestPause: { ms: number; after: number }; phases: { name: string; by: Actor; ms: number; pods: number }[];
  /** The Node loop's runs in the window (ours): failed writes, time in runs, API requests (reads included). */
  failed?: number; busyMs?: number; apiCalls?: number };

type Workload = { object: Named; label: string; controller: string; app: string; ours: boolean; marks: readonly Mark[] };

type Status = { observedGeneration?: number; replicas?: number; readyReplicas?: number; updatedReplicas?: number; updatedReadyReplicas?: number; currentRevision?: string; updateRevision?: string };

/** The StatefulSet's status reports every replica updated and ready at its current generation, the rollout complete. */
function statusDone(got: KubeObject, replicas: number, ours: boolean): boolean {
  const s = (got.status ?? {}) as Status;
  if ((s.observedGeneration ?? 0) < ((got.metadata as { generation?: number } | undefined)?.generation ?? 0) || s.replicas !== replicas || s.readyReplicas !== replicas) return false;
  // apps/v1 (1.20) has no updatedReadyReplicas; its currentRevision moves once every pod is updated and ready.
  const updated = ours ? s.updatedReadyReplicas : s.updatedReplicas;
  return updated === replicas && s.currentRevision === s.updateRevision;
}

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

/** A recreate's steps (the new pod has the old one's name). */
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

async function rollOne(c: BenchCluster, loop: LoopChild, w: Workload, replicas: number, log: (m: string) => void): Promise<StatefulSetRollout> {
  const image = IMAGE(2);
  const watch = await watchRollout(c.kube, { namespace: STATEFULSET_NAMESPACE, app: w.app, replicas, image, workload: w.object, statusDone: (o) => statusDone(o, replicas, w.ours), marks: w.marks });
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
    const after = await podsOf(c.kube, STATEFULSET_NAMESPACE, w.app);
    const { kubelet, scheduler, apiserver, attributed, loopWrites } = attributeWrites(s0, s1);
    const result: StatefulSetRollout = {
      workload: w.label, controller: w.controller, replicas, wallMs: watch.doneMs!, statusMs: watch.statusMs!,
      recreated: after.filter((p) => !watch.before.has(p.metadata.uid)).length,
      writes: w.ours ? loopWrites : minus(attributed, loopWrites),
      attributed, scheduler: total(scheduler), kubelet: total(kubelet), apiserver: total(apiserver), loop: total(loopWrites),
      loopElsewhere: total(minus(s1.loop.byNamespace, s0.loop.byNamespace), (ns) => ns !== STATEFULSET_NAMESPACE && ns !== 'kruise-system'),
      progress: watch.progress, longestPause: longestPause(watch.progress.doneMs),
      phases: phaseMedians(watch, w.marks).map((p) => ({ name: p.mark.name, by: p.mark.by, ms: p.ms, pods: p.pods })),
      ...(w.ours ? { runs: s1.loop.runs - s0.loop.runs, conflicts: s1.loop.conflicts - s0.loop.conflicts, failed: s1.loop.failed - s0.loop.failed, busyMs: s1.loop.busyMs - s0.loop.busyMs, apiCalls: s1.loop.apiCalls - s0.loop.apiCalls } : {}),
    };
    log(`${w.label}: ${(result.wallMs / 1000).toFixed(2)} s (status ${(result.statusMs / 1000).toFixed(2)} s), ${result.recreated} pods recreated, controller writes ${total(result.writes)}`);
    return result;
  } finally {
    watch.stop();
  }
}

export type StatefulSetRollouts = { replicas: number; bringUpMs: number; results: StatefulSetRollout[]; failures: { workload: string; error: string }[] };

export async function measureStatefulSets(c: BenchCluster, loop: LoopChild, replicas: number, log: (m: string) => void): Promise<StatefulSetRollouts> {
  await createNamespace(c.kube, STATEFULSET_NAMESPACE);
  const workloads: Workload[] = [
    { object: nativeStatefulSet('native', STATEFULSET_NAMESPACE, replicas, IMAGE(1)), label: 'apps/v1 StatefulSet', controller: 'kube-controller-manager', app: 'native', ours: false, marks: RECREATE_MARKS },
    { object: advancedStatefulSet('advanced', STATEFULSET_NAMESPACE, replicas, IMAGE(1)), label: 'Advanced StatefulSet', controller: 'Node loop', app: 'advanced', ours: true, marks: IN_PLACE_MARKS },
  ];
  const t0 = performance.now();
  for (const w of workloads) w.object = (await c.kube.create(w.object)) as Workload['object'];
  await until(`${replicas} ready pods for each StatefulSet`, async () => {
    for (const w of workloads) {
      if (!rolledOut(await podsOf(c.kube, STATEFULSET_NAMESPACE, w.app), replicas, IMAGE(1))) return undefined;
      if (!statusDone(await c.kube.get(w.object.apiVersion!, w.object.kind!, w.app, STATEFULSET_NAMESPACE), replicas, w.ours)) return undefined;
    }
    return true;
  }, ROLLOUT_TIMEOUT_MS, 500);
  const bringUpMs = performance.now() - t0;
  log(`both StatefulSets at ${replicas} ready pods in ${(bringUpMs / 1000).toFixed(1)} s`);
  await sleep(3_000);
  const results: StatefulSetRollout[] = [];
  const failures: { workload: string; error: string }[] = [];
  // One at a time, so each has the machine to itself; the native one first, while the loop idles.
  for (const w of workloads) {
    try {
      results.push(await rollOne(c, loop, w, replicas, log));
    } catch (e) {
      failures.push({ workload: w.label, error: e instanceof Error ? e.message : String(e) });
      log(`${w.label}: ${failures.at(-1)!.error}`);
    }
  }
  return { replicas, bringUpMs, results, failures };
}
