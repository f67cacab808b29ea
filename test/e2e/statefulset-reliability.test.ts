// The Advanced StatefulSet controller killed at any point: a run whose client dies at a random API
// call (never sent, or sent with the answer lost) during an in-place rollout with a scale, for 20
// seeds, then runs again until the set converges. After every run: no more than maxUnavailable of
// the in-range pods unavailable; once converged: exactly ordinals 0..replicas-1, each with its PVC.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statefulSetReconciler } from '../../src/statefulset/controller/reconciler.js';
import { runReconciler } from '../../src/reconcile/runner.js';
import type { RunReport } from '../../src/reconcile/types.js';
import type { KubeObject } from '../../src/kube/http.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { testKube } from './support/kube.js';
import { killableKube, type Doomed, type KillTarget } from './support/killable.js';
import { deleteProvisionedVolumes, startProvisioner } from './support/provisioner.js';

type Pod = KubeObject & {
  metadata: { name: string; labels: Record<string, string>; deletionTimestamp?: string };
  spec: { containers: { image: string }[]; nodeName?: string };
  status?: { conditions?: { type: string; status: string }[] };
};
type Sts = KubeObject & { metadata: { name: string; generation?: number }; status?: { observedGeneration?: number; updatedReadyReplicas?: number; replicas?: number; updateRevision?: string } };

const MAX_UNAVAILABLE = 3;
let env: EdgeEnv;
let provisioner: { stop(): Promise<void> };

beforeAll(async () => {
  env = await startEdgeEnv('astsrel', []);
  provisioner = startProvisioner(env.kube, env.ns);
});
afterAll(async () => {
  await provisioner?.stop();
  await env?.dispose();
  const kube = await testKube();
  await deleteProvisionedVolumes(kube);
  kube.close();
});

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const condition = (p: Pod, type: string) => p.status?.conditions?.find((c) => c.type === type)?.status;
const unavailable = (p: Pod) => condition(p, 'Ready') !== 'True' || condition(p, 'InPlaceUpdateReady') !== 'True';
const ordinal = (p: Pod) => Number(p.metadata.name.slice(p.metadata.name.lastIndexOf('-') + 1));
const live = <T extends { metadata: { deletionTimestamp?: string } }>(xs: T[]) => xs.filter((x) => !x.metadata.deletionTimestamp);
const podsOf = async (name: string) => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${name}` })).items;
const ref = (name: string) => ({ apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name, namespace: env.ns } });
const scopeOf = (name: string) => ({ kind: 'objects' as const, objects: [{ namespace: env.ns, name }] });

function podLine(p: Pod): string {
  const conds = (p.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(',');
  return `${p.metadata.name} ${p.metadata.labels['controller-revision-hash']} ${p.spec.containers[0]!.image}${p.metadata.deletionTimestamp ? ' terminating' : ''} ${conds}`;
}

async function converged(name: string, pods: Pod[], replicas: number, image: string): Promise<boolean> {
  const set = await env.kube.get<Sts>('apps.kruise.io/v1beta1', 'StatefulSet', name, env.ns);
  const s = set.status;
  const ordinals = live(pods).map(ordinal).sort((a, b) => a - b);
  return JSON.stringify(ordinals) === JSON.stringify([...Array(replicas).keys()]) && pods.length === replicas
    && pods.every((p) => p.spec.containers[0]!.image === image && !unavailable(p) && p.metadata.labels['controller-revision-hash'] === s?.updateRevision)
    && s?.observedGeneration === set.metadata.generation && s?.updatedReadyReplicas === replicas && s.replicas === replicas;
}

describe('a run killed at a random API call', () => {
  it('an in-place rollout of 10 pods (some with a scale out or in) converges after the kill, for 20 seeds, within maxUnavailable, each pod with its PVC', async () => {
    const name = 'rel';
    await env.kube.create({
      ...ref(name),
      spec: {
        serviceName: name, replicas: 10, podManagementPolicy: 'Parallel', selector: { matchLabels: { app: name } },
        scaleStrategy: { maxUnavailable: MAX_UNAVAILABLE },
        updateStrategy: { rollingUpdate: { maxUnavailable: MAX_UNAVAILABLE, podUpdatePolicy: 'InPlaceIfPossible' } },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
        template: {
          metadata: { labels: { app: name } },
          spec: { automountServiceAccountToken: false, readinessGates: [{ conditionType: 'InPlaceUpdateReady' }], containers: [{ name: 'main', image: 'app:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] },
        },
      },
    });
    const found: string[] = [];
    const kills: string[] = [];
    let runs = 0;
    let replicas = 10;
    const runUntil = async (what: string, want: number, image: string, doomed?: Doomed) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const dying = doomed !== undefined && doomed.state.killed === undefined;
        let report: RunReport | undefined;
        try {
          report = await runReconciler(dying ? doomed.kube : env.kube, statefulSetReconciler, { scope: scopeOf(name), identity: `astsrel-${++runs}`, leaseDurationSeconds: 2 });
        } catch (e) {
          if (!dying || doomed.state.killed === undefined) throw e;
        }
        const killedNow = dying && doomed.state.killed !== undefined;
        if (killedNow) kills.push(`${what}: ${doomed.state.killed}`);
        const pods = await podsOf(name);
        // In-range pods only: pods being scaled away are not counted by the update (as in OpenKruise).
        const inRange = live(pods).filter((p) => ordinal(p) < Math.min(want, replicas));
        const down = inRange.filter(unavailable);
        if (down.length > MAX_UNAVAILABLE) found.push(`${what}, after run ${runs}${killedNow ? ' (the killed one)' : ''}: ${down.length} unavailable: ${down.map((p) => p.metadata.name).join(' ')}`);
        if (await converged(name, pods, want, image)) return;
        if (Date.now() > deadline) throw new Error(`${what}: no convergence in 60 s\n${[...found, ...kills].join('\n')}\n${pods.map(podLine).join('\n')}`);
        if (!report?.applied) await pause(40);
      }
    };

    await runUntil('setup', 10, 'app:1');
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const targets = [10, 12, 10, 10, 8];
    for (let s = 0; s < 20; s++) {
      const next = targets[s % targets.length]!;
      const image = `app:${s + 2}`;
      const target: KillTarget = s % 2 ? 'pod/PVC write' : 'any call';
      const killAt = 1 + Math.floor(rand() * (target === 'any call' ? 60 : 15));
      const afterSend = rand() < 0.5;
      const what = `seed ${s} (${replicas}→${next} pods, ${image}, kill at ${target} ${killAt})`;
      await env.kube.patch(ref(name), { spec: { replicas: next, template: { spec: { containers: [{ name: 'main', image, volumeMounts: [{ name: 'data', mountPath: '/data' }] }] } } } });
      const doomed = await killableKube(killAt, target, afterSend);
      try {
        await runUntil(what, next, image, doomed);
      } finally {
        doomed.kube.close();
      }
      if (doomed.state.killed === undefined) found.push(`${what}: converged before the kill (${doomed.state.counted} counted calls)`);
      const claims = new Set((await env.kube.list<KubeObject & { metadata: { name: string } }>('v1', 'PersistentVolumeClaim', { namespace: env.ns, labelSelector: `app=${name}` })).items.map((c) => c.metadata.name));
      const missing = live(await podsOf(name)).filter((p) => !claims.has(`data-${p.metadata.name}`)).map((p) => p.metadata.name);
      if (missing.length) found.push(`${what}, converged: pods without their PVC: ${missing.join(' ')}`);
      replicas = next;
    }
    expect(found, `the kills:\n${kills.join('\n')}`).toEqual([]);
  }, 240_000);
});
