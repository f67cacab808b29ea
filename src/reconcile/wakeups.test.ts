import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_TIMER_MS, WakeUps, type Timers } from './wakeups.js';
import { runLoop } from './loop.js';
import type { KubeHttp } from '../kube/http.js';
import { emptyPlan, type Reconciler, type RunReport } from './types.js';

/** Timers driven by hand: `advance(ms)` fires what falls due, in time order. */
function manualTimers() {
  let now = 0;
  let seq = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    now: () => now,
    set: (fn, ms) => (due.set(++seq, { at: now + ms, fn }), seq),
    clear: (h) => void due.delete(h as number),
  };
  const advance = (ms: number) => {
    const until = now + ms;
    for (;;) {
      const next = [...due].sort((a, b) => a[1].at - b[1].at)[0];
      if (!next || next[1].at > until) break;
      due.delete(next[0]);
      now = next[1].at;
      next[1].fn();
    }
    now = until;
  };
  return { timers, advance, pending: () => due.size };
}

describe('WakeUps', () => {
  it('a wake-up beyond the longest timer (a yearly cron, 300 days away) fires then, not at once', () => {
    const t = manualTimers();
    // As Node does: a delay over 2^31-1 ms fires right away.
    const set = t.timers.set;
    const asked: number[] = [];
    t.timers.set = (fn, ms) => (asked.push(ms), set(fn, ms > MAX_TIMER_MS ? 1 : ms));
    const w = new WakeUps(t.timers);
    const fired: number[] = [];
    const day = 86_400_000;
    w.schedule('acj', 300 * day, () => fired.push(t.timers.now()));
    t.advance(299 * day);
    expect(fired).toEqual([]);
    expect(w.size).toBe(1);
    t.advance(2 * day);
    expect(fired).toEqual([300 * day]);
    expect(asked.every((ms) => ms <= MAX_TIMER_MS)).toBe(true);
    expect(asked.length).toBe(Math.ceil((300 * day) / MAX_TIMER_MS));
  });

  it('a timer that fires early (before the wake-up is due) is re-armed with what remains', () => {
    const t = manualTimers();
    const set = t.timers.set;
    t.timers.set = (fn, ms) => set(fn, ms - Math.min(40, Math.floor(ms / 2)));
    const w = new WakeUps(t.timers);
    const fired: number[] = [];
    w.schedule('k', 100, () => fired.push(t.timers.now()));
    t.advance(1_000);
    expect(fired).toEqual([100]);
  });

  it('an earlier request replaces a far one', () => {
    const t = manualTimers();
    const w = new WakeUps(t.timers);
    const fired: string[] = [];
    w.schedule('k', 40 * 86_400_000, () => fired.push('far'));
    w.schedule('k', 1_000, () => fired.push('near'));
    t.advance(50 * 86_400_000);
    expect(fired).toEqual(['near']);
  });

  it('keeps one wake-up per key, the earliest winning', () => {
    const t = manualTimers();
    const w = new WakeUps(t.timers);
    const fired: string[] = [];
    w.schedule('a', 5_000, () => fired.push('a@5s'));
    w.schedule('a', 1_000, () => fired.push('a@1s'));
    w.schedule('a', 3_000, () => fired.push('a@3s'));
    w.schedule('b', 2_000, () => fired.push('b@2s'));
    expect(w.size).toBe(2);
    expect(t.pending()).toBe(2);
    t.advance(10_000);
    expect(fired).toEqual(['a@1s', 'b@2s']);
    expect(w.size).toBe(0);
  });

  it('schedules again once the pending one fired', () => {
    const t = manualTimers();
    const w = new WakeUps(t.timers);
    let n = 0;
    const again = () => {
      n++;
      w.schedule('k', 1_000, again);
    };
    w.schedule('k', 1_000, again);
    t.advance(10_000);
    expect(n).toBe(10);
    expect(w.size).toBe(1);
    w.cancelAll();
    expect(t.pending()).toBe(0);
  });
});

describe('runLoop wake-ups', () => {
  afterEach(() => vi.useRealTimers());

  it('a reconciler that always asks to be requeued runs at a steady rate across resyncs', async () => {
    vi.useFakeTimers();
    const reconciler: Reconciler = { kind: 'Stuck', apiVersion: 'x/v1', observe: async () => ({}), decide: () => emptyPlan() };
    const runs: number[] = [];
    const report = (): RunReport => ({
      reconciler: 'Stuck', acted: true, dryRun: false, plan: { ...emptyPlan(), requeueAfterMs: 5_000 },
      applied: 0, conflicts: 0, failed: [], apiCalls: 0, durationMs: 0,
    });
    const stop = new AbortController();
    const loop = runLoop({
      kube: {} as KubeHttp, reconcilers: [reconciler], watch: false, resyncEveryMs: 30_000, signal: stop.signal,
      run: async () => (runs.push(Date.now()), report()),
    });
    // Ten minutes: 20 resyncs. Without deduplication each resync adds a chain (≈ 20 × 120 runs).
    for (let i = 0; i < 600; i++) await vi.advanceTimersByTimeAsync(1_000);
    stop.abort();
    await loop;
    // One chain every 5 s plus the resyncs: ≈ 120 + 20 runs.
    expect(runs.length).toBeGreaterThan(100);
    expect(runs.length).toBeLessThan(160);
  });
});
