// The metrics port over prom-client (Node only: the webhook server and the reconcile loop).
// Every catalog metric is registered up front, so a scrape lists them all before the first event.
// Push and loop-tick ages are computed at scrape time from the health record.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { METRICS, SECONDS_BUCKETS, type LabelsOf, type MetricKey } from './catalog.js';
import type { MetricsPort } from './metrics.js';
import type { HealthSnapshot } from './health.js';

type AnyMetric = Counter<string> | Gauge<string> | Histogram<string>;

export class PrometheusMetrics implements MetricsPort {
  readonly registry = new Registry();
  private readonly metrics = new Map<MetricKey, AnyMetric>();

  constructor(health: () => HealthSnapshot, now: () => number = Date.now, opts: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    for (const [key, m] of Object.entries(METRICS) as [MetricKey, (typeof METRICS)[MetricKey]][]) {
      const common = { name: m.name, help: m.help, labelNames: [...m.labels] as string[], registers };
      if (key === 'pushAge') {
        this.metrics.set(key, new Gauge({ ...common, collect() {
          this.reset();
          for (const [collection, at] of Object.entries(health().pushedAt)) this.set({ collection }, (now() - at) / 1000);
        } }));
      } else if (key === 'loopTickAge') {
        this.metrics.set(key, new Gauge({ ...common, collect() {
          const at = health().lastTickAt;
          this.reset();
          if (at !== undefined) this.set((now() - at) / 1000);
        } }));
      } else if (m.type === 'counter') this.metrics.set(key, new Counter(common));
      else if (m.type === 'histogram') this.metrics.set(key, new Histogram({ ...common, buckets: SECONDS_BUCKETS }));
      else this.metrics.set(key, new Gauge(common));
    }
    if (opts.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  count<K extends MetricKey>(key: K, labels: LabelsOf<K>, by = 1): void {
    (this.metrics.get(key) as Counter<string>).inc(labels as Record<string, string>, by);
  }
  observe<K extends MetricKey>(key: K, labels: LabelsOf<K>, value: number): void {
    (this.metrics.get(key) as Histogram<string>).observe(labels as Record<string, string>, value);
  }
  set<K extends MetricKey>(key: K, labels: LabelsOf<K>, value: number): void {
    (this.metrics.get(key) as Gauge<string>).set(labels as Record<string, string>, value);
  }

  /** The text exposition format, and its content type. */
  async expose(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
