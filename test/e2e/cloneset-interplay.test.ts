// CloneSet with the other features end to end on a real API server (issue 14): the production
// Worker (Miniflare over HTTPS) serves the pod webhooks of WorkloadSpread, SidecarSet, PUB and
// CloneSet; the production reconcilers (src/reconcilers.ts, as the CLI builds them: the CloneSet
// controller asks PUBs through pubDisruptionBudgets) run on the Node loop, watch-driven, with the
// edge's ledgers; pods run on the fake kubelet. Users act as users do: configuration is created
// and acted on at once, with no push or sleep in between, and every wait is a poll with a deadline.
// Each rollout is sampled while it runs, so a transient state that breaks a rule fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../../src/registry.js';
import { cloneSetFeature } from '../../src/cloneset/index.js';
import { pubFeature } from '../../src/pub/index.js';
import { sidecarSetFeature } from '../../src/sidecarset/index.js';
import { workloadSpreadFeature } from '../../src/workloadspread/index.js';
import { reconcilers } from '../../src/reconcilers.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import { remoteLedgers } from '../../src/edge-state/ledger-client.js';
import type { KubeObject } from '../../src/kube/http.js';
import { isReady, startEdgeEnv, type EdgeEnv, type Pod } from './support/edge-env.js';
import { eventually } from './support/kube.js';

const CS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet' } as const;
const SS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'SidecarSet' } as const;
const WS = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'WorkloadSpread' } as const;
const ZONE = 'topology.kubernetes.io/zone';
const MATCHED = 'apps.kruise.io/matched-workloadspread';
const COST = 'controller.kubernetes.io/pod-deletion-cost';
const STATE = 'lifecycle.apps.kruise.io/state';
const ZONE_NODES = ['zone-a', 'zone-b'].map((zone) => ({ name: `csi-${zone}`, labels: { [ZONE]: zone } }));

let env: EdgeEnv;
beforeAll(async () => {
  // The production handler order on pod CREATE: WorkloadSpread, SidecarSet, PUB.
  const features = FEATURES.filter((f) => [workloadSpreadFeature, sidecarSetFeature, pubFeature, cloneSetFeature].some((wanted) => wanted.name === f.name));
  env = await startEdgeEnv('csi', features);
  await env.kubelet.addNodes(ZONE_NODES);
  // The install's first push, as `npm start` and `install` make before the webhooks go live: an edge
  // that has never heard from the cluster refuses to decide (without it every test here times out).
  // Nothing of this file is configured yet; after this no test pushes.
  await env.resync();
});
afterAll(async () => {
  await env?.kubelet.removeNodes(ZONE_NODES.map((n) => n.name)).catch(() => undefined);
  await env?.dispose();
});

type CloneSetStatus = { replicas?: number; readyReplicas?: number; updatedReplicas?: number; updatedReadyReplicas?: number; updateRevision?: string; currentRevision?: string; observedGeneration?: number };
type CloneSetObj = KubeObject & { metadata: { name: string; generation?: number }; status?: CloneSetStatus };

const live = (pods: Pod[]) => pods.filter((p) => !p.metadata.deletionTimestamp);
const podsOf = async (app: string) => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${app}` })).items;
const uid = (p: Pod) => p.metadata.uid ?? '';
const container = (p: Pod, name: string) => p.spec?.containers.find((c) => c.name === name);
const running = (p: Pod, name: string) => p.status?.containerStatuses?.find((c) => c.name === name);
const getCloneSet = (name: string) => env.kube.get<CloneSetObj>(CS.apiVersion, CS.kind, name, env.ns);
/** Unavailable as a PUB counts it: not Ready, or a container not (yet) running the image its spec names. */
const unavailable = (p: Pod) => !isReady(p) || (p.spec?.containers ?? []).some((c) => running(p, c.name)?.image !== c.image);

function cloneSet(name: string, replicas: number, spec: Record<string, unknown> = {}): KubeObject {
  const labels = { app: name };
  return {
    ...CS, metadata: { name, namespace: env.ns },
    spec: {
      replicas, selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { automountServiceAccountToken: false, terminationGracePeriodSeconds: 0, containers: [{ name: 'main', image: 'app:1' }] } },
      ...spec,
    },
  };
}
const mainImage = (image: string) => ({ spec: { template: { spec: { containers: [{ name: 'main', image }] } } } });

/**
 * The production reconcilers of `kinds` on the Node loop (watch-driven, no timed resync), with
 * the edge's ledgers, while `body` runs. Only the kinds a test needs: the others would act on
 * what earlier test files left in the shared control plane.
 */
async function withControllers<T>(kinds: readonly string[], body: () => Promise<T>): Promise<T> {
  const stop = new AbortController();
  const ledgers = remoteLedgers(env.edge);
  const loop = runLoop({
    kube: env.kube, reconcilers: reconcilers().filter((r) => kinds.includes(r.kind)), watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `csi-${r.kind}`, ledgers }),
  });
  try {
    return await body();
  } finally {
    stop.abort();
    await loop;
  }
}

/** One line per pod: its revision, lifecycle state, node, containers (spec/running image) and conditions. */
const describePod = (p: Pod) =>
  `${p.metadata.name} ${p.metadata.labels?.['controller-revision-hash'] ?? ''} ${p.metadata.labels?.[STATE] ?? ''} ${p.metadata.deletionTimestamp ? 'terminating' : ''} ${p.spec?.nodeName ?? 'unscheduled'} ${(p.spec?.containers ?? []).map((c) => `${c.name}=${c.image}/${running(p, c.name)?.image ?? '-'}`).join(',')} ${(p.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(',')} cost=${p.metadata.annotations?.[COST] ?? ''}`;

/**
 * Samples an app's pods until stopped: every pod uid seen, and the most live pods at once passing
 * `count`, with that sample (and when it was taken) for the failure message.
 */
function sampler(app: string, count: (p: Pod) => boolean) {
  const started = Date.now();
  const seen = { most: 0, uids: new Set<string>(), samples: 0, worst: '' };
  let on = true;
  const done = (async () => {
    while (on) {
      const pods = live(await podsOf(app));
      for (const p of pods) seen.uids.add(uid(p));
      const counted = pods.filter(count);
      if (counted.length > seen.most) seen.worst = `at +${Date.now() - started} ms:\n${counted.map(describePod).join('\n')}`;
      seen.most = Math.max(seen.most, counted.length);
      seen.samples++;
    }
  })();
  return { stop: async () => { on = false; await done; return seen; } };
}

/** eventually, with the app's pods (what the controllers left them in) in the error on timeout. */
async function eventuallyPods<T>(app: string, what: string, probe: (pods: Pod[]) => T | undefined, timeoutMs = 60_000): Promise<T> {
  try {
    return await eventually(what, async () => probe(await podsOf(app)), timeoutMs, 50);
  } catch (e) {
    throw new Error(`${(e as Error).message}\n${(await podsOf(app)).map(describePod).join('\n')}`);
  }
}

/**
 * Exactly `n` pods, none terminating, all Ready, running their spec and in lifecycle state Normal
 * (until then a CloneSet counts a Ready pod unavailable, and scale-in takes it first), passing `check`.
 */
const settled = (app: string, n: number, check: (pods: Pod[]) => boolean = () => true) =>
  eventuallyPods(app, `${app}: ${n} ready pods`, (pods) =>
    (pods.length === n && pods.every((p) => !p.metadata.deletionTimestamp && !unavailable(p) && p.metadata.labels?.[STATE] === 'Normal') && check(pods) ? pods : undefined));

/** The CloneSet's status once it shows `n` replicas all updated and ready at one revision. */
const rolledOut = (name: string, n: number) =>
  eventually(`${name}: status shows ${n} updated and ready`, async () => {
    const cs = await getCloneSet(name);
    const st = cs.status;
    return st?.observedGeneration === cs.metadata.generation && st?.replicas === n && st.updatedReadyReplicas === n && st.currentRevision === st.updateRevision ? st : undefined;
  }, 20_000, 50);

describe('a PodUnavailableBudget and a CloneSet’s in-place updates', () => {
  it('maxUnavailable 3 of 4 pods, the PUB allows 1: the image rolls in place one pod at a time, and the rollout completes', async () => {
    const APP = 'guarded';
    await withControllers(['PodUnavailableBudget', 'CloneSet'], async () => {
      await env.createPub(APP, { selector: { matchLabels: { app: APP } }, maxUnavailable: 1 });
      const cs = await env.kube.create(cloneSet(APP, 4, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 3 } }));
      const before = await settled(APP, 4);
      expect(before.map((p) => p.metadata.annotations?.['kruise.io/related-pub'])).toEqual([APP, APP, APP, APP]);

      // A restarted container is not ready for a while (a readiness probe's delay), so an update
      // in flight is visible to the sampler.
      env.kubelet.setRestartReadyDelay(1_000);
      try {
        const s = sampler(APP, unavailable);
        await env.kube.patch(cs, mainImage('app:2'));
        const after = await settled(APP, 4, (pods) => pods.every((p) => container(p, 'main')?.image === 'app:2'));
        const seen = await s.stop();
        // maxUnavailable 3 would take three at once; the budget allows one, and one was taken. The
        // controller's own check is what holds it: an in-place update makes the pod unready (a
        // status write) before its image changes, and the webhook lets an unready pod change.
        expect(seen.most, seen.worst).toBe(1);
        // In place: the same four pods throughout.
        expect(seen.uids).toEqual(new Set(before.map(uid)));
        expect(new Set(after.map(uid))).toEqual(new Set(before.map(uid)));
        expect(after.every((p) => running(p, 'main')?.restartCount === 1)).toBe(true);
      } finally {
        env.kubelet.setRestartReadyDelay(0);
      }
      await rolledOut(APP, 4);
      await eventually('the PUB’s status back to 4 available', async () => {
        const st = await env.pubStatus(APP);
        return st?.currentAvailable === 4 && st.unavailableAllowed === 1 ? st : undefined;
      }, 20_000, 50);
    });
  });
});

describe('a WorkloadSpread over a CloneSet', () => {
  it('pods placed per subset with WorkloadSpread’s deletion costs; scale-in deletes the extra subset’s pods first, though they are older', async () => {
    const APP = 'spread';
    const subsetOf = (p: Pod) => (JSON.parse(p.metadata.annotations?.[MATCHED] ?? '{}') as { subset?: string }).subset ?? '';
    const zoneOf = (p: Pod) => ZONE_NODES.find((n) => n.name === p.spec?.nodeName)?.labels[ZONE] ?? '';
    /** Subset → pods, checking each pod runs in its subset's zone. */
    const split = (pods: Pod[]) => {
      for (const p of pods) expect(zoneOf(p), p.metadata.name).toBe(subsetOf(p));
      return pods.reduce<Record<string, number>>((t, p) => ({ ...t, [subsetOf(p)]: (t[subsetOf(p)] ?? 0) + 1 }), {});
    };
    // §3.5: two subsets, within maxReplicas: 100·(n−i).
    const WANT_COST: Record<string, string> = { 'zone-a': '200', 'zone-b': '100' };
    const costed = (pods: Pod[]) => pods.every((p) => p.metadata.annotations?.[COST] === WANT_COST[subsetOf(p)]);
    const zoneTerm = (zone: string) => ({ matchExpressions: [{ key: ZONE, operator: 'In', values: [zone] }] });

    await withControllers(['WorkloadSpread', 'CloneSet'], async () => {
      await env.kube.create({
        ...WS, metadata: { name: APP, namespace: env.ns },
        spec: { targetRef: { apiVersion: CS.apiVersion, kind: CS.kind, name: APP }, subsets: [
          { name: 'zone-a', requiredNodeSelectorTerm: zoneTerm('zone-a'), maxReplicas: 2 },
          { name: 'zone-b', requiredNodeSelectorTerm: zoneTerm('zone-b') },
        ] },
      });
      const cs = await env.kube.create(cloneSet(APP, 4));
      const first = await settled(APP, 4, costed);
      expect(split(first)).toEqual({ 'zone-a': 2, 'zone-b': 2 });

      // A zone-a pod goes (an eviction, a node drained): its room comes back, and the CloneSet's
      // replacement takes it. It is now the newest pod, and the most recently ready.
      const victim = first.find((p) => subsetOf(p) === 'zone-a')!;
      await env.kube.delete(victim);
      const replaced = await settled(APP, 4, (pods) => !pods.some((p) => uid(p) === uid(victim)) && costed(pods));
      expect(split(replaced)).toEqual({ 'zone-a': 2, 'zone-b': 2 });
      const newcomer = replaced.find((p) => !first.some((q) => uid(q) === uid(p)))!;
      expect(subsetOf(newcomer)).toBe('zone-a');

      // Scale-in by 2: by age the newcomer would go; the costs send both zone-b pods.
      await env.kube.patch(cs, { spec: { replicas: 2 } });
      const kept = await settled(APP, 2);
      expect(split(kept), `before:\n${replaced.map(describePod).join('\n')}`).toEqual({ 'zone-a': 2 });
      expect(kept.map(uid)).toContain(uid(newcomer));

      // Out again: zone-a is full, so the new pod goes to zone-b.
      await env.kube.patch(cs, { spec: { replicas: 3 } });
      expect(split(await settled(APP, 3, costed))).toEqual({ 'zone-a': 2, 'zone-b': 1 });
    });
  });
});

describe('a SidecarSet’s sidecar in a CloneSet’s pods', () => {
  const APP = 'meshed';
  type SidecarSetObj = KubeObject & { metadata: { name: string; generation?: number; annotations?: Record<string, string> }; status?: { matchedPods?: number; updatedPods?: number; readyPods?: number; observedGeneration?: number } };
  const getSet = () => env.kube.get<SidecarSetObj>(SS.apiVersion, SS.kind, APP);
  /** The pod's kruise.io/sidecarset-hash entry and injected list agree with the SidecarSet as it is now. */
  const consistentWith = (set: SidecarSetObj, p: Pod) => {
    const hashes = JSON.parse(p.metadata.annotations?.['kruise.io/sidecarset-hash'] ?? '{}') as Record<string, { hash?: string; sidecarList?: string[] }>;
    return hashes[APP]?.hash === set.metadata.annotations?.['kruise.io/sidecarset-hash'] && (hashes[APP]?.sidecarList ?? []).join() === 'proxy'
      && (p.metadata.annotations?.['kruise.io/sidecarset-injected-list'] ?? '').split(',').includes(APP);
  };
  /** The SidecarSet's status for its current generation: `n` pods, all updated and ready. */
  const setSettled = (n: number) => eventually(`the SidecarSet's status: ${n} pods updated and ready`, async () => {
    const set = await getSet();
    const st = set.status;
    return st?.observedGeneration === set.metadata.generation && st?.matchedPods === n && st.updatedPods === n && st.readyPods === n ? set : undefined;
  }, 20_000, 50);

  afterAll(async () => {
    await env.kube.delete({ ...SS, metadata: { name: APP } }).catch(() => undefined);
  });

  it('a CloneSet in-place update of the main container keeps the sidecar, its image and the SidecarSet’s annotations; a sidecar update does not recreate the CloneSet’s pods', async () => {
    await withControllers(['SidecarSet', 'CloneSet'], async () => {
      await env.kube.create({ ...SS, metadata: { name: APP }, spec: {
        selector: { matchLabels: { app: APP } }, namespace: env.ns, updateStrategy: { type: 'RollingUpdate', maxUnavailable: 1 },
        containers: [{ name: 'proxy', image: 'proxy:1' }],
      } });
      const cs = await env.kube.create(cloneSet(APP, 3, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 1 } }));
      const before = await settled(APP, 3);
      const set = await getSet();
      for (const p of before) {
        expect(p.spec?.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['proxy=proxy:1', 'main=app:1']);
        expect(consistentWith(set, p), p.metadata.name).toBe(true);
      }

      // The CloneSet's own change: main's image, in place.
      let s = sampler(APP, () => true);
      await env.kube.patch(cs, mainImage('app:2'));
      const updated = await settled(APP, 3, (pods) => pods.every((p) => container(p, 'main')?.image === 'app:2'));
      expect((await s.stop()).uids).toEqual(new Set(before.map(uid)));
      await rolledOut(APP, 3);
      for (const p of updated) {
        expect(p.spec?.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['proxy=proxy:1', 'main=app:2']);
        expect(container(p, 'proxy')?.env).toContainEqual({ name: 'IS_INJECTED', value: 'true' });
        expect(running(p, 'proxy')?.restartCount, p.metadata.name).toBe(0);
        expect(running(p, 'main')?.restartCount, p.metadata.name).toBe(1);
        expect(consistentWith(set, p), p.metadata.name).toBe(true);
      }

      // The SidecarSet's change: proxy's image, in place by its controller; the CloneSet leaves the pods be.
      s = sampler(APP, () => true);
      const csBefore = await getCloneSet(APP);
      await env.kube.patch({ ...SS, metadata: { name: APP } }, { spec: { containers: [{ name: 'proxy', image: 'proxy:2' }] } });
      const rolled = await settled(APP, 3, (pods) => pods.every((p) => container(p, 'proxy')?.image === 'proxy:2'));
      // Counted from the pods as the CloneSet left them: every one updated, to the new revision.
      const set2 = await setSettled(3);
      expect((await s.stop()).uids).toEqual(new Set(before.map(uid)));
      for (const p of rolled) {
        expect(p.spec?.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['proxy=proxy:2', 'main=app:2']);
        expect(p.metadata.labels?.['controller-revision-hash']).toBe(csBefore.status?.updateRevision);
        expect(running(p, 'main')?.restartCount, p.metadata.name).toBe(1);
        expect(consistentWith(set2, p), p.metadata.name).toBe(true);
      }
      const after = await rolledOut(APP, 3);
      expect(after.updateRevision).toBe(csBefore.status?.updateRevision);
    });
  });
});
