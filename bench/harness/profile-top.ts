// The heaviest functions of a V8 CPU profile (.cpuprofile: bench/webhook/worker-profile.ts, node --cpu-prof),
// by self and by inclusive time, idle excluded, optionally per call of what was profiled.
// Usage: node --import tsx bench/harness/profile-top.ts <file.cpuprofile> [calls] [rows]
import { readFileSync } from 'node:fs';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const [file, callsArg, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [calls] [rows]');
const calls = Number(callsArg ?? 1);
const rows = Number(rowsArg ?? 40);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop() ?? ''}:${n.callFrame.lineNumber + 1}`;

const selfUs = new Map<string, number>();
const totalUs = new Map<string, number>();
let busy = 0;
profile.samples.forEach((id, i) => {
  const node = byId.get(id)!;
  const us = profile.timeDeltas[i] ?? 0;
  if (node.callFrame.functionName === '(idle)') return;
  busy += us;
  selfUs.set(label(node), (selfUs.get(label(node)) ?? 0) + us);
  const seen = new Set<string>(); // recursion counts once
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const l = label(byId.get(at)!);
    if (seen.has(l)) continue;
    seen.add(l);
    totalUs.set(l, (totalUs.get(l) ?? 0) + us);
  }
});

const per = calls > 1 ? ` (µs per call over ${calls})` : ' (µs)';
for (const [title, m] of [['self', selfUs], ['inclusive', totalUs]] as const) {
  process.stdout.write(`== ${title}, ${(busy / 1000).toFixed(0)} ms busy${per}\n`);
  for (const [l, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    process.stdout.write(`${((100 * us) / busy).toFixed(1).padStart(6)}% ${(us / calls).toFixed(0).padStart(7)}  ${l}\n`);
  }
}
