// The port shared code records metrics into. Platforms bind it: Prometheus on Node
// (prometheus.ts), CloudWatch EMF on Lambda (emf.ts); elsewhere nothing is recorded.
import type { LabelsOf, MetricKey } from './catalog.js';

export interface MetricsPort {
  /** Adds `by` (1) to a counter. */
  count<K extends MetricKey>(key: K, labels: LabelsOf<K>, by?: number): void;
  /** One observation of a histogram (seconds for durations). */
  observe<K extends MetricKey>(key: K, labels: LabelsOf<K>, value: number): void;
  /** Sets a gauge. */
  set<K extends MetricKey>(key: K, labels: LabelsOf<K>, value: number): void;
}

export const NO_METRICS: MetricsPort = { count: () => undefined, observe: () => undefined, set: () => undefined };

export type Recorded = { kind: 'count' | 'observe' | 'set'; key: MetricKey; labels: Record<string, string>; value: number };

/** Keeps every call, in order (tests; and the EMF adapter's per-invocation buffer). */
export class RecordingMetrics implements MetricsPort {
  readonly records: Recorded[] = [];
  count<K extends MetricKey>(key: K, labels: LabelsOf<K>, by = 1): void {
    this.records.push({ kind: 'count', key, labels, value: by });
  }
  observe<K extends MetricKey>(key: K, labels: LabelsOf<K>, value: number): void {
    this.records.push({ kind: 'observe', key, labels, value });
  }
  set<K extends MetricKey>(key: K, labels: LabelsOf<K>, value: number): void {
    this.records.push({ kind: 'set', key, labels, value });
  }
  /** The sum of a counter's increments whose labels include `labels`. */
  total(key: MetricKey, labels: Record<string, string> = {}): number {
    return this.of(key, labels).reduce((n, r) => n + r.value, 0);
  }
  of(key: MetricKey, labels: Record<string, string> = {}): Recorded[] {
    return this.records.filter((r) => r.key === key && Object.entries(labels).every(([k, v]) => r.labels[k] === v));
  }
}
