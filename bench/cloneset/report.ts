// The tables and the goals line `npm run bench:cloneset` prints at the end. Figures only: the goals
// are compared and printed, never asserted.
import { describeWrites, isWriteKey, total, type Tally } from '../cluster/counting.js';
import type { LatencyResult, PathLatency } from './latency.js';
import { SMALL_YOUNG_GENERATION, listsOf, pagesOf, type ResyncStep } from './resync.js';
import type { Rollouts } from './rollout.js';
import { tableRow } from '../harness/report.js';

export const GOALS = { inPlaceVsDeployment: 0.5, writesPerPod: 3, peakRssMb: 150 } as const;

export type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };
export type Results = {
  rollouts: Outcome<Rollouts>;
  resyncs: Outcome<ResyncStep[]>;
  latency: Outcome<LatencyResult>;
  /** The part-1 Node loop process: runs and peak RSS over bring-up and both CloneSet rollouts. */
  loop?: { runs: number; peakRssMb: number };
};

export const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};
const s1 = (ms: number) => (ms / 1000).toFixed(1);
const x2 = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '-');
const podWrites = (t: Tally) => total(t, (k) => / pods(\/status)?$/.test(k));
const leaseWrites = (t: Tally) => total(t, (k) => isWriteKey(k) && k.endsWith(' leases'));
const writeTotal = (t: Tally) => total(t, isWriteKey);

function rolloutLines(r: Rollouts): string[] {
  const deploy = r.results.find((x) => x.workload.startsWith('Deployment'));
  const w = [27, 24, 7, 9, 8, 10, 7, 8, 9];
  const lines = [tableRow(['workload', 'controller', 'wall s', 'status s', '/Deploy', 'recreated', 'writes', 'per pod', 'pod/pod'], w)];
  for (const x of r.results) {
    const all = writeTotal(x.writes);
    lines.push(tableRow([x.workload, x.controller, s1(x.wallMs), s1(x.statusMs), deploy ? x2(x.wallMs / deploy.wallMs) : '-', String(x.recreated), String(all), (all / x.replicas).toFixed(2), (podWrites(x.writes) / x.replicas).toFixed(2)], w));
  }
  lines.push('  writes by resource (the controller\'s):');
  for (const x of r.results) lines.push(`    ${x.workload}: ${describeWrites(x.writes)}${x.runs !== undefined ? `; ${x.runs} reconcile runs, ${x.conflicts} conflicts` : ''}`);
  lines.push('  API server\'s count (apiserver_request_total) less the fake kubelet\'s, the scheduler\'s (pods/binding, events.k8s.io), the API server\'s own (endpoints) and this process\'s writes:');
  for (const x of r.results) lines.push(`    ${x.workload}: ${writeTotal(x.attributed)} (${describeWrites(x.attributed)}); not counted: scheduler ${x.scheduler}, kubelet ${x.kubelet}, API server ${x.apiserver}; the Node loop's own count ${x.loop} (${x.loopElsewhere} of them outside ${'bench-rollout'} and kruise-system)`);
  for (const f of r.failures) lines.push(`  ${f.workload}: FAILED: ${f.error}`);
  lines.push(`  bring-up of the three workloads together: ${s1(r.bringUpMs)} s`);
  return lines;
}

function resyncLines(steps: ResyncStep[]): string[] {
  const w = [10, 7, 8, 6, 6, 9, 8, 7, 10, 9, 9];
  const lines = [tableRow(['CloneSets', 'pods', 'setup s', 'LISTs', 'pages', 'requests', 'obj wr', 'lease', 'median ms', 'peak MB', 'idle MB'], w, 0)];
  for (const s of steps) {
    const f = s.runs[0]!;
    const objectWrites = Math.max(...s.runs.map((r) => writeTotal(r.tally) - leaseWrites(r.tally)));
    lines.push(tableRow([String(s.cloneSets), String(s.pods), s1(s.setupMs), String(listsOf(f)), String(pagesOf(f)), String(total(f.tally)), String(objectWrites), String(leaseWrites(f.tally)),
      median(s.runs.map((r) => r.wallMs)).toFixed(0), Math.max(...s.runs.map((r) => r.peakRssMb)).toFixed(0), s.idle.peakRssMb.toFixed(0)], w, 0));
  }
  for (const s of steps) {
    const y = s.smallYoungRuns;
    if (y.length) lines.push(`  ${s.cloneSets} CloneSets under node ${SMALL_YOUNG_GENERATION.join(' ')}: median ${median(y.map((r) => r.wallMs)).toFixed(0)} ms, peak ${Math.max(...y.map((r) => r.peakRssMb)).toFixed(0)} MB, ${Math.max(...y.map((r) => writeTotal(r.tally) - leaseWrites(r.tally)))} object writes`);
  }
  for (const s of steps) lines.push(`  ${s.cloneSets} CloneSets, requests of one resync: ${Object.entries(s.runs[0]!.tally).sort().map(([k, v]) => `${k} ${v}`).join(', ')}; setup: ${s.setupPasses} full resyncs, ${s.setupWrites} writes`);
  return lines;
}

function latencyLines(l: LatencyResult): string[] {
  const w = [30, 8, 8, 8, 8, 10];
  const ms = (xs: number[], f: (xs: number[]) => number) => (xs.length ? f(xs).toFixed(0) : '-');
  const row = (p: PathLatency) => tableRow([p.path, String(p.firstWriteMs.length), ms(p.firstWriteMs, median), ms(p.firstWriteMs, (xs) => Math.min(...xs)), ms(p.firstWriteMs, (xs) => Math.max(...xs)), ms(p.patchMs, median)], w, 1);
  return [
    tableRow(['path', 'samples', 'p50 ms', 'min ms', 'max ms', 'PATCH ms'], w, 1),
    row(l.node),
    row(l.lambda),
    `  Lambda / Node loop p50: ${x2(median(l.lambda.firstWriteMs) / median(l.node.firstWriteMs))}; API round trip (GET) p50 ${median(l.roundTripMs).toFixed(1)} ms`,
    ...[l.node, l.lambda].flatMap((p) => p.failures.map((f) => `  ${p.path}: FAILED sample ${f}`)),
  ];
}

const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

export function goalsLine(r: Results): string {
  const parts: string[] = [];
  if (r.rollouts.ok) {
    const d = r.rollouts.value.results.find((x) => x.workload.startsWith('Deployment'));
    const ip = r.rollouts.value.results.find((x) => x.workload.includes('InPlace'));
    if (d && ip) {
      const ratio = ip.wallMs / d.wallMs;
      const all = writeTotal(ip.writes) / ip.replicas;
      const pods = podWrites(ip.writes) / ip.replicas;
      parts.push(`in-place ≤ ${GOALS.inPlaceVsDeployment}× Deployment: ${met(ratio <= GOALS.inPlaceVsDeployment)} (${x2(ratio)})`);
      parts.push(`in-place writes per updated pod ≤ ${GOALS.writesPerPod}: ${met(all <= GOALS.writesPerPod)} counting every write (${all.toFixed(2)}), ${met(pods <= GOALS.writesPerPod)} counting pod writes only (${pods.toFixed(2)})`);
    }
    for (const f of r.rollouts.value.failures) parts.push(`${f.workload} rollout FAILED (${f.error})`);
  } else parts.push(`rollouts: failed (${r.rollouts.error})`);
  if (r.resyncs.ok && r.resyncs.value.length) {
    const steps = r.resyncs.value;
    const lists = steps.map((s) => listsOf(s.runs[0]!));
    const objectWrites = Math.max(...steps.flatMap((s) => s.runs.map((f) => writeTotal(f.tally) - leaseWrites(f.tally))));
    const rss = Math.max(...steps.flatMap((s) => s.runs.map((f) => f.peakRssMb)));
    parts.push(`LISTs independent of object count: ${met(new Set(lists).size === 1)} (${steps.map((s, i) => `${lists[i]} at ${s.cloneSets}`).join(', ')})`);
    parts.push(`no-op resync writes nothing: ${met(objectWrites === 0)} (${objectWrites} object writes; the lease's own writes not counted)`);
    parts.push(`peak RSS ≤ ${GOALS.peakRssMb} MB: ${met(rss <= GOALS.peakRssMb)} (${rss.toFixed(0)} MB)`);
  } else if (!r.resyncs.ok) parts.push(`resyncs: failed (${r.resyncs.error})`);
  if (!r.latency.ok) parts.push(`first write: failed (${r.latency.error})`);
  else {
    const failed = r.latency.value.node.failures.length + r.latency.value.lambda.failures.length;
    parts.push(`first pod write (no goal): Lambda ${x2(median(r.latency.value.lambda.firstWriteMs) / median(r.latency.value.node.firstWriteMs))} the Node loop at p50${failed ? `; ${failed} samples FAILED` : ''}`);
  }
  return `goals: ${parts.join('; ')}`;
}

export function report(r: Results, sizes: { replicas: number; podsEach: number }): string[] {
  const section = <T>(title: string, o: Outcome<T>, lines: (v: T) => string[]) => ['', title, ...(o.ok ? lines(o.value) : [`  failed: ${o.error}`])];
  return [
    ...section(`1. image change, ${sizes.replicas} replicas, maxUnavailable 20% (wall: spec change → every pod at the new image and Ready; status: → the workload's status says so)`, r.rollouts, rolloutLines),
    ...(r.loop ? [`  the Node loop process (3 × ${sizes.replicas} pods on the cluster): ${r.loop.runs} runs in all, peak RSS ${r.loop.peakRssMb.toFixed(0)} MB`] : []),
    ...section(`2. no-op full resync (reconcile --once, CloneSets only; ${sizes.podsEach} pods each; 3 runs, each in its own process)`, r.resyncs, resyncLines),
    ...section('3. CloneSet image change → first pod write (p50 over the samples)', r.latency, latencyLines),
    '',
    goalsLine(r),
  ];
}
