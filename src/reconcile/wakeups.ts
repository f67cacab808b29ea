// Scheduled wake-ups of the Node loop: at most one pending per (reconciler, scope key), the
// earliest asked-for time winning. Without it every full resync whose plan asks to be requeued
// started one more timer chain, and none of them ever ended: a stuck rollout made the loop busier
// every resync.
export type Timers = {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
  now(): number;
};

export const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  now: () => Date.now(),
};

type Pending = { at: number; handle: unknown };

/**
 * The longest single timer: Node fires a setTimeout longer than 2^31−1 ms (~24.8 days) at once
 * (TimeoutOverflowWarning), so a far wake-up (a yearly cron) is a chain of timers, each re-armed
 * with what remains of the wait.
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

export class WakeUps {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly timers: Timers = realTimers) {}

  /** Runs `fire` in `ms` under `key`, unless a wake-up for `key` is already due no later. */
  schedule(key: string, ms: number, fire: () => void): void {
    const at = this.timers.now() + Math.max(0, ms);
    const held = this.pending.get(key);
    if (held && held.at <= at) return;
    if (held) this.timers.clear(held.handle);
    const arm = (): void => {
      const entry: Pending = { at, handle: undefined };
      entry.handle = this.timers.set(() => {
        if (this.pending.get(key) !== entry) return;
        if (this.timers.now() < at) return arm();
        this.pending.delete(key);
        fire();
      }, Math.min(MAX_TIMER_MS, Math.max(0, at - this.timers.now())));
      this.pending.set(key, entry);
    };
    arm();
  }

  /** How many wake-ups are pending (for tests and logs). */
  get size(): number {
    return this.pending.size;
  }

  /** Drops the wake-up pending under `key`, if any. */
  cancel(key: string): void {
    const held = this.pending.get(key);
    if (!held) return;
    this.timers.clear(held.handle);
    this.pending.delete(key);
  }

  cancelAll(): void {
    for (const p of this.pending.values()) this.timers.clear(p.handle);
    this.pending.clear();
  }
}
