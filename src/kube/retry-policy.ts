// When the API client tries a request again, and after how long. Pure: the outcome of one attempt
// in, a delay (or none: give up and report it) out.
//   429 Too Many Requests with Retry-After: any verb — the API server's throttling (max in flight,
//     priority and fairness) refused it without processing it, and says when to come back. A 429
//     without it is an answer, not throttling: an eviction a disruption budget refuses (PDB, or our
//     PUB webhook) must reach the caller, not be retried until the budget allows it.
//   5xx and connection failures (refused, reset, timed out): reads only (GET, HEAD). A write may
//     have been applied before the answer was lost, and the caller's next run decides afresh.
// Without Retry-After the wait is exponential with jitter, so clients refused together do not
// come back together.

/** Attempts in all, the first included. */
export const MAX_ATTEMPTS = 5;
const BASE_DELAY_MS = 250;
const MAX_DELAY_MS = 8_000;
/** A server asking for a longer wait than this is reported rather than waited for. */
export const MAX_RETRY_AFTER_MS = 30_000;

/** The request never got an answer: connection refused or reset, timed out, cut mid-body. */
export class KubeTransportError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'KubeTransportError';
  }
}

export type AttemptOutcome = { status: number; retryAfter?: string } | { error: unknown };

const IDEMPOTENT = new Set(['GET', 'HEAD']);

/**
 * How long to wait before attempt `attempt + 1`, after attempt `attempt` (1-based) ended with
 * `outcome`; undefined: no further attempt. `random` is in [0, 1).
 */
export function retryDelayMs(method: string, outcome: AttemptOutcome, attempt: number, random: () => number = Math.random, now: () => number = Date.now): number | undefined {
  if (attempt >= MAX_ATTEMPTS) return undefined;
  const read = IDEMPOTENT.has(method.toUpperCase());
  if ('error' in outcome) return read && outcome.error instanceof KubeTransportError ? backoffMs(attempt, random) : undefined;
  const { status } = outcome;
  const asked = retryAfterMs(outcome.retryAfter, now);
  if (status === 429 && asked === undefined) return undefined;
  if (status !== 429 && !(read && status >= 500)) return undefined;
  if (asked === undefined) return backoffMs(attempt, random);
  return asked <= MAX_RETRY_AFTER_MS ? asked : undefined;
}

/** Half the exponential step fixed, half random: attempt 1 waits 125–250 ms, attempt 4 1–2 s. */
export function backoffMs(attempt: number, random: () => number): number {
  const step = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1));
  return step / 2 + random() * (step / 2);
}

/** A Retry-After header (seconds, or an HTTP date) in ms; undefined when absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: () => number = Date.now): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now());
}
