// The table of rollouts measured by bench/cluster/watched-rollout.ts, for the sections of
// `npm run bench:workloads`. Figures only.
import { describeWrites, isWriteKey, total, type Tally } from './counting.js';
import { median } from '../cloneset/report.js';
import { tableRow } from '../harness/report.js';
import type { Progress } from './rollout-watch.js';
import type { WatchedRollout } from './watched-rollout.js';

export const s1 = (ms: number | undefined, digits = 1) => (ms === undefined ? '-' : (ms / 1000).toFixed(digits));
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '-');
export const x2 = (r: number) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : '-');
const writeTotal = (t: Tally) => total(t, isWriteKey);
const podWrites = (t: Tally) => total(t, (k) => / pods(\/status)?$/.test(k));
export const met = (ok: boolean) => (ok ? 'met' : 'NOT met');

export const ours = (r: { results: WatchedRollout[] }) => r.results.find((x) => x.controller === 'Node loop');
export const native = (r: { results: WatchedRollout[] }) => r.results.find((x) => x.controller !== 'Node loop');

/** Pods done within this of each other count as one step (the kubelet reports a batch in one pass). */
const STEP_GAP_MS = 50;

function milestones(x: WatchedRollout): string {
  const p: Progress = x.progress;
  const at = (k: number) => s1(p.doneMs[k - 1], 2);
  const half = Math.ceil(x.replicas / 2);
  const gaps = p.doneMs.slice(1).map((t, i) => t - p.doneMs[i]!).filter((g) => g >= STEP_GAP_MS);
  return `first pod touched ${s1(p.firstTouchedMs, 2)} s; pods done: 1 at ${at(1)} s, ${half} at ${at(half)} s, ${x.replicas} at ${at(x.replicas)} s; ` +
    `${gaps.length + 1} steps (pods done < ${STEP_GAP_MS} ms apart are one), median ${ms(median(gaps))} ms apart; longest pause ${ms(x.longestPause.ms)} ms (after ${x.longestPause.after} done)`;
}

/** Each step's median per pod, and the sum by who takes the steps. */
function phases(x: WatchedRollout): string {
  const by = new Map<string, number>();
  for (const p of x.phases) by.set(p.by, (by.get(p.by) ?? 0) + (Number.isFinite(p.ms) ? p.ms : 0));
  const steps = x.phases.map((p, i) => `${i === 0 ? '' : '→ '}${p.name} +${ms(p.ms)} (${p.by}${p.pods === x.replicas ? '' : `, ${p.pods} pods`})`).join(' ');
  return `${steps}; sum ${[...by].map(([a, t]) => `${a} ${ms(t)}`).join(', ')} ms`;
}

/** The table, milestones, per-step medians and writes of some rollouts (ours: controller 'Node loop'). */
export function watchedRolloutLines(r: { results: WatchedRollout[]; failures: { workload: string; error: string }[] }, namespace: string): string[] {
  const w = [22, 24, 7, 9, 10, 7, 8, 8, 6];
  const lines = [tableRow(['workload', 'controller', 'wall s', 'status s', 'recreated', 'writes', 'per pod', 'pod/pod', 'runs'], w)];
  for (const x of r.results) {
    const all = writeTotal(x.writes);
    lines.push(tableRow([x.workload, x.controller, s1(x.wallMs, 2), s1(x.statusMs, 2), String(x.recreated), String(all), (all / x.replicas).toFixed(2), (podWrites(x.writes) / x.replicas).toFixed(2), x.runs === undefined ? '-' : String(x.runs)], w));
  }
  const o = ours(r);
  const n = native(r);
  if (o && n) {
    lines.push(`  ours / native: wall ${x2(o.wallMs / n.wallMs)}, status ${x2(o.statusMs / n.statusMs)}, writes ${x2(writeTotal(o.writes) / writeTotal(n.writes))}, pod writes ${x2(podWrites(o.writes) / podWrites(n.writes))}`);
  }
  lines.push('  when pods were done (at the new image and Ready; seconds after the spec change, as watch events arrived):');
  for (const x of r.results) lines.push(`    ${x.workload}: ${milestones(x)}`);
  lines.push('  one pod\'s update, median ms per step (the first from the last pod done before it, or the spec change):');
  for (const x of r.results) lines.push(`    ${x.workload}: ${phases(x)}`);
  lines.push('  writes by resource (the controller\'s):');
  for (const x of r.results) lines.push(`    ${x.workload}: ${describeWrites(x.writes)}${x.runs !== undefined ? `; ${x.runs} reconcile runs (${ms((x.busyMs ?? NaN) / x.runs)} ms each on average, ${ms(x.busyMs ?? NaN)} ms in all; ${x.apiCalls} API requests), ${x.conflicts} conflicts, ${x.failed ?? 0} failed writes` : ''}`);
  lines.push('  API server\'s count less the fake kubelet\'s, the scheduler\'s, the API server\'s own and this process\'s writes:');
  for (const x of r.results) lines.push(`    ${x.workload}: ${writeTotal(x.attributed)} (${describeWrites(x.attributed)}); not counted: scheduler ${x.scheduler}, kubelet ${x.kubelet}, API server ${x.apiserver}; the Node loop's own count ${x.loop} (${x.loopElsewhere} outside ${namespace} and kruise-system)`);
  for (const f of r.failures) lines.push(`  ${f.workload}: FAILED: ${f.error}`);
  return lines;
}


/** "<goal>: met|NOT met (ratio)" for ours against native by wall time, then any failed rollouts. */
export function goalLines(r: { results: WatchedRollout[]; failures: { workload: string; error: string }[] }, goal: string, limit: number): string[] {
  const o = ours(r);
  const n = native(r);
  const failed = r.failures.map((f) => `${f.workload} rollout FAILED (${f.error})`);
  if (!o || !n) return failed;
  const ratio = o.wallMs / n.wallMs;
  return [`${goal}: ${met(ratio <= limit)} (${x2(ratio)})`, ...failed];
}
