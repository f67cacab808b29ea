// Workers' metrics: one Analytics Engine data point per admission, when the ADMISSIONS dataset is
// bound (wrangler.toml); without the binding nothing is written. Logs are JSON lines on the
// console (KS_LOG_LEVEL, KS_DECISION_LOG_SAMPLE as vars), seen with `wrangler tail`.
import type { AdmissionRecord } from '../../src/telemetry/admission-record.js';
import { jsonLogger, parseLogLevel, type LogLevel } from '../../src/telemetry/log.js';
import { configureTelemetry, DEFAULT_DECISION_SAMPLE, parseDecisionSample, type AdmissionSink } from '../../src/telemetry/telemetry.js';
import type { AnalyticsEngineDataset, Env } from './platform.js';

/**
 * The data point of one admission. Blobs: clusterId, endpoint, verdict, fallbacks
 * ("feature:reason" joined by spaces). Doubles: latency ms, code, fallback count. Index: clusterId.
 */
export function admissionDataPoint(r: AdmissionRecord): { indexes: string[]; blobs: string[]; doubles: number[] } {
  return {
    indexes: [r.clusterId],
    blobs: [r.clusterId, r.endpoint, r.verdict, r.fallbacks.map((f) => `${f.feature}:${f.reason}`).join(' ')],
    doubles: [r.latencyMs, r.code, r.fallbacks.length],
  };
}

export function analyticsSink(dataset: AnalyticsEngineDataset): AdmissionSink {
  return (r) => dataset.writeDataPoint(admissionDataPoint(r));
}

/**
 * Configures the isolate's telemetry from its bindings. A malformed setting falls back to the
 * default with a warning rather than failing every request (the webhooks must keep answering).
 */
export function configureWorkerTelemetry(env: Env): void {
  const problems: string[] = [];
  const parsed = <T>(parse: () => T, fallback: T): T => {
    try {
      return parse();
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e));
      return fallback;
    }
  };
  const level = parsed<LogLevel>(() => parseLogLevel(env.KS_LOG_LEVEL), 'info');
  const decisionSample = parsed(() => parseDecisionSample(env.KS_DECISION_LOG_SAMPLE), DEFAULT_DECISION_SAMPLE);
  const log = jsonLogger({ level });
  configureTelemetry({ log, decisionSample, admissionSinks: env.ADMISSIONS ? [analyticsSink(env.ADMISSIONS)] : [] });
  for (const p of problems) log.warn('setting ignored', { problem: p });
}
