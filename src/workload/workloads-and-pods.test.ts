import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../kube/http.js';
import type { KubeReader, Scope } from '../reconcile/types.js';
import { scopeNamespace, workloadsAndPods } from './workloads-and-pods.js';
import type { PodListQuery } from './pod-list-query.js';

type Workload = { selector: string };

/** A reader whose LISTs answer only when released, recording what was asked in which order. */
function gatedReader(pods: (q: PodListQuery) => KubeObject[]) {
  const asked: string[] = [];
  const gates: (() => void)[] = [];
  const kube: KubeReader = {
    list: async <T extends KubeObject>(_apiVersion: string, kind: string, opts: PodListQuery = {}) => {
      asked.push(kind === 'Pod' ? `Pod ${opts.labelSelector ?? ''}` : kind);
      await new Promise<void>((r) => gates.push(r));
      return { items: (kind === 'Pod' ? pods(opts) : []) as T[], resourceVersion: '1' };
    },
    get: () => Promise.reject(new Error('not used')),
  };
  const releaseAll = () => gates.splice(0).forEach((g) => g());
  return { kube, asked, releaseAll };
}

async function runWith(kube: KubeReader, releaseAll: () => void, scope: Scope, selector: string | undefined, kind = 'Thing') {
  const run = workloadsAndPods<Workload>(
    kube, scope, kind,
    async () => {
      await kube.list('x/v1', kind);
      return selector === undefined ? [] : [{ selector }];
    },
    (found) => ({ namespace: 'ns', labelSelector: found[0]!.selector }),
  );
  // Release every LIST as it is asked until the run ends.
  let done = false;
  void run.finally(() => (done = true));
  while (!done) {
    releaseAll();
    await new Promise((r) => setTimeout(r, 0));
  }
  return run;
}

const podsFor = (q: PodListQuery) => [{ metadata: { name: `pod-of-${q.labelSelector}` } }];

describe('workloadsAndPods', () => {
  const scope: Scope = { kind: 'objects', objects: [{ namespace: 'ns', name: 'web' }] };

  it('reads the pods after the workload the first time, together with it the next time', async () => {
    const { kube, asked, releaseAll } = gatedReader(podsFor);
    const first = await runWith(kube, releaseAll, scope, 'app=web-1');
    expect(asked).toEqual(['Thing', 'Pod app=web-1']);
    expect(first.pods.map((p) => p.metadata?.name)).toEqual(['pod-of-app=web-1']);
    asked.length = 0;
    const second = await runWith(kube, releaseAll, scope, 'app=web-1');
    expect(asked).toEqual(['Pod app=web-1', 'Thing']);
    expect(second.pods.map((p) => p.metadata?.name)).toEqual(['pod-of-app=web-1']);
  });

  it('LISTs again when the workload now selects other pods, and uses only that answer', async () => {
    const { kube, asked, releaseAll } = gatedReader(podsFor);
    const s: Scope = { kind: 'objects', objects: [{ namespace: 'ns', name: 'changing' }] };
    await runWith(kube, releaseAll, s, 'app=old');
    asked.length = 0;
    const changed = await runWith(kube, releaseAll, s, 'app=new');
    expect(asked).toEqual(['Pod app=old', 'Thing', 'Pod app=new']);
    expect(changed.pods.map((p) => p.metadata?.name)).toEqual(['pod-of-app=new']);
  });

  it('forgets a workload that is gone, and never guesses for a full resync or across kinds', async () => {
    const { kube, asked, releaseAll } = gatedReader(podsFor);
    const s: Scope = { kind: 'objects', objects: [{ namespace: 'ns', name: 'gone' }] };
    await runWith(kube, releaseAll, s, 'app=gone');
    expect((await runWith(kube, releaseAll, s, undefined)).pods).toEqual([]);
    asked.length = 0;
    await runWith(kube, releaseAll, s, 'app=gone');
    expect(asked).toEqual(['Thing', 'Pod app=gone']);
    asked.length = 0;
    await runWith(kube, releaseAll, s, 'app=gone', 'OtherKind');
    expect(asked).toEqual(['OtherKind', 'Pod app=gone']);
    asked.length = 0;
    await runWith(kube, releaseAll, { kind: 'all' }, 'app=all');
    await runWith(kube, releaseAll, { kind: 'all' }, 'app=all');
    expect(asked).toEqual(['Thing', 'Pod app=all', 'Thing', 'Pod app=all']);
  });
});

describe('scopeNamespace', () => {
  it('is the one namespace a scope names, else none', () => {
    expect(scopeNamespace({ kind: 'objects', objects: [{ namespace: 'a', name: 'x' }, { namespace: 'a', name: 'y' }] })).toBe('a');
    expect(scopeNamespace({ kind: 'objects', objects: [{ namespace: 'a', name: 'x' }, { namespace: 'b', name: 'y' }] })).toBeUndefined();
    expect(scopeNamespace({ kind: 'objects', objects: [{ name: 'cluster-scoped' }] })).toBeUndefined();
    expect(scopeNamespace({ kind: 'all' })).toBeUndefined();
  });
});
