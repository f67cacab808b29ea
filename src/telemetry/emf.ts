// The metrics port as CloudWatch Embedded Metric Format (Lambda): records are held during an
// invocation, aggregated per metric and label set, and written as EMF log lines when it ends
// (`flush`). CloudWatch Logs extracts the metrics from those lines; no agent or SDK is involved.
// https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
import { METRICS, type LabelsOf, type MetricKey } from './catalog.js';
import type { MetricsPort } from './metrics.js';

export const EMF_NAMESPACE = 'KruiseServerless';
/** EMF allows at most 100 values per metric in one line. */
const MAX_VALUES = 100;

/**
 * The metric by all its labels, by each label alone, and without any: CloudWatch alarms match
 * dimensions exactly, so the roll-ups are what an alarm can watch (all failed pushes, every fallback).
 */
export function dimensionSets(labels: readonly string[]): string[][] {
  if (labels.length === 0) return [[]];
  return [[...labels], ...(labels.length > 1 ? labels.map((l) => [l]) : []), []];
}

type Held = { key: MetricKey; labels: Record<string, string>; values: number[] };

export class EmfMetrics implements MetricsPort {
  private held = new Map<string, Held>();

  constructor(private readonly namespace: string = EMF_NAMESPACE, private readonly now: () => number = Date.now) {}

  count<K extends MetricKey>(key: K, labels: LabelsOf<K>, by = 1): void {
    const h = this.slot(key, labels);
    h.values[0] = (h.values[0] ?? 0) + by;
  }
  observe<K extends MetricKey>(key: K, labels: LabelsOf<K>, value: number): void {
    this.slot(key, labels).values.push(value);
  }
  set<K extends MetricKey>(key: K, labels: LabelsOf<K>, value: number): void {
    this.slot(key, labels).values = [value];
  }

  /** The EMF lines for what was recorded since the last flush (then forgotten). */
  flush(): string[] {
    const timestamp = this.now();
    const lines: string[] = [];
    for (const h of this.held.values()) {
      const m = METRICS[h.key];
      const unit = m.type === 'counter' ? 'Count' : 'Seconds';
      for (let i = 0; i < h.values.length; i += MAX_VALUES) {
        const chunk = h.values.slice(i, i + MAX_VALUES);
        lines.push(JSON.stringify({
          _aws: { Timestamp: timestamp, CloudWatchMetrics: [{ Namespace: this.namespace, Dimensions: dimensionSets(Object.keys(h.labels)), Metrics: [{ Name: m.name, Unit: unit }] }] },
          ...h.labels,
          [m.name]: chunk.length === 1 ? chunk[0] : chunk,
        }));
      }
    }
    this.held = new Map();
    return lines;
  }

  private slot(key: MetricKey, labels: Record<string, string>): Held {
    const id = `${key}\n${JSON.stringify(labels)}`;
    let h = this.held.get(id);
    if (!h) this.held.set(id, (h = { key, labels: { ...labels }, values: [] }));
    return h;
  }
}
