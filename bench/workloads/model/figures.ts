// Figure groups 1 and 2 of `npm run bench:workloads`, on the kubelet model (test/cluster/kubelet-model.ts):
//   1. controller overhead — each of our in-place rollouts' wall time ÷ its kubelet-bound ideal (the
//      same strategy played on the same model with zero controller latency), and the time from a pod
//      becoming Ready to the controller's next write (p50/p99);
//   2. against the native controllers (kube-controller-manager, real), same model, same pods:
//      CloneSet in place vs Deployment at 25% and 0 surge, Advanced StatefulSet vs StatefulSet,
//      Advanced DaemonSet vs DaemonSet — measured ratio, the ratio the model predicts, and the two's quotient.
// Per profile (light/heavy × cold images/pre-pulled): a namespace of its own, every workload brought
// up at v1, then rolled to v2 one at a time (ours on the Node loop). Printed, never asserted.
import { KubeletModel, type AppProfile } from '../../../test/cluster/kubelet-model.js';
import type { KubeObject } from '../../../src/kube/http.js';
import { createNamespace, deleteNamespaces, podsOf, rolledOut, sleep, until, type BenchCluster } from '../../cluster/cluster.js';
import type { LoopChild } from '../../cluster/children.js';
import { rollOne, type RolloutWorkload, type WatchedRollout } from '../../cluster/watched-rollout.js';
import { percentile, readyToNextWrite } from './ready-to-write.js';
import { total } from '../../cluster/counting.js';
import { cpuMsOf } from '../../harness/cpu.js';
import { POOL, advancedDaemonSet, advancedStatefulSet, cloneSetInPlace, deployment, imageOf, nativeDaemonSet, nativeStatefulSet, type ModelWorkload, type Sizes } from './workloads.js';
import type { PodSlot } from './ideal.js';
import { proxyDelta, type ProxyTally } from '../../cluster/counting-proxy.js';
import { addUnrelatedPods } from './unrelated.js';
import { idleWindow, profileMeanwhile, ROLLOUT_PROFILE_SECONDS } from '../../cluster/apiserver-profile.js';

/** Group 3's variant: the CloneSet rolled again with this many unrelated pods in its namespace and in the cluster. */
export type Unrelated = { inNamespace: number; inCluster: number };
const unrelatedLabel = (label: string, u: Unrelated) => `${label}, +${u.inNamespace} pods in ns, ${u.inCluster} in cluster`;

export type Profile = { name: string; app: AppProfile; prePulled: boolean };
export const PROFILES: Profile[] = [
  { name: 'light-cold', app: 'light', prePulled: false },
  { name: 'light-prepulled', app: 'light', prePulled: true },
  { name: 'heavy-cold', app: 'heavy', prePulled: false },
  { name: 'heavy-prepulled', app: 'heavy', prePulled: true },
];

export type Rollout = {
  workload: string; controller: string; ours: boolean; pods: number; wallMs?: number; idealMs?: number; readyToWriteMs?: number[]; error?: string;
  /** Group 3 (partial): the controller's writes, the Node loop's API requests (reads included; ours only), kube-apiserver CPU over the rollout and its settling. */
  writes?: number; apiCalls?: number; apiserverCpuMs?: number;
  /** Group 3: the controller's requests and response bytes by key, as its counting proxy saw them (kube-controller-manager's or the Node loop's). */
  proxied?: ProxyTally;
  /** The other counted client in the same window (kube-controller-manager during ours, the Node loop during the native rollout). */
  meanwhile?: ProxyTally;
  /** kube-apiserver CPU seconds per second in the 10 s before the spec change (nothing rolling). */
  apiserverIdleCpuPerS?: number;
  /** Each step of a pod's update, median ms from the step before, and who takes it. */
  phases?: { name: string; by: string; ms: number }[];
};
export type ProfileFigures = { profile: string; model: string; bringUpMs: number; rollouts: Rollout[] };

const ROLL_TIMEOUT_MS = 900_000;
const IDLE_WINDOW_MS = 10_000;

/** The nodes of the pool: labelled and tainted so that only these workloads land there. */
export const poolNodes = (n: number) => Array.from({ length: n }, (_, i) => `model-node-${String(i).padStart(2, '0')}`);

function watched(w: ModelWorkload, object: RolloutWorkload['object'], namespace: string): RolloutWorkload {
  return { object, namespace, label: w.label, controller: w.controller, app: w.app, ours: w.ours, marks: w.marks, statusDone: w.statusDone };
}

async function slots(c: BenchCluster, namespace: string, app: string): Promise<PodSlot[]> {
  const pods = await podsOf(c.kube, namespace, app);
  return pods.map((p) => ({ key: `${namespace}/${p.metadata.name}`, node: (p.spec as { nodeName?: string }).nodeName ?? '' })).sort((a, b) => a.key.localeCompare(b.key));
}

/** Where our controllers run: the Node loop (and the native ones beside), or the Lambda stand-in (ours only). */
export type Path = { name: 'node' | 'lambda'; controller: string };
export const NODE_PATH: Path = { name: 'node', controller: 'Node loop' };

/** One profile: a model, a namespace, every workload up at v1, each rolled to v2 (the Deployment again to v3 at 0 surge). */
export async function measureProfile(c: BenchCluster, loop: LoopChild, sizes: Sizes, profile: Profile, seed: number, log: (m: string) => void, path: Path = NODE_PATH, only?: readonly string[], unrelated?: Unrelated): Promise<ProfileFigures> {
  const options = { seed, app: profile.app, coldEni: false, prePulled: profile.prePulled };
  const model = new KubeletModel(options);
  c.kubelet.useModel(model);
  const namespace = `bench-model-${profile.name}${path.name === 'node' ? '' : `-${path.name}`}`;
  await createNamespace(c.kube, namespace);
  const all = [cloneSetInPlace(sizes), deployment(sizes, '25%'), advancedStatefulSet(sizes), nativeStatefulSet(sizes), advancedDaemonSet(sizes), nativeDaemonSet(sizes)].filter((w) => !only || only.includes(w.app));
  const workloads = (path.name === 'node' ? all : all.filter((w) => w.ours)).map((w) => (w.ours ? { ...w, controller: path.controller } : w));
  const rollouts: Rollout[] = [];
  try {
    const t0 = performance.now();
    const objects = new Map<string, RolloutWorkload['object']>();
    for (const w of workloads) objects.set(w.app, (await c.kube.create(w.object(namespace, imageOf(w.app, 1)))) as RolloutWorkload['object']);
    await until(`${profile.name}: every workload up at v1`, async () => {
      for (const w of workloads) {
        if (!rolledOut(await podsOf(c.kube, namespace, w.app), w.replicas, imageOf(w.app, 1))) return undefined;
        const o = objects.get(w.app)!;
        if (!w.statusDone(await c.kube.get(o.apiVersion!, o.kind!, w.app, namespace))) return undefined;
      }
      return true;
    }, ROLL_TIMEOUT_MS, 1000);
    const bringUpMs = performance.now() - t0;
    log(`${profile.name}: every workload up in ${(bringUpMs / 1000).toFixed(1)} s`);
    await sleep(2_000);
    const roll = async (w: ModelWorkload, version: number) => {
      const image = imageOf(w.app, version);
      const before = await slots(c, namespace, w.app);
      try {
        const apiserver = [c.cp.pids.apiserver].filter((p): p is number => p !== undefined);
        const proxy = w.ours ? c.proxies?.loop : c.proxies?.native;
        // The API server's CPU with nothing rolling, over the same kind of window: its background (other clients, its own loops).
        const idle0 = cpuMsOf(apiserver);
        const profileLabel = `${profile.name}-${w.app}-v${version}${unrelated && version === 3 && w.app === 'cloneset' ? '-unrelated' : ''}`;
        await idleWindow(c.cp, profileLabel, IDLE_WINDOW_MS, log);
        const idle1 = cpuMsOf(apiserver);
        const other = w.ours ? c.proxies?.native : c.proxies?.loop;
        const o0 = other?.tally();
        const p0 = proxy?.tally();
        const cpu0 = cpuMsOf(apiserver);
        const profiled = profileMeanwhile(c.cp, `${profileLabel}-rollout`, ROLLOUT_PROFILE_SECONDS, log);
        const r: WatchedRollout = await rollOne(c, loop, watched(w, objects.get(w.app)!, namespace), w.replicas, log, image);
        const cpu1 = cpuMsOf(apiserver);
        await profiled;
        const proxied = proxy && p0 ? proxyDelta(proxy.tally(), p0) : undefined;
        const meanwhile = other && o0 ? proxyDelta(other.tally(), o0) : undefined;
        const cost = { writes: total(r.writes), ...(r.apiCalls !== undefined ? { apiCalls: r.apiCalls } : {}), ...(cpu0 !== undefined && cpu1 !== undefined ? { apiserverCpuMs: cpu1 - cpu0 } : {}), ...(proxied ? { proxied } : {}), ...(meanwhile ? { meanwhile } : {}),
          ...(idle0 !== undefined && idle1 !== undefined ? { apiserverIdleCpuPerS: (idle1 - idle0) / IDLE_WINDOW_MS } : {}) };
        const idealMs = w.ideal(new KubeletModel(options), before, image);
        const readyToWriteMs = w.ours ? readyToNextWrite(r.podMarks, w.marks[0]!.name, 'Ready', w.window) : undefined;
        rollouts.push({ workload: w.label, controller: w.controller, ours: w.ours, pods: w.replicas, wallMs: r.wallMs, idealMs, ...(readyToWriteMs ? { readyToWriteMs } : {}), ...cost, phases: r.phases.map(({ name, by, ms }) => ({ name, by, ms })) });
        log(`${profile.name}: ${w.label} ${(r.wallMs / 1000).toFixed(1)} s, ideal ${(idealMs / 1000).toFixed(1)} s`);
      } catch (e) {
        rollouts.push({ workload: w.label, controller: w.controller, ours: w.ours, pods: w.replicas, error: e instanceof Error ? e.message : String(e) });
        log(`${profile.name}: ${w.label} failed: ${String(e)}`);
      }
    };
    // Each workload goes once rolled (the Deployment after its second roll): the fake kubelet lists every pod on each pass.
    const retire = (app: string) => c.kube.delete(objects.get(app)! as KubeObject).catch((e: unknown) => log(`deleting ${app}: ${String(e)}`));
    for (const w of workloads) {
      await roll(w, 2);
      if (w.app === 'cloneset' && unrelated) {
        const added = await addUnrelatedPods(c, namespace, unrelated.inNamespace, unrelated.inCluster, log);
        await sleep(3_000);
        await roll({ ...w, label: unrelatedLabel(w.label, unrelated) }, 3);
        await added.remove().catch((e: unknown) => log(`removing the unrelated pods: ${String(e)}`));
      }
      if (w.app !== 'deployment') await retire(w.app);
    }
    if (path.name !== 'node') return { profile: `${profile.name}, ${path.controller}`, model: model.describe(), bringUpMs, rollouts };
    if (!objects.has('deployment')) return { profile: profile.name, model: model.describe(), bringUpMs, rollouts };
    const zeroSurge = deployment(sizes, 0);
    await c.kube.patch(objects.get('deployment')! as KubeObject, { spec: { strategy: { rollingUpdate: { maxSurge: 0 } } } }, 'merge');
    await sleep(1_000);
    await roll(zeroSurge, 3);
    await retire('deployment');
    return { profile: profile.name, model: model.describe(), bringUpMs, rollouts };
  } finally {
    await deleteNamespaces(c.kube, [namespace]).catch((e: unknown) => log(`deleting ${namespace}: ${String(e)}`));
  }
}

const s1 = (ms: number | undefined) => (ms === undefined ? '-' : (ms / 1000).toFixed(1));
const ms0 = (ms: number | undefined) => (ms === undefined ? '-' : ms.toFixed(0));
const x2 = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '-' : `${v.toFixed(2)}×`);
const find = (f: ProfileFigures, label: string) => f.rollouts.find((r) => r.workload === label);
const ratio = (a?: number, b?: number) => (a !== undefined && b ? a / b : undefined);

/** Group 1: our rollouts against their ideal, and Ready → next write. */
export function overheadLines(f: ProfileFigures): string[] {
  const rows = f.rollouts.filter((r) => r.ours);
  return [
    `  ${'workload'.padEnd(40)} ${'pods'.padStart(5)} ${'wall s'.padStart(7)} ${'ideal s'.padStart(8)} ${'overhead'.padStart(9)}   Ready→next write p50 / p99 ms (n)`,
    ...rows.map((r) => r.error
      ? `  ${r.workload.padEnd(40)} failed: ${r.error}`
      : `  ${r.workload.padEnd(40)} ${String(r.pods).padStart(5)} ${s1(r.wallMs).padStart(7)} ${s1(r.idealMs).padStart(8)} ${x2(ratio(r.wallMs, r.idealMs)).padStart(9)}   ${ms0(percentile(r.readyToWriteMs ?? [], 0.5))} / ${ms0(percentile(r.readyToWriteMs ?? [], 0.99))} (${r.readyToWriteMs?.length ?? 0})`),
    '  per pod, median ms from the step before (who takes it):',
    ...rows.filter((r) => r.phases).map((r) => `    ${r.workload}: ${r.phases!.map((p) => `${p.name} +${p.ms.toFixed(0)} (${p.by})`).join(', ')}`),
  ];
}

const PAIRS: { ours: string; native: string; goal?: number }[] = [
  { ours: 'CloneSet in place', native: 'Deployment, maxSurge 25%' },
  { ours: 'CloneSet in place', native: 'Deployment, maxSurge 0', goal: 0.6 },
  { ours: 'Advanced StatefulSet Parallel in place', native: 'StatefulSet OrderedReady', goal: 0.5 },
  { ours: 'Advanced DaemonSet in place', native: 'DaemonSet', goal: 0.7 },
];

const VERBS = ['GET', 'LIST', 'WATCH', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Requests and response bytes by verb (LIST+ pages are LISTs). */
export function byVerb(t: ProxyTally): Record<string, { requests: number; bytes: number }> {
  const out: Record<string, { requests: number; bytes: number }> = {};
  for (const [key, v] of Object.entries(t)) {
    const verb = key.split(' ')[0]!.replace('LIST+', 'LIST');
    const o = (out[verb] ??= { requests: 0, bytes: 0 });
    o.requests += v.requests;
    o.bytes += v.bytes;
  }
  return out;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)}`;

/** The rollout's apiserver CPU less the idle rate over its window (the rollout plus its 5 s of settling). */
export const aboveIdleMs = (r: Rollout) => (r.apiserverCpuMs === undefined || r.apiserverIdleCpuPerS === undefined || r.wallMs === undefined ? undefined : r.apiserverCpuMs - r.apiserverIdleCpuPerS * (r.wallMs + 5_000));

/** Group 3: API-server cost per rollout, ours and native side by side; requests and response KiB by verb from each controller's counting proxy. */
export function costLines(f: ProfileFigures): string[] {
  const rows = f.rollouts.filter((r) => !r.error);
  const cpu = (r: Rollout) => (r.apiserverCpuMs === undefined ? '-' : (r.apiserverCpuMs / 1000).toFixed(2));
  const lines = [
    `  ${'workload'.padEnd(40)} ${'controller'.padEnd(24)} ${'writes'.padStart(7)} ${'requests'.padStart(9)} ${'resp KiB'.padStart(9)} ${'apiserver CPU s'.padStart(16)} ${'idle CPU s/s'.padStart(13)} ${'above idle s'.padStart(13)}   requests / response KiB by verb`,
    ...rows.map((r) => {
      const verbs = r.proxied ? byVerb(r.proxied) : undefined;
      const requests = verbs ? Object.values(verbs).reduce((n, v) => n + v.requests, 0) : r.apiCalls;
      const bytes = verbs ? Object.values(verbs).reduce((n, v) => n + v.bytes, 0) : undefined;
      const split = verbs ? VERBS.filter((v) => verbs[v]).map((v) => `${v} ${verbs[v]!.requests}/${kb(verbs[v]!.bytes)}`).join(', ') : '-';
      return `  ${r.workload.padEnd(40)} ${r.controller.padEnd(24)} ${String(r.writes ?? '-').padStart(7)} ${String(requests ?? '-').padStart(9)} ${(bytes === undefined ? '-' : kb(bytes)).padStart(9)} ${cpu(r).padStart(16)} ${(r.apiserverIdleCpuPerS === undefined ? '-' : r.apiserverIdleCpuPerS.toFixed(3)).padStart(13)} ${(aboveIdleMs(r) === undefined ? '-' : (aboveIdleMs(r)! / 1000).toFixed(2)).padStart(13)}   ${split}`;
    }),
  ];
  const top = rows.filter((r) => r.proxied).map((r) => `    ${r.workload} (${r.controller}): ${Object.entries(r.proxied!).sort((a, b) => b[1].requests - a[1].requests).slice(0, 8).map(([k, v]) => `${k} ${v.requests}/${kb(v.bytes)}`).join(', ')}`);
  const sum = (t: ProxyTally) => Object.values(t).reduce((a, v) => ({ requests: a.requests + v.requests, bytes: a.bytes + v.bytes }), { requests: 0, bytes: 0 });
  const meanwhile = rows.filter((r) => r.meanwhile).map((r) => {
    const m = sum(r.meanwhile!);
    return `    during ${r.workload}: ${r.ours ? 'kube-controller-manager' : 'the Node loop'} ${m.requests} requests / ${kb(m.bytes)} KiB (${Object.entries(r.meanwhile!).sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 4).map(([k, v]) => `${k} ${v.requests}/${kb(v.bytes)}`).join(', ')})`;
  });
  return [...lines, ...(top.length ? ['  top request keys (requests / response KiB):', ...top] : []), ...(meanwhile.length ? ['  the other counted client in the same window:', ...meanwhile] : [])];
}

/** Group 2: ours ÷ native, measured and as the model predicts (ideal ÷ ideal). */
export function nativeLines(f: ProfileFigures): string[] {
  const lines = [`  ${'ours / native'.padEnd(66)} ${'ours s'.padStart(7)} ${'native s'.padStart(9)} ${'ratio'.padStart(7)} ${'model'.padStart(7)} ${'ratio÷model'.padStart(12)} ${'native overhead'.padStart(16)}`];
  for (const p of PAIRS) {
    const a = find(f, p.ours);
    const b = find(f, p.native);
    const measured = ratio(a?.wallMs, b?.wallMs);
    const predicted = ratio(a?.idealMs, b?.idealMs);
    lines.push(`  ${`${p.ours} / ${p.native}`.padEnd(66)} ${s1(a?.wallMs).padStart(7)} ${s1(b?.wallMs).padStart(9)} ${x2(measured).padStart(7)} ${x2(predicted).padStart(7)} ${x2(ratio(measured, predicted)).padStart(12)} ${x2(ratio(b?.wallMs, b?.idealMs)).padStart(16)}`);
  }
  return lines;
}

/** The goals, one clause each: met or not, with the figure. */
export function modelGoals(all: readonly ProfileFigures[]): string[] {
  const goals: string[] = [];
  for (const f of all) {
    for (const r of f.rollouts.filter((x) => x.ours && !x.error)) {
      const over = ratio(r.wallMs, r.idealMs)!;
      const p50 = percentile(r.readyToWriteMs ?? [], 0.5);
      const p99 = percentile(r.readyToWriteMs ?? [], 0.99);
      const latency = r.controller.includes('Lambda')
        ? `p99 ${ms0(p99)} ms ${p99 !== undefined && p99 <= 1500 ? 'met' : 'NOT met'} (≤ 1500)`
        : `p50 ${ms0(p50)} ms ${p50 !== undefined && p50 <= 100 ? 'met' : 'NOT met'} (≤ 100), p99 ${ms0(p99)} ms ${p99 !== undefined && p99 <= 500 ? 'met' : 'NOT met'} (≤ 500)`;
      goals.push(`${f.profile} ${r.workload}: overhead ${over.toFixed(2)}× ${over <= 1.1 ? 'met' : 'NOT met'} (≤ 1.10); Ready→next write ${latency}`);
    }
    for (const p of PAIRS) {
      const a = find(f, p.ours);
      const b = find(f, p.native);
      const measured = ratio(a?.wallMs, b?.wallMs);
      const predicted = ratio(a?.idealMs, b?.idealMs);
      if (measured === undefined || predicted === undefined) continue;
      const off = measured / predicted;
      goals.push(`${f.profile} ${p.ours} / ${p.native}: ${measured.toFixed(2)}× vs the model's ${predicted.toFixed(2)}× ${Math.abs(off - 1) <= 0.1 ? 'met' : 'NOT met'} (within 10%)${p.goal !== undefined && f.profile.startsWith('heavy') ? `; ≤ ${p.goal}× ${measured <= p.goal ? 'met' : 'NOT met'}` : ''}`);
    }
  }
  for (const f of all) {
    const ours = find(f, 'CloneSet in place')?.apiserverCpuMs;
    const native = find(f, 'Deployment, maxSurge 25%')?.apiserverCpuMs;
    const plain = find(f, 'CloneSet in place');
    const crowded = f.rollouts.find((r) => r.workload.startsWith('CloneSet in place, +') && !r.error);
    if (plain?.apiserverCpuMs && crowded?.apiserverCpuMs) {
      const cpuRatio = crowded.apiserverCpuMs / plain.apiserverCpuMs;
      const reads = (r: Rollout) => Object.entries(r.proxied ?? {}).filter(([k]) => /^(GET|LIST)/.test(k)).reduce((n, [, v]) => n + v.bytes, 0);
      const readRatio = reads(plain) ? reads(crowded) / reads(plain) : undefined;
      const a = aboveIdleMs(crowded);
      const b = aboveIdleMs(plain);
      const above = a !== undefined && b ? `; above the idle rate ${(a / b).toFixed(2)}×` : '';
      goals.push(`${f.profile} ${crowded.workload.slice('CloneSet in place, '.length)}: apiserver CPU ${cpuRatio.toFixed(2)}× the plain run ${cpuRatio <= 1.2 ? 'met' : 'NOT met'} (≤ 1.2×)${above}, read bytes ${readRatio === undefined ? '-' : `${readRatio.toFixed(2)}×`}`);
    }
    if (ours !== undefined && native) goals.push(`${f.profile} apiserver CPU CloneSet in place / Deployment 25%: ${(ours / native).toFixed(2)}× ${ours / native <= 1.5 ? 'met' : 'NOT met'} (≤ 1.5×)`);
  }
  return goals;
}

export { POOL };
