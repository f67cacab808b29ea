// The API client's limits, from the environment.
//   KS_KUBE_QPS    requests per second, sustained (default 200)
//   KS_KUBE_BURST  requests allowed at once above that rate (default 400)
// client-go's defaults (5 / 10) suit a controller that reads from an informer cache; ours LISTs
// what each run needs (a ResourceDistribution run over 100 namespaces makes ~110 calls), so a
// burst covers one such run and the rate one full resync of every reconciler in a few seconds,
// still within what one API server serves (400 reads and 200 writes in flight by default; beyond
// that its 429 with Retry-After is honoured). At 50/100 two invocations of one reconciler started
// together no longer raced for its lease (one finished before the other's throttled calls went
// out) and a 20-pod rollout under repeated kills outran its 150 s test budget.
// Requests in flight are capped separately (MAX_IN_FLIGHT): the connections the client opens.
export type ClientLimits = { qps: number; burst: number; maxInFlight: number };

export const DEFAULT_QPS = 200;
export const DEFAULT_BURST = 400;
export const MAX_IN_FLIGHT = 32;

export function clientLimitsFromEnv(env: Record<string, string | undefined> = process.env): ClientLimits {
  return {
    qps: positive(env, 'KS_KUBE_QPS', DEFAULT_QPS),
    burst: Math.max(1, Math.floor(positive(env, 'KS_KUBE_BURST', DEFAULT_BURST))),
    maxInFlight: MAX_IN_FLIGHT,
  };
}

function positive(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got "${text}")`);
  return n;
}
