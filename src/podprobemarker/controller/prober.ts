// The Node loop's prober: runs each target's probe at most once per periodSeconds, after the
// container has run initialDelaySeconds, and reports a state once it held successThreshold
// (or failureThreshold) probes in a row, as OpenKruise's node agent does (daemon/podprobe/
// worker.go). A container not running fails at once: "Container(<name>) is Non-running". It
// remembers results in memory: a restarted loop starts over, as the agent does. Node only.
import type { ProbeState } from '../types.js';
import { runProbe, type Outcome } from './net-probe.js';
import type { ProbeResult, Prober } from './results.js';
import type { ProbeTarget } from './targets.js';

type Memory = { lastRunAt: number; last?: ProbeState; run: number; reported?: ProbeResult };

/** `run` is the probe itself (replaced in tests). */
export class NetProber implements Prober {
  private readonly memory = new Map<string, Memory>();

  constructor(private readonly run: (t: ProbeTarget) => Promise<Outcome> = (t) => runProbe(t.action, t.timeoutSeconds)) {}

  async probe(targets: readonly ProbeTarget[], now: Date): Promise<Map<string, ProbeResult>> {
    const live = new Set(targets.map((t) => t.key));
    for (const key of this.memory.keys()) if (!live.has(key)) this.memory.delete(key);
    await Promise.all(targets.map((t) => this.probeOne(t, now)));
    const out = new Map<string, ProbeResult>();
    for (const t of targets) {
      const reported = this.memory.get(t.key)?.reported;
      if (reported) out.set(t.key, reported);
    }
    return out;
  }

  private report(m: Memory, state: ProbeState, message: string, at: string): void {
    const changedAt = m.reported?.state === state ? m.reported.changedAt : at;
    m.reported = { state, message, probedAt: at, changedAt };
  }

  private async probeOne(t: ProbeTarget, now: Date): Promise<void> {
    const m = this.memory.get(t.key) ?? { lastRunAt: Number.NEGATIVE_INFINITY, run: 0 };
    this.memory.set(t.key, m);
    const at = now.toISOString();
    if (!t.container.running) {
      this.report(m, 'Failed', `Container(${t.containerName}) is Non-running`, at);
      return;
    }
    const started = t.container.startedAt ? Date.parse(t.container.startedAt) || 0 : 0;
    if (now.getTime() - started < t.initialDelaySeconds * 1000) return;
    if (now.getTime() - m.lastRunAt < t.periodSeconds * 1000) return;
    m.lastRunAt = now.getTime();
    const outcome = await this.run(t);
    const state: ProbeState = outcome.ok ? 'Succeeded' : 'Failed';
    m.run = m.last === state ? m.run + 1 : 1;
    m.last = state;
    if (m.run < (state === 'Failed' ? t.failureThreshold : t.successThreshold)) return;
    this.report(m, state, outcome.message, at);
  }
}
