// The telemetry layer's platform-neutral surface. Adapters that need Node (prometheus.ts,
// metrics-http.ts) are imported from their own files by Node entries only.
export { jsonLogger, parseLogLevel, logLine, LOG_LEVELS, type Logger, type LogLevel, type LogFields, type LineWriter } from './log.js';
export { METRICS, exposedNames, type MetricKey } from './catalog.js';
export { NO_METRICS, RecordingMetrics, type MetricsPort } from './metrics.js';
export { Health, readiness, type Readiness, type ReadinessLimits, type HealthSnapshot } from './health.js';
export { telemetry, configureTelemetry, resetTelemetry, parseDecisionSample, DEFAULT_DECISION_SAMPLE, type Telemetry, type AdmissionSink } from './telemetry.js';
export type { AdmissionRecord } from './admission-record.js';
export { recordAdmission, recordStateRead, recordReconcileRun, recordApiCall, recordPush, recordLoopTick } from './record.js';
