// The kubelet-bound ideal of a rollout: the strategy's waves played on the kubelet model with zero
// controller latency — every write happens the instant the strategy allows it, and only the
// kubelet's stages take time. Pure: a fresh model (same seed and profile as the run) in, ms out.
// In-place rollouts replay the fake kubelet's own keys (pod/container/restart), so they draw the
// same durations as the run; recreated pods get synthetic keys (their names and uids are the
// controller's), so theirs are draws from the same laws.
import type { KubeletModel } from '../../../test/cluster/kubelet-model.js';

/** One pod of the workload before the change: its namespace/name and its node. */
export type PodSlot = { key: string; node: string };

/** `n` items, at most `window` at a time, each taking `run(i, startMs)` → its end (ms); the last end. */
export function slidingWindow(n: number, window: number, run: (i: number, at: number) => number): number {
  const ends: number[] = [];
  let last = 0;
  for (let i = 0; i < n; i++) {
    // The i-th item starts when the (i − window + 1)-th earliest end frees a slot.
    const at = i < window ? 0 : [...ends].sort((a, b) => a - b)[i - window]!;
    const end = run(i, at);
    ends.push(end);
    last = Math.max(last, end);
  }
  return last;
}

/** CloneSet / Advanced StatefulSet / Advanced DaemonSet in place, `window` pods unavailable at a time. */
export function idealInPlace(model: KubeletModel, pods: readonly PodSlot[], image: string, window: number): number {
  return slidingWindow(pods.length, window, (i, at) => model.restart(pods[i]!.node, [image], `${pods[i]!.key}/main/1`, at).readyAt);
}

/** Recreate, `window` nodes at a time: the old pod terminates, then the new one starts on its node (DaemonSet). */
export function idealRecreateWindow(model: KubeletModel, pods: readonly PodSlot[], image: string, window: number): number {
  return slidingWindow(pods.length, window, (i, at) => {
    const p = pods[i]!;
    const gone = model.terminate(`${p.key}/old`, at);
    return model.newPod(p.node, [image], `${p.key}/new`, gone).readyAt;
  });
}

/** StatefulSet OrderedReady: highest ordinal first, one at a time, each deleted, gone, created and Ready. */
export function idealOrderedReady(model: KubeletModel, pods: readonly PodSlot[], image: string): number {
  let t = 0;
  for (const p of [...pods].reverse()) {
    const gone = model.terminate(`${p.key}/old`, t);
    t = model.newPod(p.node, [image], `${p.key}/new`, gone).readyAt;
  }
  return t;
}

/**
 * Deployment RollingUpdate: new pods while old + new ≤ replicas + surge; old pods deleted while
 * ready old + ready new − 1 ≥ replicas − unavailable (terminating pods count for neither). Done
 * when every new pod is Ready and every old one gone. New pods go to the replaced pods' nodes in turn.
 */
export function idealDeployment(model: KubeletModel, pods: readonly PodSlot[], image: string, surge: number, unavailable: number): number {
  const n = pods.length;
  const newReady: number[] = [];
  let oldLeft = n;
  let lastGone = 0;
  let t = 0;
  for (;;) {
    const ready = newReady.filter((r) => r <= t).length;
    let deletable = oldLeft + ready - (n - unavailable);
    while (deletable-- > 0 && oldLeft > 0) {
      oldLeft -= 1;
      lastGone = Math.max(lastGone, model.terminate(`${pods[oldLeft]!.key}/old`, t));
    }
    while (newReady.length < n && oldLeft + newReady.length < n + surge) {
      const i = newReady.length;
      newReady.push(model.newPod(pods[i % n]!.node, [image], `${pods[i % n]!.key}/new`, t).readyAt);
    }
    const next = newReady.filter((r) => r > t).sort((a, b) => a - b)[0];
    if (next === undefined) {
      if (oldLeft > 0 || newReady.length < n) throw new Error(`deployment ideal stuck: surge ${surge}, unavailable ${unavailable}`);
      return Math.max(t, lastGone);
    }
    t = next;
  }
}
