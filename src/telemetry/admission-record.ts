// One admission as telemetry sees it, the decision log line made from it, and when that line is
// written: always for a denial, a fallback or a malformed review; for a plain allow, sampled.
import type { LogFields, LogLevel } from './log.js';

export type AdmissionRecord = {
  clusterId: string;
  /** The endpoint's path segment (mutate-pod…), never the URL, which holds the path secret. */
  endpoint: string;
  /** allowed/denied: an AdmissionReview answered; invalid: the body was not one (HTTP 400/413). */
  verdict: 'allowed' | 'denied' | 'invalid';
  /** The denial's code; 200 when allowed; the HTTP status when invalid. */
  code: number;
  latencyMs: number;
  fallbacks: readonly { feature: string; reason: string }[];
  operation?: string;
  kind?: string;
  namespace?: string;
  name?: string;
  dryRun?: boolean;
  /** The denial's message (what the user sees too). */
  message?: string;
};

/** Whether the record gets a decision line: `roll` is a uniform draw in [0, 1). */
export function decisionLogged(r: AdmissionRecord, sample: number, roll: number): boolean {
  if (r.verdict !== 'allowed' || r.fallbacks.length > 0) return true;
  return roll < sample;
}

/** warn when something went wrong on our side (a fallback, a 5xx denial); info otherwise. */
export function decisionLevel(r: AdmissionRecord): LogLevel {
  return r.fallbacks.length > 0 || (r.verdict === 'denied' && r.code >= 500) ? 'warn' : 'info';
}

const MAX_MESSAGE = 300;

/** The decision line's fields (msg "admission"). No object content beyond its identity. */
export function decisionFields(r: AdmissionRecord): LogFields {
  return {
    clusterId: r.clusterId,
    endpoint: r.endpoint,
    verdict: r.verdict,
    code: r.code,
    latencyMs: Math.round(r.latencyMs * 100) / 100,
    fallbacks: r.fallbacks.map((f) => `${f.feature}:${f.reason}`),
    ...(r.operation ? { operation: r.operation } : {}),
    ...(r.kind ? { kind: r.kind } : {}),
    ...(r.namespace ? { namespace: r.namespace } : {}),
    ...(r.name ? { name: r.name } : {}),
    ...(r.dryRun ? { dryRun: true } : {}),
    ...(r.message ? { message: r.message.length > MAX_MESSAGE ? `${r.message.slice(0, MAX_MESSAGE)}…` : r.message } : {}),
  };
}
