// A watch over one namespace's pods for the per-node job sections (BroadcastJob, ImagePullJob):
// which pods are done (the section says what done means), a promise per pod name that resolves
// once it is, and an `onPod` hook to play the pod's side (e.g. its container exiting). A watch that
// ends or fails rejects every waiter, so a section never hangs on it.
import type { KubeObject } from '../../src/kube/http.js';
import type { BenchCluster } from './cluster.js';

const WATCH_SECONDS = 600;

export type WatchedPod = KubeObject & { metadata: { name: string; namespace: string; labels?: Record<string, string> }; status?: { phase?: string; containerStatuses?: { name: string; imageID?: string }[] } };

export type PodWatch = {
  /** Done pods carrying this label key. */
  count(labelKey: string): number;
  /** Resolves once the pod is done. */
  done(name: string): Promise<void>;
  readonly broken: string | undefined;
  stop(): void;
};

export async function watchPods(c: BenchCluster, namespace: string, isDone: (pod: WatchedPod) => boolean, onPod?: (pod: WatchedPod) => void): Promise<PodWatch> {
  const listed = await c.kube.list<WatchedPod>('v1', 'Pod', { namespace });
  const stop = new AbortController();
  const finished = new Map<string, WatchedPod>();
  const waiters = new Map<string, { resolve: () => void; reject: (e: Error) => void }>();
  let broken: string | undefined;
  const breakWith = (why: string) => {
    if (stop.signal.aborted) return;
    broken ??= why;
    for (const w of waiters.values()) w.reject(new Error(why));
  };
  void c.kube.watch('v1', 'Pod', { resourceVersion: listed.resourceVersion, timeoutSeconds: WATCH_SECONDS, signal: stop.signal, namespace }, (e) => {
    if (e.type !== 'ADDED' && e.type !== 'MODIFIED') return;
    const pod = e.object as WatchedPod;
    onPod?.(pod);
    if (finished.has(pod.metadata.name) || !isDone(pod)) return;
    finished.set(pod.metadata.name, pod);
    waiters.get(pod.metadata.name)?.resolve();
  }).then(() => breakWith('the pod watch ended'), (e: unknown) => breakWith(`the pod watch failed: ${String(e)}`));
  return {
    count: (labelKey) => [...finished.values()].filter((p) => p.metadata.labels?.[labelKey] !== undefined).length,
    done: (name) => new Promise<void>((resolve, reject) => {
      if (finished.has(name)) resolve();
      else if (broken) reject(new Error(broken));
      else waiters.set(name, { resolve, reject });
    }),
    get broken() { return broken; },
    stop: () => stop.abort(),
  };
}
