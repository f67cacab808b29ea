// The process's (isolate's, execution environment's) telemetry: the logger, the metrics port,
// the health record /readyz reads, and where each admission's record goes. Platform entries
// configure it once at start (until then nothing is logged or recorded). Shared code reads it
// through `telemetry()` when it records, so a hook is one call and no layer threads a recorder
// through its signatures.
import { SILENT_LOGGER, type Logger } from './log.js';
import { NO_METRICS, type MetricsPort } from './metrics.js';
import { Health } from './health.js';
import type { AdmissionRecord } from './admission-record.js';

export type AdmissionSink = (record: AdmissionRecord) => void;

export type Telemetry = {
  log: Logger;
  metrics: MetricsPort;
  health: Health;
  /** Further consumers of admission records (the Worker's Analytics Engine dataset). */
  admissionSinks: readonly AdmissionSink[];
  /** Share of allowed admissions without fallbacks that get a decision line (0..1). */
  decisionSample: number;
  random: () => number;
};

const initial = (): Telemetry => ({ log: SILENT_LOGGER, metrics: NO_METRICS, health: new Health(), admissionSinks: [], decisionSample: DEFAULT_DECISION_SAMPLE, random: Math.random });

/** Every allowed admission gets its line unless KS_DECISION_LOG_SAMPLE says fewer. */
export const DEFAULT_DECISION_SAMPLE = 1;

let current: Telemetry = initial();

export function telemetry(): Telemetry {
  return current;
}

/** Replaces parts of the telemetry; returns what was there before (tests restore it). */
export function configureTelemetry(parts: Partial<Telemetry>): Telemetry {
  const before = current;
  current = { ...current, ...parts };
  return before;
}

/** Back to nothing recorded and a fresh health record (tests). */
export function resetTelemetry(): void {
  current = initial();
}

/** KS_DECISION_LOG_SAMPLE: a share from 0 to 1 (unset: DEFAULT_DECISION_SAMPLE). */
export function parseDecisionSample(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_DECISION_SAMPLE;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new Error(`KS_DECISION_LOG_SAMPLE "${text}": expected a number from 0 (only denials and fallbacks) to 1 (every admission)`);
  return n;
}
