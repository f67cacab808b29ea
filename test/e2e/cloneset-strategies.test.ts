// CloneSet strategies end to end on a real API server, driven by the Node loop (watches) and the
// fake kubelet, as the seeds describe them: seed 001's maxSurge + maxUnavailable + partition
// walk-through, seed 003's three specified-delete cases and partition rollback, lifecycle hooks,
// PVCs from volumeClaimTemplates (and their revision hash, RecreatePodWhenChangeVCTInCloneSetGate),
// the scale-down order and the scale subresource. Each test
// samples the pods while the controller works, so a transient state that breaks a rule fails it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cloneSetFeature } from '../../src/cloneset/index.js';
import { cloneSetReconcilerFor } from '../../src/cloneset/controller/reconciler.js';
import { FEATURE_GATE_DEFAULTS, type FeatureGates } from '../../src/reconcile/feature-gates.js';
import { runLoop } from '../../src/reconcile/loop.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { KubeObject } from '../../src/kube/http.js';
import { REPO_ROOT } from '../cluster/control-plane.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { expectSeed001AtPartition3 } from './support/seed001.js';
import { eventually } from './support/kube.js';
import { deleteProvisionedVolumes, startProvisioner } from './support/provisioner.js';

let env: EdgeEnv;
beforeAll(async () => {
  env = await startEdgeEnv('css', [cloneSetFeature]);
});
afterAll(async () => {
  if (env) await deleteProvisionedVolumes(env.kube);
  await env?.dispose();
});

type Pod = KubeObject & {
  metadata: { name: string; uid: string; labels: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[]; deletionTimestamp?: string };
  spec: { containers: { image: string }[]; volumes?: { name: string; persistentVolumeClaim?: { claimName: string } }[] };
  status?: { conditions?: { type: string; status: string }[] };
};
type CloneSetObj = KubeObject & { status?: { replicas?: number; readyReplicas?: number; updatedReplicas?: number; updatedReadyReplicas?: number; updateRevision?: string; currentRevision?: string } };

const seed = (file: string, name: string): KubeObject => {
  const obj = parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'seeds', file), 'utf8')) as KubeObject;
  return { ...obj, metadata: { ...obj.metadata, name, namespace: env.ns } };
};
/** Seed 001's basic CloneSet named `name`: `replicas` pods of app:1 labelled app=<name>, `spec` and `podSpec` merged in. */
function createBasic(name: string, replicas: number, spec: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}): Promise<KubeObject> {
  const base = seed('001-cloneset-basic.yaml', name) as KubeObject & { spec: Record<string, unknown> };
  const labels = { app: name };
  return env.kube.create({ ...base, spec: { ...base.spec, replicas, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { ...podSpec, containers: [{ name: 'main', image: 'app:1' }] } }, ...spec } });
}
const ready = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const podsOf = async (name: string): Promise<Pod[]> =>
  ((await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: 'apps.kruise.io/cloneset-instance-id' })).items).filter((p) => p.metadata.name.startsWith(`${name}-`) && /^[a-z0-9]{5}$/.test(p.metadata.name.slice(name.length + 1)));
const live = (pods: Pod[]) => pods.filter((p) => !p.metadata.deletionTimestamp);
const cloneSet = (name: string) => env.kube.get<CloneSetObj>('apps.kruise.io/v1alpha1', 'CloneSet', name, env.ns);
const VCT_HASH = 'kruise.io/cloneset-volumeclaimtemplate-hash';
type Revision = KubeObject & { metadata: { name: string; resourceVersion: string; annotations?: Record<string, string> } };
/** The CloneSet's update revision, once its status names it. */
const revisionOf = async (name: string): Promise<Revision> => {
  const rev = await eventually(`${name}: updateRevision`, async () => (await cloneSet(name)).status?.updateRevision, 20_000, 50);
  return env.kube.get<Revision>('apps/v1', 'ControllerRevision', rev, env.ns);
};

/** Runs the CloneSet controller through the Node loop (watch-driven) while `body` runs. */
async function withController<T>(body: () => Promise<T>, gates: Partial<FeatureGates> = {}): Promise<T> {
  const stop = new AbortController();
  const reconciler = cloneSetReconcilerFor({ gates: { ...FEATURE_GATE_DEFAULTS, ...gates } });
  const loop = runLoop({
    kube: env.kube, reconcilers: [reconciler], watch: true, resyncEveryMs: 3_600_000, signal: stop.signal,
    run: (r, scope) => runReconciler(env.kube, r, { scope, identity: `css-${scope.kind}` }),
  });
  try {
    return await body();
  } finally {
    stop.abort();
    await loop;
  }
}

/** Samples the CloneSet's pods every few ms until stopped: the most pods alive and the fewest ready. */
function sampler(name: string) {
  const seen = { maxLive: 0, minReady: Infinity, samples: 0 };
  let on = true;
  const done = (async () => {
    while (on) {
      const pods = live(await podsOf(name));
      seen.maxLive = Math.max(seen.maxLive, pods.length);
      seen.minReady = Math.min(seen.minReady, pods.filter(ready).length);
      seen.samples++;
    }
  })();
  return { seen, stop: async () => { on = false; await done; return seen; } };
}

/** eventually, and on timeout the pods' state (what the controller left them in) in the error. */
async function eventuallyOrDump<T>(name: string, what: string, probe: () => Promise<T | undefined>, timeoutMs: number, everyMs: number): Promise<T> {
  try {
    return await eventually(what, probe, timeoutMs, everyMs);
  } catch (e) {
    const pods = await podsOf(name);
    const line = (p: Pod) => `${p.metadata.name} ${p.metadata.labels['controller-revision-hash']} ${p.metadata.labels['lifecycle.apps.kruise.io/state'] ?? ''} ${p.metadata.deletionTimestamp ? 'terminating' : ''} ${(p.spec as { nodeName?: string }).nodeName ?? 'unscheduled'} ${image(p)} ${(p.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(',')}`;
    throw new Error(`${(e as Error).message}\n${JSON.stringify((await cloneSet(name)).status)}\n${pods.map(line).join('\n')}`);
  }
}

const image = (p: Pod) => p.spec.containers[0]!.image;

/** `n` live pods (ready or not) passing `check`, and none terminating. */
async function podsWith(name: string, n: number, check: (pods: Pod[]) => boolean = () => true): Promise<Pod[]> {
  return eventuallyOrDump(name, `${name}: ${n} pods`, async () => {
    const pods = await podsOf(name);
    return pods.length === n && pods.every((p) => !p.metadata.deletionTimestamp) && check(pods) ? pods : undefined;
  }, 60_000, 50);
}

async function readyWith(name: string, n: number, check: (pods: Pod[]) => boolean = () => true): Promise<Pod[]> {
  return eventuallyOrDump(name, `${name}: ${n} ready pods`, async () => {
    const pods = await podsOf(name);
    return pods.length === n && pods.every((p) => !p.metadata.deletionTimestamp && ready(p)) && check(pods) ? pods : undefined;
  }, 60_000, 50);
}

describe('seed 001: maxSurge 20%, maxUnavailable 0, partition 3 on 5 replicas', () => {
  it('surges one new pod, updates in place down to 3 old, removes the surge: 3 old + 2 new, never fewer than 5 ready; partition 0 then finishes', async () => {
    await withController(async () => {
      const obj = await env.kube.create(seed('001-cloneset-maxsurge-partition.yaml', 'surge'));
      const before = await readyWith('surge', 5);
      const s = sampler('surge');
      await env.kube.patch(obj, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } } });
      const partial = await readyWith('surge', 5, (pods) => pods.filter((p) => image(p) === 'nginx:1.25').length === 2);
      const seen = await s.stop();
      expectSeed001AtPartition3(before, partial, seen);
      const status = await eventually('status', async () => {
        const st = (await cloneSet('surge')).status;
        return st?.updatedReplicas === 2 && st.replicas === 5 && st.readyReplicas === 5 ? st : undefined;
      }, 10_000, 50);
      expect(status.currentRevision).not.toBe(status.updateRevision);

      const s2 = sampler('surge');
      await env.kube.patch(obj, { spec: { updateStrategy: { partition: 0 } } });
      await readyWith('surge', 5, (pods) => pods.every((p) => image(p) === 'nginx:1.25'));
      const seen2 = await s2.stop();
      expect(seen2.maxLive).toBe(6);
      expect(seen2.minReady).toBeGreaterThanOrEqual(5);
      await eventually('current = update revision', async () => {
        const st = (await cloneSet('surge')).status;
        return st?.currentRevision === st?.updateRevision && st?.updatedReadyReplicas === 5 ? true : undefined;
      }, 10_000, 50);
    });
  });
});

describe('seed 003: maxUnavailable and maxSurge apply to specified deletes', () => {
  async function specifiedDelete(name: string, maxUnavailable: number, deleteUnavailable: boolean) {
    return withController(async () => {
      const obj = await createBasic(name, 4, { updateStrategy: { maxUnavailable, maxSurge: 1 } });
      const pods = await readyWith(name, 4);
      const [podA, podB] = pods;
      env.kubelet.setReady(env.ns, podA!.metadata.name, false);
      await eventually('pod-a unavailable', async () => ((await podsOf(name)).some((p) => p.metadata.name === podA!.metadata.name && !ready(p)) ? true : undefined), 10_000, 20);
      const victim = deleteUnavailable ? podA! : podB!;
      const s = sampler(name);
      await env.kube.patch(obj, { spec: { scaleStrategy: { podsToDelete: [victim.metadata.name] } } });
      // The order: was the victim gone before its replacement existed (delete first), or after?
      const order = await eventually('victim replaced', async () => {
        const now = await podsOf(name);
        const victimAlive = now.some((p) => p.metadata.name === victim.metadata.name && !p.metadata.deletionTimestamp);
        const fresh = live(now).filter((p) => !pods.some((o) => o.metadata.uid === p.metadata.uid));
        if (!victimAlive && fresh.length === 0) return 'delete-first';
        if (victimAlive && fresh.length === 1) return 'create-first';
        return undefined;
      }, 20_000, 5);
      await eventually('settled', async () => {
        const now = live(await podsOf(name));
        return now.length === 4 && !now.some((p) => p.metadata.name === victim.metadata.name) ? true : undefined;
      }, 20_000, 20);
      const seen = await s.stop();
      env.kubelet.setReady(env.ns, podA!.metadata.name, true);
      return { order, seen };
    });
  }

  it('maxUnavailable 2, maxSurge 1, pod-a unavailable, pod-b asked for: pod-b is deleted at once, then replaced', async () => {
    const { order, seen } = await specifiedDelete('sd-one', 2, false);
    expect(order).toBe('delete-first');
    expect(seen.maxLive).toBe(4);
  });

  it('maxUnavailable 1, maxSurge 1, pod-a unavailable, pod-b asked for: a new pod first, pod-b deleted once it is ready', async () => {
    const { order, seen } = await specifiedDelete('sd-two', 1, false);
    expect(order).toBe('create-first');
    expect(seen.maxLive).toBe(5);
    expect(seen.minReady).toBeGreaterThanOrEqual(3);
  });

  it('maxUnavailable 1, maxSurge 1, pod-a unavailable and asked for: pod-a is deleted at once, then replaced', async () => {
    const { order, seen } = await specifiedDelete('sd-three', 1, true);
    expect(order).toBe('delete-first');
    expect(seen.maxLive).toBe(4);
  });
});

describe('seed 003 §4: partition rollback (CloneSetPartitionRollback)', () => {
  it('raising partition rolls new pods back to the current revision, in place', async () => {
    await withController(async () => {
      const obj = await createBasic('rollback', 4, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 } });
      const before = await readyWith('rollback', 4);
      await env.kube.patch(obj, { spec: { template: { spec: { containers: [{ name: 'main', image: 'app:2' }] } }, updateStrategy: { partition: 1 } } });
      await readyWith('rollback', 4, (pods) => pods.filter((p) => image(p) === 'app:2').length === 3);
      await env.kube.patch(obj, { spec: { updateStrategy: { partition: 3 } } });
      const after = await readyWith('rollback', 4, (pods) => pods.filter((p) => image(p) === 'app:2').length === 1);
      expect(new Set(after.map((p) => p.metadata.uid))).toEqual(new Set(before.map((p) => p.metadata.uid)));
      const status = (await cloneSet('rollback')).status!;
      expect(after.filter((p) => image(p) === 'app:1').every((p) => p.metadata.labels['controller-revision-hash'] === status.currentRevision)).toBe(true);
    }, { CloneSetPartitionRollback: true });
  });

  it('without the gate, raising partition leaves updated pods alone (OpenKruise’s default)', async () => {
    await withController(async () => {
      const obj = await createBasic('norollback', 2, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 } });
      await readyWith('norollback', 2);
      await env.kube.patch(obj, { spec: { template: { spec: { containers: [{ name: 'main', image: 'app:2' }] } } } });
      await readyWith('norollback', 2, (pods) => pods.every((p) => image(p) === 'app:2'));
      await env.kube.patch(obj, { spec: { updateStrategy: { partition: 2 } } });
      // A run for the change happens (observedGeneration catches up) and nothing rolls back.
      await eventually('observed', async () => {
        const cs = (await cloneSet('norollback')) as KubeObject & { metadata: { generation?: number }; status?: { observedGeneration?: number } };
        return cs.status?.observedGeneration === cs.metadata.generation ? true : undefined;
      }, 10_000, 50);
      expect((await podsOf('norollback')).map(image)).toEqual(['app:2', 'app:2']);
    });
  });
});

describe('lifecycle hooks (seed 000)', () => {
  it('inPlaceUpdate labelsHandler: PreparingUpdate until the label goes, Updating, Updated until it is back, then Normal', async () => {
    await withController(async () => {
      const base = seed('000-cloneset-lifecycle-labels.yaml', 'hooked') as KubeObject & { spec: Record<string, unknown> };
      const obj = await env.kube.create({ ...base, spec: { ...base.spec, replicas: 1, updateStrategy: { type: 'InPlaceIfPossible' } } });
      // Scheduled, the pod leaves PreparingNormal (it may be Ready a moment before).
      const [pod] = await readyWith('hooked', 1, (pods) => pods[0]!.metadata.labels['lifecycle.apps.kruise.io/state'] === 'Normal');
      const state = async () => (await podsOf('hooked'))[0]!;
      await env.kube.patch(pod!, { metadata: { labels: { 'example.io/block-unready': 'true' } } });
      await env.kube.patch(obj, { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.25' }] } } } });
      await eventually('PreparingUpdate', async () => ((await state()).metadata.labels['lifecycle.apps.kruise.io/state'] === 'PreparingUpdate' ? true : undefined), 10_000, 20);
      expect(image(await state())).toBe('nginx:alpine');
      // The user's controller lets the update go by removing its label.
      await env.kube.patch(await state(), { metadata: { labels: { 'example.io/block-unready': null } } });
      await eventually('Updated', async () => {
        const p = await state();
        return p.metadata.labels['lifecycle.apps.kruise.io/state'] === 'Updated' && image(p) === 'nginx:1.25' ? true : undefined;
      }, 20_000, 20);
      await env.kube.patch(await state(), { metadata: { labels: { 'example.io/block-unready': 'true' } } });
      await eventually('Normal', async () => ((await state()).metadata.labels['lifecycle.apps.kruise.io/state'] === 'Normal' ? true : undefined), 10_000, 20);
      expect((await state()).metadata.annotations?.['lifecycle.apps.kruise.io/timestamp']).toMatch(/^\d{4}-\d\d-\d\dT/);
    });
  });

  it('preDelete finalizersHandler with markPodNotReady: scale-in holds the pod in PreparingDelete, not ready, until the finalizer goes', async () => {
    await withController(async () => {
      const obj = await createBasic('predelete', 2, { lifecycle: { preDelete: { finalizersHandler: ['example.io/unready-blocker'], markPodNotReady: true } } });
      const pods = await readyWith('predelete', 2);
      for (const p of pods) await env.kube.patch(p, { metadata: { finalizers: ['example.io/unready-blocker'] } });
      await env.kube.patch(obj, { spec: { replicas: 1 } });
      const held = await eventually('PreparingDelete, not ready', async () => {
        const p = (await podsOf('predelete')).find((x) => x.metadata.labels['lifecycle.apps.kruise.io/state'] === 'PreparingDelete');
        return p && p.status?.conditions?.some((c) => c.type === 'KruisePodReady' && c.status === 'False') && !ready(p) ? p : undefined;
      }, 20_000, 20);
      expect(held.metadata.deletionTimestamp).toBeUndefined();
      await env.kube.patch(held, { metadata: { finalizers: [] } });
      await eventually('deleted', async () => (live(await podsOf('predelete')).length === 1 ? true : undefined), 20_000, 20);
      // Leave nothing that would hold the namespace (and later full resyncs) up.
      for (const p of await podsOf('predelete')) await env.kube.patch(p, { metadata: { finalizers: [] } }).catch(() => undefined);
    });
  });
});

describe('volumeClaimTemplates (seed 001)', () => {
  it('one PVC per pod named <vct>-<cs>-<id> with the id label and the CloneSet as owner; a deleted pod’s replacement gets its PVC back; scale-in deletes it', async () => {
    await withController(async () => {
      const base = seed('001-cloneset-pvc-template.yaml', 'data') as KubeObject & { spec: Record<string, unknown> };
      const labels = { app: 'data' };
      // No provisioner here: the claims stay Pending and the pods unscheduled, which is all this needs.
      const obj = await env.kube.create({ ...base, spec: { ...base.spec, replicas: 2, selector: { matchLabels: labels }, template: { ...(base.spec.template as object), metadata: { labels } } } });
      const pods = await podsWith('data', 2);
      // Its revision carries the hash OpenKruise computes for this template as its webhook
      // stores it (volumeMode Filesystem added): computed by Go (scripts/vct-hash-go-vectors.ts).
      expect((await revisionOf('data')).metadata.annotations?.[VCT_HASH]).toBe('3510603703');
      const pvcs = async () => (await env.kube.list<KubeObject & { metadata: { name: string; labels: Record<string, string>; ownerReferences?: { kind: string; name: string }[]; deletionTimestamp?: string } }>('v1', 'PersistentVolumeClaim', { namespace: env.ns, labelSelector: 'app=data' })).items.filter((c) => !c.metadata.deletionTimestamp);
      const claims = await pvcs();
      expect(claims.map((c) => c.metadata.name).sort()).toEqual(pods.map((p) => `data-vol-data-${p.metadata.labels['apps.kruise.io/cloneset-instance-id']}`).sort());
      for (const c of claims) expect(c.metadata.ownerReferences).toMatchObject([{ kind: 'CloneSet', name: 'data' }]);
      for (const p of pods) expect(p.spec.volumes?.find((v) => v.name === 'data-vol')?.persistentVolumeClaim?.claimName).toBe(`data-vol-data-${p.metadata.labels['apps.kruise.io/cloneset-instance-id']}`);

      // A pod deleted by someone else (an eviction, a node going away): its replacement takes the
      // id its PVC still carries, and mounts the same claim.
      const ids = new Set(pods.map((p) => p.metadata.labels['apps.kruise.io/cloneset-instance-id']));
      await env.kube.delete(pods[0]!);
      const recreated = await podsWith('data', 2, (now) => !now.some((p) => p.metadata.uid === pods[0]!.metadata.uid));
      expect(new Set(recreated.map((p) => p.metadata.labels['apps.kruise.io/cloneset-instance-id']))).toEqual(ids);
      expect((await pvcs()).map((c) => c.metadata.name).sort()).toEqual(claims.map((c) => c.metadata.name).sort());

      await env.kube.patch(obj, { spec: { replicas: 1 } });
      await eventually('one pod, one PVC', async () => ((await pvcs()).length === 1 && live(await podsOf('data')).length === 1 ? true : undefined), 20_000, 50);
    });
  });
});

describe('the volume-claim-template hash (kruise.io/cloneset-volumeclaimtemplate-hash)', () => {
  type Claim = KubeObject & { metadata: { name: string; labels: Record<string, string>; deletionTimestamp?: string }; spec: { resources: { requests: { storage: string } } } };
  const claimsOf = async (name: string) =>
    (await env.kube.list<Claim>('v1', 'PersistentVolumeClaim', { namespace: env.ns, labelSelector: `app=${name}` })).items.filter((c) => !c.metadata.deletionTimestamp);
  const claim = (storage: string) => [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } } } }];
  // Computed by Go for `data`, ReadWriteOnce, volumeMode Filesystem (scripts/vct-hash-go-vectors.ts).
  const HASH_1GI = '765486926';
  const HASH_2GI = '1653299716';

  const observed = (name: string) =>
    eventually(`${name}: observed`, async () => {
      const cs = (await cloneSet(name)) as CloneSetObj & { metadata: { generation?: number }; status?: { observedGeneration?: number } };
      return cs.status?.observedGeneration === cs.metadata.generation ? cs : undefined;
    }, 20_000, 50);
  const newRevision = (name: string, than: string) =>
    eventually(`${name}: a revision other than ${than}`, async () => {
      const r = await revisionOf(name);
      return r.metadata.name !== than ? r : undefined;
    }, 20_000, 50);

  /** 2 running pods of app:1 with 1Gi claims, then image app:2 and 2Gi claims in one edit; `more` goes on from there. */
  async function imageAndClaimChange(name: string, more: (obj: KubeObject, after: Pod[]) => Promise<void> = async () => undefined): Promise<{ before: Pod[]; after: Pod[] }> {
    const provisioner = startProvisioner(env.kube, env.ns);
    try {
      const obj = await createBasic(name, 2, { updateStrategy: { type: 'InPlaceIfPossible', maxUnavailable: 2 }, volumeClaimTemplates: claim('1Gi') });
      const before = await readyWith(name, 2);
      const first = await revisionOf(name);
      expect(first.metadata.annotations?.[VCT_HASH]).toBe(HASH_1GI);
      await env.kube.patch(obj, { spec: { template: { spec: { containers: [{ name: 'main', image: 'app:2' }] } }, volumeClaimTemplates: claim('2Gi') } });
      const after = await readyWith(name, 2, (pods) => pods.every((p) => image(p) === 'app:2'));
      expect((await newRevision(name, first.metadata.name)).metadata.annotations?.[VCT_HASH]).toBe(HASH_2GI);
      await more(obj, after);
      return { before, after };
    } finally {
      await provisioner.stop();
    }
  }

  it('with RecreatePodWhenChangeVCTInCloneSetGate, an image change that comes with new claims recreates the pods, with new claims; claims alone change nothing until the next image', async () => {
    await withController(async () => {
      const { before, after } = await imageAndClaimChange('vctgate', async (obj, after) => {
        const ids = after.map((p) => `data-vctgate-${p.metadata.labels['apps.kruise.io/cloneset-instance-id']}`);
        const claims = await eventually('the new pods’ claims', async () => {
          const now = (await claimsOf('vctgate')).filter((c) => ids.includes(c.metadata.name));
          return now.length === 2 ? now : undefined;
        }, 20_000, 50);
        expect(claims.map((c) => c.spec.resources.requests.storage)).toEqual(['2Gi', '2Gi']);
        // Claims alone: no new revision (the template is the same), so no pod is touched.
        const revision = (await revisionOf('vctgate')).metadata.name;
        await env.kube.patch(obj, { spec: { volumeClaimTemplates: claim('3Gi') } });
        await observed('vctgate');
        expect((await revisionOf('vctgate')).metadata.name).toBe(revision);
        expect((await podsOf('vctgate')).map((p) => p.metadata.uid).sort()).toEqual(after.map((p) => p.metadata.uid).sort());
        // The next image change compares 3Gi with the 2Gi the pods' revision recorded: recreate.
        await env.kube.patch(obj, { spec: { template: { spec: { containers: [{ name: 'main', image: 'app:3' }] } } } });
        const third = await readyWith('vctgate', 2, (pods) => pods.every((p) => image(p) === 'app:3'));
        for (const p of third) expect(after.map((b) => b.metadata.uid)).not.toContain(p.metadata.uid);
      });
      for (const p of after) expect(before.map((b) => b.metadata.uid)).not.toContain(p.metadata.uid);
    }, { RecreatePodWhenChangeVCTInCloneSetGate: true });
  });

  it('without the gate (OpenKruise’s default), the same change updates the pods in place and keeps their claims', async () => {
    await withController(async () => {
      const { before, after } = await imageAndClaimChange('vctnogate');
      expect(new Set(after.map((p) => p.metadata.uid))).toEqual(new Set(before.map((p) => p.metadata.uid)));
      expect((await claimsOf('vctnogate')).map((c) => c.spec.resources.requests.storage)).toEqual(['1Gi', '1Gi']);
    });
  });

  it('going back to an older template with other claims renumbers that revision and rewrites its hash', async () => {
    await withController(async () => {
      const obj = await createBasic('vctback', 1, { volumeClaimTemplates: claim('1Gi') });
      const first = await revisionOf('vctback');
      await env.kube.patch(obj, { spec: { template: { spec: { containers: [{ name: 'main', image: 'app:2' }] } } } });
      await newRevision('vctback', first.metadata.name);
      await env.kube.patch(obj, { spec: { template: { spec: { containers: [{ name: 'main', image: 'app:1' }] } }, volumeClaimTemplates: claim('2Gi') } });
      const back = await eventually('vctback: back at the first revision, renumbered', async () => {
        const r = (await revisionOf('vctback')) as Revision & { revision?: number };
        return r.metadata.name === first.metadata.name && r.revision === 3 ? r : undefined;
      }, 20_000, 50);
      expect(back.metadata.annotations?.[VCT_HASH]).toBe(HASH_2GI);
    });
  });

  it('a revision already written (by OpenKruise, or before the annotation existed) is taken over as is: no write to it, no pod rolled', async () => {
    const name = 'vcttake';
    const obj = await withController(async () => {
      const created = await createBasic(name, 1, { updateStrategy: { type: 'InPlaceIfPossible' }, volumeClaimTemplates: claim('1Gi') });
      await podsWith(name, 1);
      await revisionOf(name);
      return created;
    });
    // As OpenKruise wrote it: same name, data and hash. Then as a writer without the annotation left it.
    for (const strip of [false, true]) {
      let rev = await revisionOf(name);
      expect(rev.metadata.annotations?.[VCT_HASH]).toBe(HASH_1GI);
      if (strip) rev = await env.kube.patch(rev, { metadata: { annotations: { [VCT_HASH]: null } } });
      const pods = await podsOf(name);
      const replicas = pods.length + 1;
      await withController(async () => {
        await env.kube.patch(obj, { spec: { replicas } });
        const now = await podsWith(name, replicas);
        for (const p of pods) expect(now.map((q) => q.metadata.uid)).toContain(p.metadata.uid);
      });
      const after = await revisionOf(name);
      expect(after.metadata.name).toBe(rev.metadata.name);
      expect(after.metadata.resourceVersion).toBe(rev.metadata.resourceVersion);
      // OpenKruise too leaves the annotations of the newest revision alone.
      if (strip) expect(after.metadata.annotations?.[VCT_HASH]).toBeUndefined();
    }
  });
});

describe('scale-down order and the scale subresource', () => {
  it('with topologySpreadConstraints, scale-in takes pods from the fullest zone, not just the youngest', async () => {
    const ZONE = 'topology.kubernetes.io/zone';
    const extra = `${env.ns}-node-c`;
    await env.kubelet.addNodes([{ name: extra }]);
    const nodes = ['css-node-a', 'css-node-b', extra];
    const zoneOf: Record<string, string> = { [nodes[0]!]: 'z1', [nodes[1]!]: 'z1', [extra]: 'z2' };
    for (const n of nodes) await env.kube.patch({ apiVersion: 'v1', kind: 'Node', metadata: { name: n } }, { metadata: { labels: { [ZONE]: zoneOf[n]! } } });
    const nodeOf = (p: Pod) => (p.spec as { nodeName?: string }).nodeName ?? '';
    try {
      await withController(async () => {
        const labels = { app: 'spread' };
        const spread = (topologyKey: string, maxSkew: number, whenUnsatisfiable: string) => ({ maxSkew, topologyKey, whenUnsatisfiable, labelSelector: { matchLabels: labels } });
        // Two pods per node (the scheduler enforces the hostname skew); the zone key is what scale-in ranks by.
        await createBasic('spread', 6, {}, { topologySpreadConstraints: [spread('kubernetes.io/hostname', 1, 'DoNotSchedule'), spread(ZONE, 6, 'ScheduleAnyway')] });
        const first = await readyWith('spread', 6);
        expect(first.map(nodeOf).sort()).toEqual([...nodes, ...nodes].sort());
        // Make zone z2's pods the youngest (ready a second later): ranked by node and age alone,
        // one of them would go first.
        const since = Math.floor(Date.now() / 1000);
        await eventually('the next second', async () => (Math.floor(Date.now() / 1000) > since ? true : undefined), 3_000, 20);
        for (const p of first.filter((q) => nodeOf(q) === extra)) await env.kube.delete(p);
        // Replacements available as the controller counts them (lifecycle Normal too), or scale-in
        // would rightly take them first as unavailable.
        const normal = (p: Pod) => p.metadata.labels['lifecycle.apps.kruise.io/state'] === 'Normal';
        const before = await readyWith('spread', 6, (pods) => pods.every(normal) && pods.filter((p) => nodeOf(p) === extra && !first.some((q) => q.metadata.uid === p.metadata.uid)).length === 2);
        await env.kube.patch({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'spread', namespace: env.ns } }, { spec: { replicas: 4 } });
        const after = await readyWith('spread', 4);
        const gone = before.filter((p) => !after.some((q) => q.metadata.uid === p.metadata.uid)).map(nodeOf).sort();
        expect(gone).toEqual([nodes[0], nodes[1]].sort());
      });
    } finally {
      await env.kubelet.removeNodes([extra]);
    }
  });

  it('scale-in deletes the pod with the lowest pod-deletion-cost first; `kubectl scale` (the scale subresource) drives replicas', async () => {
    await withController(async () => {
      await createBasic('cost', 3);
      const pods = await readyWith('cost', 3);
      const costs = [5, -1, 10];
      for (const [i, p] of pods.entries()) await env.kube.patch(p, { metadata: { annotations: { 'controller.kubernetes.io/pod-deletion-cost': String(costs[i]) } } });
      await env.kube.patch({ apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'cost', namespace: env.ns } }, { spec: { replicas: 2 } }, 'merge', 'scale');
      const left = await readyWith('cost', 2);
      expect(left.map((p) => p.metadata.name).sort()).toEqual([pods[0]!.metadata.name, pods[2]!.metadata.name].sort());
      // What an HPA reads: the scale subresource's status, from status.replicas and status.labelSelector.
      const csRef = { apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'cost', namespace: env.ns } };
      await eventually('scale status', async () => {
        const s = await env.kube.patch<KubeObject & { spec: { replicas: number }; status: { replicas: number; selector: string } }>(csRef, {}, 'merge', 'scale');
        return s.spec.replicas === 2 && s.status.replicas === 2 && s.status.selector === 'app=cost' ? true : undefined;
      }, 10_000, 50);
    });
  });
});
