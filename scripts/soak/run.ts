// The soak: churn against a running system (startSystem, the same code path as `npm start`)
// for a while, with probes, optionally chaos cases, and a report. Stops by itself.
import { KubeHttp, type KubeObject } from '../../src/kube/http.js';
import { loadKubeConfig } from '../../src/kube/node-client.js';
import { FakeKubelet } from '../../test/cluster/fake-kubelet.js';
import type { System } from '../system.js';
import { CHAOS_CASES, runChaos, unavailable, type ChaosCase } from './chaos.js';
import { Churn, SOAK_LABEL } from './churn.js';
import { ChangeLatency, PushGaps, Refusals, ResourceSampler, type ResourceSample } from './probes.js';
import { overlaps, spread, type Spread } from './stats.js';

export type SoakOptions = { minutes: number; periodSeconds: number; namespaces: number; chaos: boolean | readonly ChaosCase[]; log: (m: string) => void };

export type ChaosVerdict = {
  case: ChaosCase;
  skipped?: string;
  /** Why the case could not be judged (e.g. the budget probe never became ready): a failure. */
  failed?: string;
  /** From the case's end until every collection was pushed again (NaN: not within the wait). */
  convergedMs: number;
  stalenessRefusals: number;
  /** Of those, pod creations: what the case may never refuse (an eviction of an unknown budget may be). */
  podCreationsRefused: number;
  unreachableRefusals: number;
  budget: { allowed: number; budget: number; podsLeft: number; minAvailable: number };
  ok: boolean;
};

export type SoakReport = {
  minutes: number;
  periodMs: number;
  steps: number;
  stalenessRefusals: number;
  /** Of those, outside the chaos cases' windows. */
  stalenessOutsideChaos: number;
  staleExamples: string[];
  otherRefusals: number;
  maxPushGapMs: Record<string, number>;
  worstPushGapMs: number;
  /** Changes made and observed outside the chaos cases' windows. */
  latency: Spread;
  latencyByKind: Record<string, Spread>;
  /** Changes whose wait overlapped a chaos case (reported apart, not held to the goal). */
  latencyDuringChaos: Spread;
  unobservedChanges: number;
  slowestChanges: { what: string; ms: number }[];
  queueWait: Spread | 'n/a';
  resources: { first: ResourceSample; last: ResourceSample; maxRssMb: number; maxHandles: number };
  chaos: ChaosVerdict[];
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The API client's request-queue figures, once KubeHttp offers them (read structurally). */
function queueWait(kube: KubeHttp): Spread | 'n/a' {
  const withStats = kube as unknown as { stats?: () => { queueWaitMs?: Spread } };
  return 'stats' in kube && typeof withStats.stats === 'function' ? (withStats.stats().queueWaitMs ?? 'n/a') : 'n/a';
}

const PROBE_PODS = 5;
const PROBE_MIN_AVAILABLE = 3;

/** A PUB (minAvailable 3 of 5 bare pods) evicted at from every side while a chaos case runs: never more than 2 may go. */
async function budgetProbe(kube: KubeHttp, ns: string, log: (m: string) => void): Promise<{ hammer(until: { done: boolean }): Promise<number>; podsLeft(): Promise<number> }> {
  await kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { [SOAK_LABEL]: 'true' } } });
  await kube.create({ apiVersion: 'policy.kruise.io/v1alpha1', kind: 'PodUnavailableBudget', metadata: { name: 'probe', namespace: ns }, spec: { selector: { matchLabels: { app: 'probe' } }, minAvailable: PROBE_MIN_AVAILABLE } });
  for (let i = 0; i < PROBE_PODS; i++) {
    await kube.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: `probe-${i}`, namespace: ns, labels: { app: 'probe' } }, spec: { automountServiceAccountToken: false, containers: [{ name: 'main', image: 'app:1' }] } });
  }
  const deadline = Date.now() + 120_000;
  for (;;) {
    const pub = await kube.get<KubeObject & { status?: { unavailableAllowed?: number; currentAvailable?: number } }>('policy.kruise.io/v1alpha1', 'PodUnavailableBudget', 'probe', ns);
    if (pub.status?.currentAvailable === PROBE_PODS && pub.status.unavailableAllowed === PROBE_PODS - PROBE_MIN_AVAILABLE) break;
    if (Date.now() > deadline) throw new Error(`budget probe ${ns}: the PUB never showed its pods available (${JSON.stringify(pub.status)})`);
    await sleep(500);
  }
  log(`budget probe ${ns}: ${PROBE_PODS} pods, minAvailable ${PROBE_MIN_AVAILABLE}, ready`);
  const podsLeft = async () => (await kube.list('v1', 'Pod', { namespace: ns, labelSelector: 'app=probe' })).items.filter((p) => !p.metadata?.deletionTimestamp).length;
  return {
    podsLeft,
    async hammer(until) {
      let allowed = 0;
      const evicted = new Set<string>();
      while (!until.done) {
        await Promise.all(Array.from({ length: PROBE_PODS }, (_, i) => `probe-${i}`).filter((n) => !evicted.has(n)).map(async (name) => {
          try {
            await kube.request('POST', `/api/v1/namespaces/${ns}/pods/${name}/eviction`, { body: { apiVersion: 'policy/v1beta1', kind: 'Eviction', metadata: { name, namespace: ns } } });
            evicted.add(name);
            allowed += 1;
          } catch {
            // refused (budget, stale state, unreachable edge, paused API server): try again
          }
        }));
        await sleep(500);
      }
      return allowed;
    },
  };
}

export async function runSoak(system: System, opts: SoakOptions): Promise<SoakReport> {
  const { log } = opts;
  const periodMs = opts.periodSeconds * 1000;
  const kube = await KubeHttp.fromKubeConfig(loadKubeConfig(system.kubeconfig));
  const refusals = new Refusals();
  const latency = new ChangeLatency(kube, `${SOAK_LABEL}=true`);
  const gaps = new PushGaps(system.edge);
  const resources = new ResourceSampler();
  const kubelet = new FakeKubelet(kube, 500);
  const churn = new Churn(kube, refusals, latency, { namespaces: opts.namespaces, stepMs: 2000 });
  await kubelet.addNodes([{ name: 'soak-a', labels: { 'topology.kubernetes.io/zone': 'a' } }, { name: 'soak-b', labels: { 'topology.kubernetes.io/zone': 'b' } }]);
  kubelet.start();
  latency.start();
  await churn.setUp();
  const started = Date.now();
  const endAt = started + opts.minutes * 60_000;
  gaps.start();
  resources.start(5000);
  churn.start();
  log(`soak: ${opts.namespaces} namespaces, ${opts.minutes} min, push period ${opts.periodSeconds} s`);

  const verdicts: ChaosVerdict[] = [];
  const cases = opts.chaos === true ? CHAOS_CASES : opts.chaos === false ? [] : opts.chaos;
  const progress = setInterval(() => log(`soak: ${Math.round((Date.now() - started) / 1000)} s, ${churn.steps} steps, ${refusals.count('staleness')} staleness refusals, worst push gap ${Math.round(Math.max(0, ...gaps.maxGapMs.values()) / 1000)} s`), 30_000);
  try {
    await sleep(Math.min(periodMs, Math.max(0, endAt - Date.now())));
    for (const [i, c] of cases.entries()) {
      const skipped = unavailable(c, system);
      if (skipped) {
        verdicts.push({ case: c, skipped, convergedMs: Number.NaN, stalenessRefusals: 0, podCreationsRefused: 0, unreachableRefusals: 0, budget: { allowed: 0, budget: 0, podsLeft: 0, minAvailable: 0 }, ok: true });
        continue;
      }
      const probe = await budgetProbe(kube, `soak-probe-${i}`, log).catch((e: unknown) => (e instanceof Error ? e.message : String(e)));
      if (typeof probe === 'string') {
        const v: ChaosVerdict = { case: c, failed: probe, convergedMs: Number.NaN, stalenessRefusals: 0, podCreationsRefused: 0, unreachableRefusals: 0, budget: { allowed: 0, budget: 0, podsLeft: 0, minAvailable: 0 }, ok: false };
        log(`chaos ${c}: ${formatVerdict(v)}`);
        verdicts.push(v);
        continue;
      }
      const from = Date.now();
      const window = { from, to: Number.POSITIVE_INFINITY };
      gaps.excused.push(window);
      const until = { done: false };
      const hammering = probe.hammer(until);
      await runChaos(c, system, log);
      const ended = Date.now();
      // Converged: every collection pushed again after the case ended.
      let convergedMs = Number.NaN;
      while (Date.now() < ended + 2 * periodMs + 10_000) {
        const seen = await gaps.summary();
        const wanted = [...gaps.maxGapMs.keys(), ...gaps.excusedMaxGapMs.keys()];
        if (seen && wanted.length && wanted.every((k) => (seen[k] ?? 0) > ended)) {
          convergedMs = Date.now() - ended;
          break;
        }
        await sleep(500);
      }
      until.done = true;
      const allowed = await hammering;
      window.to = Date.now();
      const podsLeft = await probe.podsLeft();
      const v: ChaosVerdict = {
        case: c, convergedMs,
        stalenessRefusals: refusals.count('staleness', window), podCreationsRefused: refusals.count('staleness', window, 'create pod'),
        unreachableRefusals: refusals.count('edge-unreachable', window),
        budget: { allowed, budget: PROBE_PODS - PROBE_MIN_AVAILABLE, podsLeft, minAvailable: PROBE_MIN_AVAILABLE },
        ok: false,
      };
      v.ok = convergedMs <= periodMs && v.podCreationsRefused === 0 && allowed <= PROBE_PODS - PROBE_MIN_AVAILABLE && podsLeft >= PROBE_MIN_AVAILABLE;
      log(`chaos ${c}: ${formatVerdict(v)}`);
      verdicts.push(v);
      await kube.delete({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `soak-probe-${i}` } }).catch(() => undefined);
    }
    await sleep(Math.max(0, endAt - Date.now()));
  } finally {
    clearInterval(progress);
    await churn.stop();
    gaps.stop();
    resources.stop();
    await latency.stop();
    await kubelet.stop();
  }
  await gaps.poll();
  await churn.tearDown();
  await kubelet.removeAllNodes().catch(() => undefined);
  kube.close();

  const samples = resources.samples;
  const stale = refusals.all.filter((r) => r.cause === 'staleness');
  return {
    minutes: (Date.now() - started) / 60_000, periodMs, steps: churn.steps,
    stalenessRefusals: stale.length, stalenessOutsideChaos: stale.filter((r) => !overlaps(r.sentAt, r.at, gaps.excused)).length, staleExamples: [...new Set(stale.map((r) => `${r.what}: ${r.message.replace(/\(\d+(\.\d+)?s old/, '(…s old')}`))].slice(0, 5),
    otherRefusals: refusals.all.length - stale.length,
    maxPushGapMs: Object.fromEntries(gaps.maxGapMs), worstPushGapMs: Math.max(0, ...gaps.maxGapMs.values()),
    ...latencySpreads(latency.timed, gaps.excused),
    unobservedChanges: latency.unobserved(),
    slowestChanges: latency.slowest,
    queueWait: queueWait(system.kube),
    resources: { first: samples[0]!, last: samples[samples.length - 1]!, maxRssMb: Math.max(...samples.map((s) => s.rssMb)), maxHandles: Math.max(...samples.map((s) => s.handles)) },
    chaos: verdicts,
  };
}

function formatVerdict(v: ChaosVerdict): string {
  if (v.skipped) return `skipped (${v.skipped})`;
  if (v.failed) return `FAIL: not run: ${v.failed}`;
  const conv = Number.isFinite(v.convergedMs) ? `${(v.convergedMs / 1000).toFixed(1)} s` : 'not within 2 periods';
  return `${v.ok ? 'PASS' : 'FAIL'}: converged after ${conv}; ${v.stalenessRefusals} refusals for staleness, ${v.podCreationsRefused} of them pod creations (${v.unreachableRefusals} for an unreachable edge); budget: ${v.budget.allowed} evictions allowed of ${v.budget.budget}, ${v.budget.podsLeft} pods left (minAvailable ${v.budget.minAvailable})`;
}

const f = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ms` : 'n/a');
const fs = (s: Spread) => `p50 ${f(s.p50)}, p99 ${f(s.p99)}, max ${f(s.max)} (${s.count} samples)`;

export function formatReport(r: SoakReport): string {
  const goal = (ok: boolean) => (ok ? 'ok' : 'MISSED');
  const res = r.resources;
  return [
    `soak report (${r.minutes.toFixed(1)} min, push period ${r.periodMs / 1000} s, ${r.steps} churn steps)`,
    `  admissions refused for staleness: ${r.stalenessRefusals}, ${r.stalenessOutsideChaos} outside chaos cases (goal 0 outside: ${goal(r.stalenessOutsideChaos === 0)})`,
    ...r.staleExamples.map((e) => `    e.g. ${e}`),
    `  other refused calls (conflicts, budgets, not found, ...): ${r.otherRefusals}`,
    `  longest gap between pushes: ${(r.worstPushGapMs / 1000).toFixed(1)} s (goal ≤ ${(2 * r.periodMs) / 1000} s: ${goal(r.worstPushGapMs <= 2 * r.periodMs)})`,
    ...Object.entries(r.maxPushGapMs).map(([c, g]) => `    ${c}: ${(g / 1000).toFixed(1)} s`),
    `  change → first controller write: ${fs(r.latency)} (goal p99 ≤ 1 s: ${goal(r.latency.p99 <= 1000)}); never observed: ${r.unobservedChanges}`,
    ...Object.entries(r.latencyByKind).map(([k, s]) => `    ${k}: ${fs(s)}`),
    ...(r.latencyDuringChaos.count ? [`    during chaos cases (not held to the goal): ${fs(r.latencyDuringChaos)}`] : []),
    `    slowest: ${r.slowestChanges.map((c) => `${c.what} ${(c.ms / 1000).toFixed(1)} s`).join('; ') || 'none'}`,
    `  API client queue wait: ${r.queueWait === 'n/a' ? 'n/a (KubeHttp has no stats() yet)' : fs(r.queueWait)}`,
    `  RSS: first ${res.first.rssMb.toFixed(0)} MB, last ${res.last.rssMb.toFixed(0)} MB, max ${res.maxRssMb.toFixed(0)} MB; heap first ${res.first.heapMb.toFixed(0)} MB, last ${res.last.heapMb.toFixed(0)} MB`,
    `  open handles (getActiveResourcesInfo): first ${res.first.handles} (${res.first.timers} timers), last ${res.last.handles} (${res.last.timers} timers), max ${res.maxHandles}`,
    ...r.chaos.map((v) => `  chaos ${v.case}: ${formatVerdict(v)}`),
  ].join('\n');
}

/** The change latencies outside the chaos windows (overall and by kind), and those inside them. */
function latencySpreads(timed: readonly { at: number; ms: number; kind: string }[], windows: readonly { from: number; to: number }[]): Pick<SoakReport, 'latency' | 'latencyByKind' | 'latencyDuringChaos'> {
  const inChaos = (t: { at: number; ms: number }) => overlaps(t.at, t.at + t.ms, windows);
  const outside = timed.filter((t) => !inChaos(t));
  const byKind = new Map<string, number[]>();
  for (const t of outside) byKind.set(t.kind, [...(byKind.get(t.kind) ?? []), t.ms]);
  return {
    latency: spread(outside.map((t) => t.ms)),
    latencyByKind: Object.fromEntries([...byKind].map(([k, s]) => [k, spread(s)])),
    latencyDuringChaos: spread(timed.filter(inChaos).map((t) => t.ms)),
  };
}
