// CloneSet reliability end to end (issue 14): the controller run through the runtime, killed at a
// random API call in the middle of a 20-pod in-place rollout (some with a scale out or in, so kills
// land in pod and PVC creates and deletes too) and run again until the rollout converges; and two
// invocations started together. Between runs the pods are sampled: never more than maxUnavailable
// unavailable, never two pods with one instance id, never more pods than allowed; at the end,
// exactly one PVC per pod and claim template, none left over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloneSetFeature } from '../../src/cloneset/index.js';
import { cloneSetReconciler } from '../../src/cloneset/controller/reconciler.js';
import { DEFAULT_LEASE_NAMESPACE, leaseNameFor, runReconciler } from '../../src/reconcile/runner.js';
import { microTime } from '../../src/reconcile/lease.js';
import type { RunReport, Scope } from '../../src/reconcile/types.js';
import type { KubeObject } from '../../src/kube/http.js';
import { isNotFound } from '../../src/kube/errors.js';
import { startEdgeEnv, type EdgeEnv } from './support/edge-env.js';
import { testKube } from './support/kube.js';
import { deleteProvisionedVolumes, startProvisioner } from './support/provisioner.js';
import { killableKube, type Doomed, type KillTarget } from './support/killable.js';

const CS = 'apps.kruise.io/v1alpha1';
const ID = 'apps.kruise.io/cloneset-instance-id';
const CLAIM_TEMPLATES = ['data', 'logs'];

type Condition = { type: string; status: string };
type Pod = KubeObject & {
  metadata: { name: string; labels: Record<string, string>; deletionTimestamp?: string };
  spec: { containers: { image: string }[]; nodeName?: string };
  status?: { conditions?: Condition[] };
};
type Pvc = KubeObject & { metadata: { name: string; namespace: string; uid: string; labels: Record<string, string>; deletionTimestamp?: string }; spec: { volumeName?: string } };
type CloneSetObj = KubeObject & { metadata: { generation?: number }; status?: { observedGeneration?: number; updateRevision?: string; updatedReadyReplicas?: number } };

let env: EdgeEnv;
let provisioner: { stop(): Promise<void> } | undefined;
beforeAll(async () => {
  env = await startEdgeEnv('csrel', [cloneSetFeature]);
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
/** Unavailable as the CloneSet counts it (availability.ts): not Ready, or mid in-place update. */
const unavailable = (p: Pod) => condition(p, 'Ready') !== 'True' || condition(p, 'InPlaceUpdateReady') !== 'True';
const live = <T extends { metadata: { deletionTimestamp?: string } }>(xs: T[]) => xs.filter((x) => !x.metadata.deletionTimestamp);
const podsOf = async (name: string) => (await env.kube.list<Pod>('v1', 'Pod', { namespace: env.ns, labelSelector: `app=${name}` })).items;
const pvcsOf = async (name: string) => (await env.kube.list<Pvc>('v1', 'PersistentVolumeClaim', { namespace: env.ns, labelSelector: `app=${name}` })).items;
const cloneSet = (name: string) => env.kube.get<CloneSetObj>(CS, 'CloneSet', name, env.ns);
const csRef = (name: string): KubeObject => ({ apiVersion: CS, kind: 'CloneSet', metadata: { name, namespace: env.ns } });
const scopeOf = (name: string): Scope => ({ kind: 'objects', objects: [{ namespace: env.ns, name }] });

function cloneSetOf(name: string, replicas: number, updateStrategy: Record<string, unknown>, extra: Record<string, unknown> = {}): KubeObject {
  return {
    ...csRef(name),
    spec: {
      replicas, selector: { matchLabels: { app: name } }, updateStrategy,
      template: { metadata: { labels: { app: name } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } },
      ...extra,
    },
  };
}

/** What breaks a rule in one sample of the pods, as readable lines. */
function violations(pods: Pod[], limits: { maxUnavailable?: number; maxPods: number }): string[] {
  const out: string[] = [];
  const now = live(pods);
  const down = now.filter(unavailable);
  if (limits.maxUnavailable !== undefined && down.length > limits.maxUnavailable) out.push(`${down.length} pods unavailable (max ${limits.maxUnavailable}): ${down.map((p) => p.metadata.name).join(' ')}`);
  if (now.length > limits.maxPods) out.push(`${now.length} live pods (max ${limits.maxPods})`);
  const ids = pods.map((p) => p.metadata.labels[ID]);
  const dup = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (dup.length) out.push(`instance ids used twice: ${[...new Set(dup)].join(' ')}`);
  return out;
}

/** Every pod at `image` and the update revision, available, and the status saying so. */
async function converged(name: string, pods: Pod[], replicas: number, image: string): Promise<boolean> {
  if (pods.length !== replicas || live(pods).length !== replicas) return false;
  const cs = await cloneSet(name);
  const s = cs.status;
  return pods.every((p) => p.spec.containers[0]!.image === image && p.metadata.labels['controller-revision-hash'] === s?.updateRevision && !unavailable(p))
    && s?.observedGeneration === cs.metadata.generation && s?.updatedReadyReplicas === replicas;
}

/** The CloneSet's PVCs not being deleted: exactly one per live pod and claim template. */
async function pvcProblems(name: string): Promise<string[]> {
  const ids = new Set(live(await podsOf(name)).map((p) => p.metadata.labels[ID]));
  const claims = live(await pvcsOf(name));
  const want = [...ids].flatMap((id) => CLAIM_TEMPLATES.map((t) => `${t}-${name}-${id}`)).sort();
  const got = claims.map((c) => c.metadata.name).sort();
  const orphans = claims.filter((c) => !ids.has(c.metadata.labels[ID]!)).map((c) => c.metadata.name);
  const missing = want.filter((n) => !got.includes(n));
  return [...(orphans.length ? [`orphan PVCs: ${orphans.join(' ')}`] : []), ...(missing.length ? [`missing PVCs: ${missing.join(' ')}`] : [])];
}

function podLine(p: Pod): string {
  const conds = (p.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(',');
  return `${p.metadata.name} ${p.metadata.labels['controller-revision-hash']} ${p.spec.containers[0]!.image} ${p.spec.nodeName ?? 'unscheduled'}${p.metadata.deletionTimestamp ? ' terminating' : ''} ${conds}`;
}

describe('a run killed at a random API call', () => {
  it('a 20-pod in-place rollout (some with a scale out or in) converges after the kill, for 20 seeds, within maxUnavailable, with no instance id twice and no PVC left over', async () => {
    const name = 'rel';
    const claimTemplates = CLAIM_TEMPLATES.map((t) => ({ metadata: { name: t }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }));
    await env.kube.create(cloneSetOf(name, 20, { type: 'InPlaceIfPossible', maxUnavailable: '20%' }, { volumeClaimTemplates: claimTemplates }));
    const found: string[] = [];
    const kills: string[] = [];
    let runs = 0;
    /** Runs the controller (through `doomed` until it dies) until converged, sampling after every run. */
    const runUntil = async (what: string, replicas: number, image: string, limits: { maxUnavailable: number; maxPods: number }, doomed?: Doomed) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        const dying = doomed !== undefined && doomed.state.killed === undefined;
        let report: RunReport | undefined;
        try {
          report = await runReconciler(dying ? doomed.kube : env.kube, cloneSetReconciler, { scope: scopeOf(name), identity: `rel-${++runs}`, leaseDurationSeconds: 2 });
        } catch (e) {
          if (!dying || doomed.state.killed === undefined) throw e;
        }
        const killedNow = dying && doomed.state.killed !== undefined;
        if (killedNow) kills.push(`${what}: ${doomed.state.killed}`);
        const pods = await podsOf(name);
        found.push(...violations(pods, limits).map((v) => `${what}, after run ${runs}${killedNow ? ' (the killed one)' : ''}: ${v}`));
        if (await converged(name, pods, replicas, image)) return;
        if (Date.now() > deadline) throw new Error(`${what}: no convergence in 60 s\n${[...found, ...kills].join('\n')}\n${(await podsOf(name)).map(podLine).join('\n')}`);
        // Straight on while there is work; a short poll while pods start or a lease runs out.
        if (!report?.applied) await pause(40);
      }
    };

    await runUntil('setup', 20, 'app:1', { maxUnavailable: 20, maxPods: 20 });
    // From here on scaling out is held to maxUnavailable too, so "at most maxUnavailable pods
    // unavailable" holds while new pods start as well as while pods update.
    await env.kube.patch(csRef(name), { spec: { scaleStrategy: { maxUnavailable: '20%' } } });
    let seed = 11;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    let replicas = 20;
    const targets = [20, 24, 20, 20, 17];
    for (let s = 0; s < 20; s++) {
      const next = targets[s % targets.length]!;
      const image = `app:${s + 2}`;
      // Odd seeds count only pod and PVC writes, and early ones, so kills land among the
      // creates and deletes of a scale as well as in the in-place steps.
      const target: KillTarget = s % 2 ? 'pod/PVC write' : 'any call';
      const killAt = 1 + Math.floor(rand() * (target === 'any call' ? 120 : 30));
      const afterSend = rand() < 0.5;
      const what = `seed ${s} (${replicas}→${next} pods, ${image}, kill at ${target} ${killAt})`;
      await env.kube.patch(csRef(name), { spec: { replicas: next, template: { spec: { containers: [{ name: 'main', image }] } } } });
      const doomed = await killableKube(killAt, target, afterSend);
      try {
        // maxUnavailable 20% of the new replicas, rounded up (OpenKruise's rounding with maxSurge 0).
        await runUntil(what, next, image, { maxUnavailable: Math.ceil(next / 5), maxPods: Math.max(replicas, next) }, doomed);
      } finally {
        doomed.kube.close();
      }
      if (doomed.state.killed === undefined) found.push(`${what}: converged before the kill (${doomed.state.counted} counted calls)`);
      found.push(...(await pvcProblems(name)).map((v) => `${what}, converged: ${v}`));
      replicas = next;
    }
    expect(found, `the kills:\n${kills.join('\n')}`).toEqual([]);
  }, 150_000);
});

describe('two invocations started at the same moment', () => {
  it('only one acts each time, so no pod is created twice and the pods never exceed replicas + maxSurge; the rollout converges', async () => {
    const name = 'conc';
    const maxSurge = 2;
    await env.kube.create(cloneSetOf(name, 10, { type: 'ReCreate', maxSurge, maxUnavailable: 2 }));
    const other = await testKube();
    const leaseRef = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: leaseNameFor('CloneSet'), namespace: DEFAULT_LEASE_NAMESPACE } };
    const found: string[] = [];
    let round = 0;
    /** The lease as the two find it: gone (both create it), free (both take it), or held by a crashed run whose time is up. */
    const setLease = async (how: number) => {
      if (how === 0) {
        await env.kube.delete(leaseRef).catch((e: unknown) => {
          if (!isNotFound(e)) throw e;
        });
      } else if (how === 2) {
        const lease = await env.kube.get<KubeObject & { spec: Record<string, unknown> }>(leaseRef.apiVersion, leaseRef.kind, leaseRef.metadata.name, leaseRef.metadata.namespace);
        await env.kube.replace({ ...lease, spec: { ...lease.spec, holderIdentity: 'crashed', leaseDurationSeconds: 2, renewTime: microTime(new Date(Date.now() - 10_000)) } });
      }
    };
    const race = async (replicas: number, image: string) => {
      const deadline = Date.now() + 60_000;
      for (;;) {
        round += 1;
        await setLease(round % 3);
        const opts = (who: string) => ({ scope: scopeOf(name), identity: `${who}-${round}`, leaseDurationSeconds: 2 });
        const [a, b] = await Promise.all([runReconciler(env.kube, cloneSetReconciler, opts('a')), runReconciler(other, cloneSetReconciler, opts('b'))]);
        if (a.acted === b.acted) found.push(`round ${round}: ${a.acted ? 'both' : 'neither'} acted`);
        const pods = await podsOf(name);
        found.push(...violations(pods, { maxPods: replicas + maxSurge }).map((v) => `round ${round}: ${v}`));
        if (await converged(name, pods, replicas, image)) return;
        if (Date.now() > deadline) throw new Error(`${replicas} pods at ${image}: no convergence in 60 s\n${found.join('\n')}\n${pods.map(podLine).join('\n')}`);
        if (!a.applied && !b.applied) await pause(40);
      }
    };
    const change = (spec: Record<string, unknown>) => env.kube.patch(csRef(name), { spec });
    try {
      await race(10, 'app:1');
      await change({ template: { spec: { containers: [{ name: 'main', image: 'app:2' }] } } });
      await race(10, 'app:2');
      await change({ replicas: 16, template: { spec: { containers: [{ name: 'main', image: 'app:3' }] } } });
      await race(16, 'app:3');
    } finally {
      other.close();
    }
    expect(found).toEqual([]);
  });
});
