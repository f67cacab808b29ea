// The text a `--dry-run` prints: one line per planned API call, in the order act applies them,
// and the same labels act uses when it reports a failed write.
import type { EventNote, LedgerWrite, ObjectRef, Plan, StatusWrite, Write } from './types.js';

/** `ConfigMap ns-1/game-demo`, or `ResourceDistribution sample` for a cluster-scoped object. */
export function describeRef(ref: { kind?: string; name?: string; namespace?: string }): string {
  return `${ref.kind ?? '?'} ${ref.namespace ? `${ref.namespace}/` : ''}${ref.name ?? '?'}`;
}

function writeTarget(w: Write): ObjectRef | { kind?: string; name?: string; namespace?: string } {
  if (w.op === 'create' || w.op === 'update') return { kind: w.object.kind, name: w.object.metadata?.name, namespace: w.object.metadata?.namespace };
  return w.target;
}

/** `create ConfigMap ns-1/game-demo`, `patch (merge) …`: what the write does, without why. */
export function describeWrite(w: Write): string {
  const verb = w.op === 'patch' ? `patch (${w.patchType})` : w.op;
  const sub = w.op === 'patch' && w.subresource ? `/${w.subresource}` : '';
  return `${verb} ${describeRef(writeTarget(w))}${sub}`;
}

export function describeStatus(s: StatusWrite): string {
  return `status ${describeRef(s.target)}`;
}

export function describeEvent(e: EventNote): string {
  return `event ${e.type} ${e.reason} on ${describeRef(e.regarding)}`;
}

export function describeLedgerWrite(l: LedgerWrite): string {
  return `ledger ${l.ref.kind} ${l.ref.namespace ? `${l.ref.namespace}/` : ''}${l.ref.name} ${l.op}`;
}

function duration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

export function formatPlan(plan: Plan): string {
  const lines = [
    ...plan.writes.map((w) => `${describeWrite(w)} — ${w.reason}`),
    ...plan.status.flatMap((s) => [
      `${describeStatus(s)} {${Object.keys(s.status).sort().join(', ')}}${s.metadata ? ` with metadata {${Object.keys(s.metadata).sort().join(', ')}}` : ''} — ${s.reason}`,
      ...(s.then ? [`then ${describeWrite(s.then)} — ${s.then.reason}`] : []),
    ]),
    ...plan.writes.flatMap((w) => (w.event ? [`${describeEvent(w.event)}: ${w.event.message} (once ${describeWrite(w)} is applied)`] : [])),
    ...plan.events.map((e) => `${describeEvent(e)}: ${e.message}`),
    ...(plan.ledgers ?? []).map((l) => `${describeLedgerWrite(l)} — ${l.reason}`),
  ];
  if (plan.requeueAfterMs !== undefined) lines.push(`requeue after ${duration(plan.requeueAfterMs)}`);
  return lines.length ? lines.join('\n') : 'no changes';
}
