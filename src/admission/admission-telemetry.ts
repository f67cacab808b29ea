// What telemetry records of one admission (src/telemetry/admission-record.ts), from dispatch's result.
import type { AdmissionRecord } from '../telemetry/admission-record.js';
import type { AdmitResult } from './dispatch.js';

export function admissionRecord(endpoint: string, clusterId: string, result: AdmitResult, latencyMs: number): AdmissionRecord {
  const fallbacks = result.fallbacks ?? [];
  if (result.status !== 200) return { clusterId, endpoint, verdict: 'invalid', code: result.status, latencyMs, fallbacks, message: result.body.error };
  const answer = result.body.response;
  const a = result.admitted;
  const identity = a ? { operation: a.operation, kind: a.kind, ...(a.namespace ? { namespace: a.namespace } : {}), ...(a.name ? { name: a.name } : {}), ...(a.dryRun ? { dryRun: true } : {}) } : {};
  if (answer.allowed) return { clusterId, endpoint, verdict: 'allowed', code: 200, latencyMs, fallbacks, ...identity };
  const status = answer.status;
  return { clusterId, endpoint, verdict: 'denied', code: status?.code ?? 403, latencyMs, fallbacks, ...identity, ...(status?.message ? { message: status.message } : {}) };
}
