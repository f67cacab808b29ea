// The loop's watches: one per watched (apiVersion, kind), whatever number of reconcilers and
// triggers need it, each change handed to all of them. Many reconcilers watch Pods (as a trigger)
// and several kinds both reconcile and trigger; one watch each keeps the connections to the API
// server as few as the kinds.
import type { KubeHttp, KubeObject } from '../kube/http.js';
import type { Reconciler } from './types.js';

export type OnChange = (changed: KubeObject) => void;

/** One watch and every handler of its changes. */
export type WatchFeed = { apiVersion: string; kind: string; handlers: OnChange[] };

/** What a change asks of the loop: run `r` for `target`, or for all its objects without one. */
export type TriggerFn = (r: Reconciler, target?: { namespace?: string; name?: string }, changed?: KubeObject) => void;

/** The feeds of a set of reconcilers: their own kinds (run that object) and their triggers. */
export function watchFeeds(reconcilers: readonly Reconciler[], trigger: TriggerFn): WatchFeed[] {
  const feeds = new Map<string, WatchFeed>();
  const add = (apiVersion: string, kind: string, handler: OnChange) => {
    const key = `${apiVersion}|${kind}`;
    let feed = feeds.get(key);
    if (!feed) feeds.set(key, (feed = { apiVersion, kind, handlers: [] }));
    feed.handlers.push(handler);
  };
  for (const r of reconcilers) {
    add(r.apiVersion, r.kind, (o) => trigger(r, o.metadata ?? {}, o));
    for (const t of r.triggers ?? []) {
      const objectsOf = t.objectsOf;
      add(t.apiVersion, t.kind, objectsOf ? (o) => objectsOf(o).forEach((m) => trigger(r, m, o)) : () => trigger(r));
    }
  }
  return [...feeds.values()];
}

/** The server's watch timeout: a watch is re-opened (from where it was) at least this often. */
export const WATCH_SECONDS = 60;
/**
 * No byte for this long ends a watch early, and it is re-opened from the last version seen: a
 * connection that died silently is noticed in this time. A quiet kind on an API server that sends
 * bookmarks only near the timeout (1.20) is re-opened this often: one request, no LIST.
 */
export const WATCH_IDLE_SECONDS = 30;
/** The least time between two watches of a kind when one fails or ends at once. */
export const WATCH_RETRY_MS = 1000;

type FollowOptions = { signal: AbortSignal; log: (m: string) => void; sleep?: (ms: number) => Promise<void> };

/**
 * Watches a feed's kind until `signal` aborts, handing every change to each handler. Each watch
 * resumes from the last version seen (bookmarks included); after an error event (410 Gone: that
 * version is too old) or a failed watch it starts again from the collection's current version.
 */
export async function followFeed(kube: KubeHttp, feed: WatchFeed, opts: FollowOptions): Promise<void> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let resourceVersion: string | undefined;
  while (!opts.signal.aborted) {
    const started = Date.now();
    try {
      resourceVersion ??= await kube.collectionVersion(feed.apiVersion, feed.kind);
      await kube.watch(feed.apiVersion, feed.kind, { resourceVersion, timeoutSeconds: WATCH_SECONDS, idleSeconds: WATCH_IDLE_SECONDS, signal: opts.signal }, (e) => {
        if (e.type === 'ERROR') return void (resourceVersion = undefined);
        resourceVersion = e.object.metadata?.resourceVersion ?? resourceVersion;
        if (e.type === 'BOOKMARK') return;
        for (const h of feed.handlers) h(e.object);
      });
    } catch (e) {
      if (opts.signal.aborted) return;
      resourceVersion = undefined;
      opts.log(`watch ${feed.kind}: ${String(e)}; retrying`);
    }
    const elapsed = Date.now() - started;
    if (elapsed < WATCH_RETRY_MS && !opts.signal.aborted) await sleep(WATCH_RETRY_MS - elapsed);
  }
}
