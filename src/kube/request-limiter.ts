// The API client's request budget: a token bucket (QPS with a burst) and a cap on requests in
// flight, both waited for in arrival order. Watches are not counted here (see KubeHttp.watch):
// a long-running watch must never hold a request's place.

/** Time as the limiter sees it; tests pass a fake one so waits take no real time. */
export type Clock = { now(): number; sleep(ms: number): Promise<void> };

export const realClock: Clock = {
  now: () => performance.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export type LimiterOptions = { qps: number; burst: number; maxInFlight: number; clock?: Clock };

export type QueueWaitStats = { count: number; p50: number; p99: number; max: number };

export type RequestStats = { requests: number; inFlight: number; queued: number; queueWaitMs: QueueWaitStats };

/** How many of the latest waits the percentiles are computed over. */
const WAIT_SAMPLES = 1024;

export class RequestLimiter {
  private readonly clock: Clock;
  private tokens: number;
  private refilledAt: number;
  /** Token takers in arrival order: each waits for the one before it. */
  private tokenTurn: Promise<void> = Promise.resolve();
  private inFlight = 0;
  private readonly slotWaiters: (() => void)[] = [];
  private queued = 0;
  private sent = 0;
  private readonly waits = new RecentSamples(WAIT_SAMPLES);

  constructor(private readonly opts: LimiterOptions) {
    if (!(opts.qps > 0) || !(opts.burst >= 1) || !(opts.maxInFlight >= 1)) {
      throw new Error(`request limits need qps > 0, burst ≥ 1 and maxInFlight ≥ 1 (got qps ${opts.qps}, burst ${opts.burst}, maxInFlight ${opts.maxInFlight})`);
    }
    this.clock = opts.clock ?? realClock;
    this.tokens = opts.burst;
    this.refilledAt = this.clock.now();
  }

  /** Waits for a token and a free slot; the returned function gives the slot back (once). */
  async acquire(): Promise<() => void> {
    const asked = this.clock.now();
    this.queued += 1;
    try {
      const turn = this.tokenTurn.then(() => this.takeToken());
      this.tokenTurn = turn;
      await turn;
      await this.takeSlot();
    } finally {
      this.queued -= 1;
    }
    this.sent += 1;
    this.waits.add(this.clock.now() - asked);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.slotWaiters.shift();
      if (next) next();
      else this.inFlight -= 1;
    };
  }

  stats(): RequestStats {
    return { requests: this.sent, inFlight: this.inFlight, queued: this.queued, queueWaitMs: this.waits.summary() };
  }

  private refill(): void {
    const now = this.clock.now();
    this.tokens = Math.min(this.opts.burst, this.tokens + ((now - this.refilledAt) * this.opts.qps) / 1000);
    this.refilledAt = now;
  }

  private async takeToken(): Promise<void> {
    this.refill();
    while (this.tokens < 1) {
      await this.clock.sleep(((1 - this.tokens) * 1000) / this.opts.qps);
      this.refill();
    }
    this.tokens -= 1;
  }

  private takeSlot(): Promise<void> {
    if (this.inFlight < this.opts.maxInFlight) {
      this.inFlight += 1;
      return Promise.resolve();
    }
    // A released slot passes straight to the first waiter (inFlight stays the same).
    return new Promise((resolve) => this.slotWaiters.push(resolve));
  }
}

/** The last `size` values in a ring, plus the count and maximum of all of them. */
export class RecentSamples {
  private readonly ring: number[] = [];
  private next = 0;
  private count = 0;
  private max = 0;

  constructor(private readonly size: number) {}

  add(v: number): void {
    if (this.ring.length < this.size) this.ring.push(v);
    else this.ring[this.next] = v;
    this.next = (this.next + 1) % this.size;
    this.count += 1;
    this.max = Math.max(this.max, v);
  }

  summary(): QueueWaitStats {
    const sorted = [...this.ring].sort((a, b) => a - b);
    const at = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);
    return { count: this.count, p50: at(0.5), p99: at(0.99), max: this.max };
  }
}
