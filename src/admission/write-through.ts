// Records what a validating endpoint admitted into the edge's state before the answer leaves
// (read-your-writes, src/edge-state/admitted.ts). If it cannot be recorded, an endpoint that fails closed refuses
// the request (the caller retries; admitting an object the edge does not know would let, say, a
// new PodUnavailableBudget protect nothing), and an observer admits it with a warning.
import type { AdmitResult, Admitted } from './dispatch.js';
import { reasonFor } from './respond.js';
import type { WebhookEndpoint } from './types.js';
import type { AdmittedRequest, AdmittedWrite } from '../edge-state/admitted.js';

export async function withWriteThrough(
  result: AdmitResult,
  endpoint: WebhookEndpoint,
  writesOf: (a: AdmittedRequest) => AdmittedWrite[],
  record: (writes: readonly AdmittedWrite[]) => Promise<void>,
): Promise<AdmitResult> {
  const a: Admitted | undefined = result.admitted;
  if (result.status !== 200 || !a || !a.allowed || a.dryRun) return result;
  const writes = writesOf(a);
  if (!writes.length) return result;
  try {
    await record(writes);
    return result;
  } catch (e) {
    const problem = `${endpoint.name}: the edge could not record this change (${e instanceof Error ? e.message : String(e)})`;
    const response = { ...result.body.response };
    if (endpoint.failurePolicy === 'Ignore') {
      response.warnings = [...(response.warnings ?? []), `${problem}; webhooks may not see it until the next sync`];
    } else {
      const { patch: _p, patchType: _t, ...rest } = response;
      Object.assign(rest, { allowed: false, status: { code: 503, message: `${problem}; retry shortly`, reason: reasonFor(503), status: 'Failure' } });
      return { ...result, body: { ...result.body, response: rest }, admitted: { ...a, allowed: false } };
    }
    return { ...result, body: { ...result.body, response } };
  }
}
