// One rollout as the benchmark sees it through two watches (its pods, by label; the workload, by
// name), not by polling: every time is the arrival of the event that showed it, in ms after the
// spec change. A watch costs the API server no LIST per look, and a rollout of a few seconds is
// not rounded to a polling period. Per pod it records `marks` — the steps of its update in order,
// each with who takes it (controller, kubelet, scheduler) — for the per-phase medians.
import type { KubeHttp, KubeObject } from '../../src/kube/http.js';
import { rolledOut, type Pod } from './cluster.js';
import { median } from '../cloneset/report.js';

export type Actor = 'controller' | 'kubelet' | 'scheduler';

/** A step of one pod's update: reached when `reached` first holds for an event of that pod's name. */
export type Mark = { name: string; by: Actor; reached(e: PodEvent): boolean };
export type PodEvent = { type: string; pod: Pod; /** the pod existed before the spec change */ old: boolean; image: string };

/** When the rollout got where (ms after the spec change). */
export type Progress = {
  /** The first pod changed: the first mark of any pod. */
  firstTouchedMs?: number;
  /** doneMs[k − 1]: when k pods were at the new image and Ready. */
  doneMs: number[];
};

export type RolloutWatch = {
  /** Every pod at the new image and Ready (and only `replicas` pods, none terminating). */
  doneMs?: number;
  /** `statusDone` first held for the workload. */
  statusMs?: number;
  progress: Progress;
  /** Pod name → mark → ms. */
  marks: Map<string, Record<string, number>>;
  /** Set when a watch ended or failed before stop(). */
  broken?: string;
  stop(): void;
};

type WatchOpts = {
  namespace: string;
  app: string;
  replicas: number;
  image: string;
  /** The workload: watched by name, `statusDone` asked of each version. */
  workload: KubeObject & { metadata: { name: string } };
  statusDone(workload: KubeObject): boolean;
  marks: readonly Mark[];
};

const WATCH_SECONDS = 1_800;

/**
 * Lists the pods (their uids are the "before"), then watches them and the workload from that
 * version. Call before the spec change; `start()` marks the change's time (t = 0).
 */
export async function watchRollout(kube: KubeHttp, o: WatchOpts): Promise<RolloutWatch & { before: Set<string>; start(): void }> {
  const listed = await kube.list<Pod>('v1', 'Pod', { namespace: o.namespace, labelSelector: `app=${o.app}` });
  const pods = new Map(listed.items.map((p) => [p.metadata.name, p]));
  const before = new Set(listed.items.map((p) => p.metadata.uid));
  const stop = new AbortController();
  let t0: number | undefined;
  const since = () => performance.now() - (t0 ?? performance.now());
  const w: RolloutWatch & { before: Set<string>; start(): void } = {
    before, progress: { doneMs: [] }, marks: new Map(),
    start: () => void (t0 = performance.now()),
    stop: () => stop.abort(),
  };
  const isDone = (p: Pod) => rolledOut([p], 1, o.image);

  const onPod = (type: string, pod: Pod) => {
    const name = pod.metadata.name;
    if (type === 'DELETED') {
      if (pods.get(name)?.metadata.uid === pod.metadata.uid) pods.delete(name);
    } else pods.set(name, pod);
    // Before the spec change: kept current, nothing to mark.
    if (t0 === undefined) return;
    const now = since();
    const at = w.marks.get(name) ?? {};
    const e: PodEvent = { type, pod, old: before.has(pod.metadata.uid), image: o.image };
    // In order: a mark counts once the ones before it are reached (an old pod's events do not pass for the new one's).
    for (const m of o.marks) {
      if (at[m.name] !== undefined) continue;
      if (!m.reached(e)) break;
      at[m.name] = now;
      w.progress.firstTouchedMs ??= now;
    }
    w.marks.set(name, at);
    const done = [...pods.values()].filter(isDone).length;
    while (w.progress.doneMs.length < done) w.progress.doneMs.push(now);
    if (w.doneMs === undefined && rolledOut([...pods.values()], o.replicas, o.image)) w.doneMs = now;
  };
  const onWorkload = (obj: KubeObject) => {
    if (t0 !== undefined && w.statusMs === undefined && o.statusDone(obj)) w.statusMs = since();
  };

  const broken = (what: string) => (e?: unknown) => {
    if (!stop.signal.aborted) w.broken ??= `the ${what} watch ended${e ? `: ${e instanceof Error ? e.message : String(e)}` : ''}`;
  };
  const { apiVersion, kind } = o.workload;
  void kube.watch('v1', 'Pod', { resourceVersion: listed.resourceVersion, timeoutSeconds: WATCH_SECONDS, signal: stop.signal, namespace: o.namespace, labelSelector: `app=${o.app}` }, (e) => {
    if (e.type === 'ADDED' || e.type === 'MODIFIED' || e.type === 'DELETED') onPod(e.type, e.object as Pod);
    else if (e.type === 'ERROR') broken('pod')(new Error(JSON.stringify(e.object)));
  }).then(broken('pod'), broken('pod'));
  void kube.watch(apiVersion!, kind!, { resourceVersion: listed.resourceVersion, timeoutSeconds: WATCH_SECONDS, signal: stop.signal, namespace: o.namespace, fieldSelector: `metadata.name=${o.workload.metadata.name}` }, (e) => {
    if (e.type === 'ADDED' || e.type === 'MODIFIED') onWorkload(e.object);
    else if (e.type === 'ERROR') broken(kind!)(new Error(JSON.stringify(e.object)));
  }).then(broken(kind!), broken(kind!));
  return w;
}

/** The per-pod medians of each step (ms from the mark before; the first from the last pod done before it, or the spec change). */
export function phaseMedians(w: Pick<RolloutWatch, 'marks' | 'progress'>, marks: readonly Mark[]): { mark: Mark; ms: number; pods: number }[] {
  const done = [...w.progress.doneMs].sort((a, b) => a - b);
  const lastDoneBefore = (t: number) => done.filter((d) => d < t).at(-1) ?? 0;
  return marks.map((m, i) => {
    const gaps: number[] = [];
    for (const at of w.marks.values()) {
      const t = at[m.name];
      if (t === undefined) continue;
      const from = i === 0 ? lastDoneBefore(t) : at[marks[i - 1]!.name];
      if (from !== undefined) gaps.push(t - from);
    }
    return { mark: m, ms: median(gaps), pods: gaps.length };
  });
}
