// The in-process debouncer (Node and Lambda webhook hosts): the pure decisions of debounce.ts
// with one timer for the next held event. What is held lives in this process only, so several
// processes each coalesce their own share. A Lambda environment is frozen between invocations:
// a held event whose timer falls in a frozen spell goes out when the environment next runs
// (during a rollout, the next status change), or the reconciler's own wake-up covers it.
import type { ChangeDebouncer, ChangeEvent, ChangeSink } from './contracts.js';
import { closeWindows, DEBOUNCE_WINDOW_MS, nextDue, offerEvents, type DebounceState } from './debounce.js';

export type TimerDebouncerOptions = { windowMs?: number; now?: () => number; onError?: (e: unknown) => void };

export class TimerDebouncer implements ChangeDebouncer {
  private state: DebounceState = {};
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly windowMs: number;
  private readonly now: () => number;

  constructor(private readonly sink: ChangeSink, private readonly opts: TimerDebouncerOptions = {}) {
    this.windowMs = opts.windowMs ?? DEBOUNCE_WINDOW_MS;
    this.now = opts.now ?? Date.now;
  }

  async offer(_clusterId: string, events: readonly ChangeEvent[]): Promise<ChangeEvent[]> {
    const { send, next } = offerEvents(this.state, events, this.now(), this.windowMs);
    this.state = next;
    this.arm();
    return send;
  }

  /** Stops the timer; held events are dropped (the reconcilers' wake-ups and schedule cover them). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const due = nextDue(this.state);
    if (due === undefined) return;
    this.timer = setTimeout(() => this.flush(), Math.max(0, due - this.now()));
    // Never keeps a process alive by itself.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private flush(): void {
    const { send, next } = closeWindows(this.state, this.now(), this.windowMs);
    this.state = next;
    this.arm();
    if (send.length) this.sink.publish(send).catch((e: unknown) => this.opts.onError?.(e));
  }
}
