// Every metric the code records, in one place: the Prometheus and EMF adapters register from it,
// docs/metrics.md describes it, and the Grafana dashboard's test checks its queries against it.
export type MetricType = 'counter' | 'histogram' | 'gauge';
export type MetricDef<L extends string = string> = { name: string; type: MetricType; help: string; labels: readonly L[] };

const def = <L extends string>(name: string, type: MetricType, help: string, labels: readonly L[]): MetricDef<L> => ({ name, type, help, labels });

export const METRICS = {
  admissions: def('ks_admissions_total', 'counter', 'Admission reviews answered, by endpoint, verdict (allowed|denied) and code (200 when allowed).', ['endpoint', 'verdict', 'code']),
  admissionSeconds: def('ks_admission_duration_seconds', 'histogram', 'Time from a review arriving to its verdict, by endpoint and verdict.', ['endpoint', 'verdict']),
  fallbacks: def('ks_admission_fallbacks_total', 'counter', 'Handlers that did not answer from current state, by endpoint, feature and reason (stale|missing|timeout|error).', ['endpoint', 'feature', 'reason']),
  stateAge: def('ks_state_age_seconds', 'gauge', 'Age of the state a handler last read, per collection (since it was last known current).', ['collection']),
  reconcileRuns: def('ks_reconcile_runs_total', 'counter', 'Reconciler runs, by kind and result (ok|failed|skipped|dry_run).', ['kind', 'result']),
  reconcileErrors: def('ks_reconcile_errors_total', 'counter', 'Failed writes and failed runs, by kind.', ['kind']),
  reconcileSeconds: def('ks_reconcile_duration_seconds', 'histogram', 'Duration of a reconciler run, by kind.', ['kind']),
  apiRequests: def('ks_api_requests_total', 'counter', 'Kubernetes API calls sent (each attempt), by verb and HTTP code (0: no answer).', ['verb', 'code']),
  apiSeconds: def('ks_api_request_duration_seconds', 'histogram', 'Kubernetes API call latency (one attempt, until the answer), by verb.', ['verb']),
  apiQueueWait: def('ks_api_queue_wait_seconds', 'histogram', "Time an API call waited for the client's rate limit and in-flight slots.", []),
  pushes: def('ks_pushes_total', 'counter', 'Collections pushed to the edge, by collection and result (ok|failed).', ['collection', 'result']),
  pushAge: def('ks_push_age_seconds', 'gauge', "Seconds since a collection's last successful push.", ['collection']),
  loopTickAge: def('ks_loop_tick_age_seconds', 'gauge', 'Seconds since the reconcile loop last ticked (started a resync or finished a run).', []),
} as const;

export type MetricKey = keyof typeof METRICS;
export type LabelsOf<K extends MetricKey> = Record<(typeof METRICS)[K]['labels'][number], string>;

/** Every metric name, as Prometheus exposes them (a histogram's _bucket, _sum and _count included). */
export function exposedNames(): Set<string> {
  const names = new Set<string>();
  for (const m of Object.values(METRICS)) {
    names.add(m.name);
    if (m.type === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(m.name + s);
  }
  return names;
}

/** Histogram buckets (seconds): admissions answer in ms, API calls and runs take up to seconds. */
export const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
