// The reconcilers of every cluster on one edge, pushing in the background: each cluster once per
// period (its pods churned first, so a push carries changes), spread evenly over the period, one
// push at a time. Started and stopped around each measured round; counts and times every push.
import type { Registered } from './edge.js';
import { Edge } from './edge.js';

export class BackgroundPushes {
  private running: Promise<void> | undefined;
  private stopping = false;
  private next = 0;
  private readonly ms: number[] = [];
  private failed = 0;

  constructor(
    private readonly clusters: readonly Registered[],
    private readonly periodMs: number,
    private readonly log: (msg: string) => void,
  ) {}

  get count(): number {
    return this.ms.length + this.failed;
  }

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
    this.running = undefined;
  }

  private async loop(): Promise<void> {
    const slotMs = this.periodMs / this.clusters.length;
    let due = performance.now();
    while (!this.stopping) {
      const wait = due - performance.now();
      if (wait > 0) await this.sleep(wait);
      if (this.stopping) return;
      due += slotMs;
      const r = this.clusters[this.next++ % this.clusters.length]!;
      r.cluster.churn();
      const t0 = performance.now();
      try {
        await Edge.push(r);
        this.ms.push(performance.now() - t0);
      } catch (e) {
        if (this.failed++ === 0) this.log(`push of ${r.cluster.id} failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }

  /** Sleeps up to `ms`, waking early when stopped. */
  private async sleep(ms: number): Promise<void> {
    const until = performance.now() + ms;
    while (!this.stopping && performance.now() < until) await new Promise((r) => setTimeout(r, Math.min(100, until - performance.now())));
  }

  figures(): { count: number; failures: number; p50Ms: number; p99Ms: number } {
    const sorted = [...this.ms].sort((a, b) => a - b);
    const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]! : NaN);
    return { count: this.count, failures: this.failed, p50Ms: at(0.5), p99Ms: at(0.99) };
  }
}
