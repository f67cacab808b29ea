// What /readyz reports: how old the state is, per collection, and whether the reconcile loop is
// alive. Recorded as the code runs (the loop's ticks, pushes, state reads); judged by `readiness`.
export type HealthSnapshot = {
  /** When the reconcile loop last ticked (ms since epoch); absent when no loop runs here. */
  lastTickAt?: number;
  /** Per collection: when its last successful push started (the LIST it sent was taken then). */
  pushedAt: Record<string, number>;
  /** Per collection: how old the state a handler last read was then (a live read: about 0). */
  stateAgeMs: Record<string, number>;
};

export class Health {
  private lastTickAt: number | undefined;
  private readonly pushedAt = new Map<string, number>();
  private readonly stateAgeMs = new Map<string, number>();

  tick(at: number): void {
    this.lastTickAt = at;
  }
  pushed(collection: string, at: number): void {
    this.pushedAt.set(collection, at);
  }
  stateRead(collection: string, ageMs: number): void {
    this.stateAgeMs.set(collection, ageMs);
  }
  private limits: ReadinessLimits = {};
  /** Adds what this process must satisfy to be ready (the loop's tick, the collections it pushes, the state the webhooks read). */
  require(limits: ReadinessLimits): void {
    this.limits = { ...this.limits, ...limits };
  }
  report(now: number): Readiness {
    return readiness(this.snapshot(), now, this.limits);
  }
  snapshot(): HealthSnapshot {
    return {
      ...(this.lastTickAt === undefined ? {} : { lastTickAt: this.lastTickAt }),
      pushedAt: Object.fromEntries(this.pushedAt),
      stateAgeMs: Object.fromEntries(this.stateAgeMs),
    };
  }
}

export type ReadinessLimits = {
  /** A loop runs here and must have ticked within this long. */
  maxTickAgeMs?: number;
  /** These collections must have been pushed, each within maxPushAgeMs. */
  pushed?: { collections: readonly string[]; maxPushAgeMs: number };
  /** State handlers read must be no older than this. */
  maxStateAgeMs?: number;
};

export type Readiness = {
  ready: boolean;
  /** Why not ready, one sentence each (empty when ready). */
  reasons: string[];
  loop?: { lastTickAgeSeconds: number | null };
  pushes?: Record<string, { ageSeconds: number | null }>;
  state: Record<string, { ageSeconds: number }>;
};

/** Ready when the loop (if any) ticked recently, every pushed collection is fresh, and no collection's last read was too old. */
export function readiness(h: HealthSnapshot, now: number, limits: ReadinessLimits): Readiness {
  const reasons: string[] = [];
  const seconds = (ms: number) => Math.round(ms) / 1000;
  const out: Readiness = { ready: true, reasons, state: {} };
  if (limits.maxTickAgeMs !== undefined) {
    const age = h.lastTickAt === undefined ? undefined : now - h.lastTickAt;
    out.loop = { lastTickAgeSeconds: age === undefined ? null : seconds(age) };
    if (age === undefined) reasons.push('the reconcile loop has not ticked yet');
    else if (age > limits.maxTickAgeMs) reasons.push(`the reconcile loop last ticked ${seconds(age)} s ago (limit ${seconds(limits.maxTickAgeMs)} s)`);
  }
  if (limits.pushed) {
    const { collections, maxPushAgeMs } = limits.pushed;
    out.pushes = {};
    for (const c of collections) {
      const at = h.pushedAt[c];
      out.pushes[c] = { ageSeconds: at === undefined ? null : seconds(now - at) };
      if (at === undefined) reasons.push(`collection "${c}" has not been pushed yet`);
      else if (now - at > maxPushAgeMs) reasons.push(`collection "${c}" was last pushed ${seconds(now - at)} s ago (limit ${seconds(maxPushAgeMs)} s)`);
    }
  }
  for (const [c, age] of Object.entries(h.stateAgeMs).sort(([a], [b]) => a.localeCompare(b))) {
    // Unknown age (a snapshot without times) counts as too old.
    out.state[c] = { ageSeconds: Number.isFinite(age) ? seconds(age) : -1 };
    if (limits.maxStateAgeMs !== undefined && !(age <= limits.maxStateAgeMs)) reasons.push(`the last read of state "${c}" was ${Number.isFinite(age) ? `${seconds(age)} s old` : 'of unknown age'} (limit ${seconds(limits.maxStateAgeMs)} s)`);
  }
  out.ready = reasons.length === 0;
  return out;
}
