// Whether this process probes pods itself: $KS_POD_PROBES ("true" or "false"). By default it does,
// except on AWS Lambda ($AWS_LAMBDA_FUNCTION_NAME set), which runs outside the cluster's network.
import { NetProber } from './prober.js';
import type { Prober } from './results.js';

export function proberFromEnv(env: Record<string, string | undefined>): Prober | undefined {
  const v = env.KS_POD_PROBES;
  if (v !== undefined && v !== 'true' && v !== 'false') throw new Error(`KS_POD_PROBES="${v}": expected true or false`);
  const on = v === undefined ? !env.AWS_LAMBDA_FUNCTION_NAME : v === 'true';
  return on ? new NetProber() : undefined;
}
