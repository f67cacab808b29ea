// The hooks shared code calls: one call per event, each recording metrics, health and logs
// through the configured telemetry (telemetry.ts).
import { telemetry } from './telemetry.js';
import { decisionFields, decisionLevel, decisionLogged, type AdmissionRecord } from './admission-record.js';

export function recordAdmission(r: AdmissionRecord): void {
  const t = telemetry();
  try {
    const verdict = r.verdict;
    t.metrics.count('admissions', { endpoint: r.endpoint, verdict, code: String(r.code) });
    t.metrics.observe('admissionSeconds', { endpoint: r.endpoint, verdict }, r.latencyMs / 1000);
    for (const f of r.fallbacks) t.metrics.count('fallbacks', { endpoint: r.endpoint, feature: f.feature, reason: f.reason });
    if (decisionLogged(r, t.decisionSample, t.random())) t.log[decisionLevel(r)]('admission', decisionFields(r));
    for (const sink of t.admissionSinks) sink(r);
  } catch {
    // Telemetry never fails an admission.
  }
}

/** A handler read a collection whose snapshot was `ageMs` old (Infinity: unknown). */
export function recordStateRead(collection: string, ageMs: number): void {
  const t = telemetry();
  t.health.stateRead(collection, ageMs);
  if (Number.isFinite(ageMs)) t.metrics.set('stateAge', { collection }, Math.max(0, ageMs) / 1000);
}

/** A run's outcome: metrics only (the loop and the Lambda handler report failures in their own lines). */
export type RunOutcome = { acted: boolean; dryRun: boolean; failedWrites: number } | { threw: unknown };

export function recordReconcileRun(kind: string, outcome: RunOutcome, durationMs: number): void {
  const t = telemetry();
  const threw = 'threw' in outcome;
  const result = threw ? 'failed' : outcome.dryRun ? 'dry_run' : !outcome.acted ? 'skipped' : outcome.failedWrites ? 'failed' : 'ok';
  t.metrics.count('reconcileRuns', { kind, result });
  const errors = threw ? 1 : outcome.failedWrites;
  if (errors) t.metrics.count('reconcileErrors', { kind }, errors);
  t.metrics.observe('reconcileSeconds', { kind }, durationMs / 1000);
}

/** One API call attempt: `code` 0 when no answer came. */
export function recordApiCall(verb: string, code: number, queueWaitMs: number, latencyMs: number): void {
  const t = telemetry();
  t.metrics.count('apiRequests', { verb, code: String(code) });
  t.metrics.observe('apiSeconds', { verb }, latencyMs / 1000);
  t.metrics.observe('apiQueueWait', {}, queueWaitMs / 1000);
}

/** A collection pushed to the edge (`startedAt`: when its LIST was taken), or a failed push. */
export function recordPush(collection: string, ok: boolean, startedAt: number): void {
  const t = telemetry();
  t.metrics.count('pushes', { collection, result: ok ? 'ok' : 'failed' });
  if (ok) t.health.pushed(collection, startedAt);
}

/** The reconcile loop is alive: it started a resync or finished a run. */
export function recordLoopTick(at: number = Date.now()): void {
  telemetry().health.tick(at);
}
