// Step 5 of a takeover: every reconciler ran once in dry-run; a cluster OpenKruise left in a
// steady state must get no pod write from us (no create, update, patch, status write or delete).
// Any planned one is listed with its reconciler and reason, and stops the takeover unless --force.
// Pure.
import type { RunReport, Write } from '../reconcile/types.js';

export type PlannedPodWrite = { reconciler: string; op: string; pod: string; reason: string };

const podOf = (w: Write): string | undefined => {
  if (w.op === 'create' || w.op === 'update') return w.object.kind === 'Pod' ? `${w.object.metadata?.namespace ?? ''}/${w.object.metadata?.name ?? ''}` : undefined;
  return w.target.kind === 'Pod' ? `${w.target.namespace ?? ''}/${w.target.name}` : undefined;
};

export function plannedPodWrites(reports: readonly RunReport[]): PlannedPodWrite[] {
  const out: PlannedPodWrite[] = [];
  for (const r of reports) {
    for (const w of r.plan.writes) {
      const pod = podOf(w);
      if (pod) out.push({ reconciler: r.reconciler, op: w.op, pod, reason: w.reason });
    }
    for (const s of r.plan.status) {
      if (s.target.kind === 'Pod') out.push({ reconciler: r.reconciler, op: 'status', pod: `${s.target.namespace ?? ''}/${s.target.name}`, reason: s.reason });
    }
  }
  return out;
}

/** The plan as the takeover prints it: one line per write, pods first. */
export function planLines(reports: readonly RunReport[]): string[] {
  const lines: string[] = [];
  for (const r of reports) {
    const n = r.plan.writes.length + r.plan.status.length;
    lines.push(`  ${r.reconciler}: ${n === 0 ? 'nothing to write' : `${n} write(s)`}`);
    for (const w of r.plan.writes) lines.push(`    ${w.op} ${'object' in w ? `${w.object.kind}/${w.object.metadata?.name ?? ''}` : `${w.target.kind}/${w.target.name}`}: ${w.reason}`);
    for (const s of r.plan.status) lines.push(`    status ${s.target.kind}/${s.target.name}: ${s.reason}`);
  }
  return lines;
}
