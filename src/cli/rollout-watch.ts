// Follows one workload and its pods through the watch API: a LIST, then a WATCH from its
// resourceVersion, and again whenever the server ends the watch. `onChange` sees every new state
// and says when to stop.
import { KubeApiError } from '../kube/errors.js';
import type { KubeHttp, KubeObject } from '../kube/http.js';
import type { Pod } from '../workload/pods.js';
import type { RolloutTarget } from './rollout-args.js';

const WATCH_SECONDS = 300;

export type Followed = { object: KubeObject; pods: Pod[] };
export type FollowOutcome = 'stopped' | 'timeout';

type Query = { apiVersion: string; kind: string; namespace: string; labelSelector?: string; fieldSelector?: string };
type Event = { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: KubeObject };

/**
 * Calls `onChange` with the object and its pods (once both are known, then on every change)
 * until it returns true ('stopped'), `timeoutMs` passes ('timeout'; 0: never), or something
 * fails (thrown: the object deleted, a request refused).
 */
export async function followRollout(
  kube: KubeHttp,
  target: RolloutTarget,
  namespace: string,
  timeoutMs: number,
  onChange: (state: Followed) => boolean,
): Promise<FollowOutcome> {
  const { kind, name } = target;
  const stop = new AbortController();
  let outcome: FollowOutcome | undefined;
  let failure: unknown;
  const end = (how: FollowOutcome | Error) => {
    if (outcome || failure) return;
    if (how instanceof Error) failure = how;
    else outcome = how;
    stop.abort();
  };
  const timer = timeoutMs > 0 ? setTimeout(() => end('timeout'), timeoutMs) : undefined;

  let object: KubeObject | undefined;
  let pods: Map<string, Pod> | undefined;
  const changed = () => {
    if (!object || !pods || stop.signal.aborted) return;
    if (onChange({ object, pods: [...pods.values()] })) end('stopped');
  };

  const objectQuery = { apiVersion: kind.apiVersion, kind: kind.kind, namespace, fieldSelector: `metadata.name=${name}` };
  const followObject = follow(kube, objectQuery, stop.signal, (items) => {
    if (!items[0]) return end(new Error(`${kind.resource} "${name}" not found in namespace "${namespace}"`));
    object = items[0];
    changed();
  }, (e) => {
    if (e.type === 'DELETED') return end(new Error(`${kind.resource} "${name}" was deleted while watching its rollout`));
    object = e.object;
    changed();
  });
  const podQuery = { apiVersion: 'v1', kind: 'Pod', namespace, labelSelector: kind.podLabel };
  const followPods = follow(kube, podQuery, stop.signal, (items) => {
    pods = new Map(items.map((p) => [p.metadata?.name ?? '', p as unknown as Pod]));
    changed();
  }, (e) => {
    const podName = e.object.metadata?.name ?? '';
    if (e.type === 'DELETED') pods?.delete(podName);
    else pods?.set(podName, e.object as unknown as Pod);
    changed();
  });

  await Promise.all([followObject, followPods].map((p) => p.catch((e: unknown) => end(e instanceof Error ? e : new Error(String(e))))));
  if (timer) clearTimeout(timer);
  if (failure) throw failure;
  return outcome ?? 'stopped';
}

/** LIST then WATCH until `signal` aborts; a watch the server ends or expires (410) starts over with a LIST. */
async function follow(kube: KubeHttp, q: Query, signal: AbortSignal, reset: (items: KubeObject[]) => void, apply: (e: Event) => void): Promise<void> {
  while (!signal.aborted) {
    const { items, resourceVersion } = await kube.list(q.apiVersion, q.kind, q);
    if (signal.aborted) return;
    reset(items);
    // `reset` may itself end the follow (the rollout was already done): an abort listener added
    // after that would never fire, and the watch would run to its server-side timeout.
    if (signal.aborted) return;
    const watchStop = new AbortController();
    const abort = () => watchStop.abort();
    signal.addEventListener('abort', abort, { once: true });
    try {
      await kube.watch(q.apiVersion, q.kind, { ...q, resourceVersion, timeoutSeconds: WATCH_SECONDS, signal: watchStop.signal }, (e) => {
        if (watchStop.signal.aborted) return;
        if (e.type === 'ERROR') return watchStop.abort();
        if (e.type !== 'BOOKMARK') apply({ type: e.type, object: e.object });
      });
    } catch (e) {
      if (!(e instanceof KubeApiError) || e.status !== 410) throw e;
    } finally {
      signal.removeEventListener('abort', abort);
    }
  }
}
