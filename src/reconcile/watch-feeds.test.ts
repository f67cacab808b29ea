import { describe, expect, it } from 'vitest';
import type { KubeHttp, KubeObject, WatchEvent } from '../kube/http.js';
import { runLoop } from './loop.js';
import { followFeed, watchFeeds } from './watch-feeds.js';
import { emptyPlan, type Reconciler, type RunReport, type Scope } from './types.js';

const reconciler = (kind: string, triggers: Reconciler['triggers'] = []): Reconciler => ({ kind, apiVersion: 'apps.kruise.io/v1alpha1', observe: async () => ({}), decide: () => emptyPlan(), triggers });
const pods = { apiVersion: 'v1', kind: 'Pod' };
const byAnnotation = (o: KubeObject) => [{ namespace: o.metadata?.namespace, name: String((o.metadata?.annotations as Record<string, string> | undefined)?.owner ?? '') }];

const cloneSet = reconciler('CloneSet', [{ ...pods, objectsOf: byAnnotation }]);
const pub = reconciler('PodUnavailableBudget', [{ ...pods, objectsOf: byAnnotation }, { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' }]);
const distribution = reconciler('ResourceDistribution', [{ apiVersion: 'v1', kind: 'Namespace' }, { apiVersion: 'v1', kind: 'Namespace' }]);

describe('watchFeeds', () => {
  it('one feed per (apiVersion, kind), with a handler per reconciler and trigger that needs it', () => {
    const calls: string[] = [];
    const feeds = watchFeeds([cloneSet, pub, distribution], (r, target) => calls.push(`${r.kind}:${target ? target.name : '*'}`));
    expect(feeds.map((f) => `${f.apiVersion}/${f.kind}:${f.handlers.length}`)).toEqual([
      'apps.kruise.io/v1alpha1/CloneSet:2', 'v1/Pod:2', 'apps.kruise.io/v1alpha1/PodUnavailableBudget:1',
      'apps.kruise.io/v1alpha1/ResourceDistribution:1', 'v1/Namespace:2',
    ]);
    const pod = { metadata: { name: 'p', namespace: 'ns', annotations: { owner: 'web' } } };
    feeds.find((f) => f.kind === 'Pod')!.handlers.forEach((h) => h(pod));
    feeds.find((f) => f.kind === 'CloneSet')!.handlers.forEach((h) => h({ metadata: { name: 'web', namespace: 'ns' } }));
    expect(calls).toEqual(['CloneSet:web', 'PodUnavailableBudget:web', 'CloneSet:web', 'PodUnavailableBudget:*']);
  });
});

/** A KubeHttp double for watches: each watch gets the next scripted list of events, then ends. */
function scriptedWatches(scripts: WatchEvent[][], stop: AbortController) {
  const watched: { kind: string; resourceVersion: string }[] = [];
  const kube = {
    collectionVersion: async () => '100',
    watch: async (_v: string, kind: string, o: { resourceVersion: string }, onEvent: (e: WatchEvent) => void) => {
      watched.push({ kind, resourceVersion: o.resourceVersion });
      const script = scripts.shift();
      if (!script) return void stop.abort();
      script.forEach(onEvent);
    },
  } as unknown as KubeHttp;
  return { kube, watched };
}

describe('followFeed', () => {
  it('resumes from the last version seen (bookmarks too), and from the current one after an error event', async () => {
    const stop = new AbortController();
    const { kube, watched } = scriptedWatches([
      [{ type: 'ADDED', object: { metadata: { name: 'a', resourceVersion: '101' } } }, { type: 'BOOKMARK', object: { metadata: { resourceVersion: '105' } } }],
      [{ type: 'ERROR', object: { kind: 'Status', code: 410 } as KubeObject }],
      [],
    ], stop);
    const seen: string[] = [];
    await followFeed(kube, { ...pods, handlers: [(o) => seen.push(`1:${o.metadata?.name}`), (o) => seen.push(`2:${o.metadata?.name}`)] }, { signal: stop.signal, log: () => undefined, sleep: async () => undefined });
    expect(watched.map((w) => w.resourceVersion)).toEqual(['100', '105', '100', '100']);
    expect(seen).toEqual(['1:a', '2:a']);
  });
});

describe('runLoop watches', () => {
  it('opens one watch per kind however many reconcilers need it, and a change runs each of them', async () => {
    const stop = new AbortController();
    const opened: string[] = [];
    const runs: string[] = [];
    let podWatches = 0;
    const kube = {
      collectionVersion: async () => '1',
      watch: async (_v: string, kind: string, o: { signal: AbortSignal }, onEvent: (e: WatchEvent) => void) => {
        opened.push(kind);
        if (kind === 'Pod' && podWatches++ === 0) onEvent({ type: 'MODIFIED', object: { metadata: { name: 'p', namespace: 'ns', annotations: { owner: 'web' } } } });
        await new Promise<void>((resolve) => o.signal.addEventListener('abort', () => resolve()));
      },
    } as unknown as KubeHttp;
    const report = (r: Reconciler): RunReport => ({ reconciler: r.kind, acted: true, dryRun: false, plan: emptyPlan(), applied: 0, conflicts: 0, failed: [], apiCalls: 0, durationMs: 0 });
    const run = async (r: Reconciler, scope: Scope) => {
      if (scope.kind === 'objects') runs.push(`${r.kind}:${scope.objects.map((o) => o.name).join()}`);
      return report(r);
    };
    const loop = runLoop({ kube, reconcilers: [cloneSet, pub, distribution], run, resyncEveryMs: 3_600_000, watch: true, signal: stop.signal });
    await expect.poll(() => runs.length).toBe(2);
    stop.abort();
    await loop;
    expect(opened.sort()).toEqual(['CloneSet', 'Namespace', 'Pod', 'PodUnavailableBudget', 'ResourceDistribution']);
    expect(runs.sort()).toEqual(['CloneSet:web', 'PodUnavailableBudget:web']);
  });
});
