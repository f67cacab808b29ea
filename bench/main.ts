// `npm run bench:all [-- <subject> …]` (default: every subject): the one entry point over bench/.
// Each subject (a folder here, its entry main.ts) runs in its own process, one after another; its
// full output goes to a file, and one table is printed at the end: per subject, how it ended, its
// wall time and its goals line. Figures are printed, never asserted. Subjects:
//   webhook    admission webhooks (runtime, SidecarSet, WorkloadSpread, PUB, the API server path)
//   reconcile  one reconcile invocation at scale (the Lambda path's cost)
//   cloneset   CloneSet rollouts, latency, resync
//   workloads  the kubelet model's figures and the workload sections against native controllers
//   jobs       BroadcastJob and AdvancedCronJob
//   edge-clusters  50 clusters on one edge against one alone (admission p50/p99, state per cluster)
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../test/cluster/control-plane.js';

const SUBJECTS = ['webhook', 'reconcile', 'cloneset', 'workloads', 'jobs', 'edge-clusters'] as const;
type Row = { subject: string; exit: string; seconds: number; goals: string; output: string };

const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = asked.filter((a) => !(SUBJECTS as readonly string[]).includes(a));
if (unknown.length) throw new Error(`no bench subject ${unknown.join(', ')} (subjects: ${SUBJECTS.join(', ')})`);
const chosen = asked.length ? asked : [...SUBJECTS];
const outDir = mkdtempSync(join(tmpdir(), 'ks-bench-all-'));

function runSubject(subject: string): Promise<Row> {
  const started = performance.now();
  const tsx = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
  const child = spawn(tsx, [join(REPO_ROOT, 'bench', subject, 'main.ts')], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => void (stdout += d));
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      const output = join(outDir, `${subject}.txt`);
      writeFileSync(output, stdout);
      const goals = stdout.split('\n').reverse().find((l) => l.startsWith('goals:'))?.slice('goals:'.length).trim() ?? '-';
      resolve({ subject, exit: signal ?? String(code), seconds: (performance.now() - started) / 1000, goals, output });
    });
  });
}

const rows: Row[] = [];
for (const subject of chosen) rows.push(await runSubject(subject));
const width = Math.max(...rows.map((r) => r.subject.length), 'subject'.length);
const lines = [
  `${'subject'.padEnd(width)}  exit  wall s  goals (full output)`,
  ...rows.map((r) => `${r.subject.padEnd(width)}  ${r.exit.padStart(4)}  ${r.seconds.toFixed(0).padStart(6)}  ${r.goals} (${r.output})`),
];
process.stdout.write(`${lines.join('\n')}\n`);
process.exitCode = rows.every((r) => r.exit === '0') ? 0 : 1;
