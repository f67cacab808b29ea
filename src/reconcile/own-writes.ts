// The object versions a run's own writes produced, so that the Node loop can tell a change event
// it caused from one someone else did. Keyed by namespace, name and resourceVersion: etcd gives
// every write its own revision, so a key names exactly one write.
import type { KubeObject } from '../kube/http.js';

/** `<namespace>/<name>@<resourceVersion>`, or undefined for an object without a version. */
export function versionKey(o: KubeObject | undefined): string | undefined {
  const m = o?.metadata;
  if (!m?.name || !m.resourceVersion) return undefined;
  return `${m.namespace ?? ''}/${m.name}@${m.resourceVersion}`;
}

/** Keys are forgotten after this: a watch delivers an event well within it, or not at all. */
const KEEP_MS = 120_000;

/** Keys of runs' writes, each with when its run reported (the loop's clock). */
export class OwnWrites {
  private readonly reported = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  add(keys: readonly string[]): void {
    const t = this.now();
    for (const [k, at] of this.reported) if (at + KEEP_MS <= t) this.reported.delete(k);
    for (const k of keys) this.reported.set(k, t);
  }

  /** When the run that made this write reported it; undefined for someone else's write. */
  reportedAt(key: string): number | undefined {
    const at = this.reported.get(key);
    return at !== undefined && at + KEEP_MS > this.now() ? at : undefined;
  }
}

/**
 * What a change event asks of the Node loop, given the versions behind it (`causes`; null when
 * unknown): `run` for someone else's change; `covered` when every cause is a write of ours that a
 * run starting at `lastRunStart` or later observed; `defer` for own writes nobody observed yet.
 */
export function ownWriteVerdict(causes: ReadonlySet<string> | null, own: OwnWrites, lastRunStart: number): 'run' | 'covered' | 'defer' {
  if (!causes || causes.size === 0) return 'run';
  const reported = [...causes].map((c) => own.reportedAt(c));
  if (reported.some((at) => at === undefined)) return 'run';
  return reported.every((at) => at! <= lastRunStart) ? 'covered' : 'defer';
}
