// Figures the soak reports. Pure.
export type Spread = { count: number; p50: number; p99: number; max: number };

export function spread(samples: readonly number[]): Spread {
  if (!samples.length) return { count: 0, p50: Number.NaN, p99: Number.NaN, max: Number.NaN };
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1]! };
}

export const ms = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ms` : 'n/a');
export const seconds = (n: number) => (Number.isFinite(n) ? `${(n / 1000).toFixed(1)} s` : 'n/a');

/** What a refused API call says about us: our own state (stale or missing), an unreachable edge, or something else. */
export type Refusal = 'staleness' | 'edge-unreachable' | 'other';

export function classifyRefusal(message: string): Refusal {
  if (/is stale|is missing|not synced|never synced/.test(message)) return 'staleness';
  if (/failed calling webhook/.test(message)) return 'edge-unreachable';
  return 'other';
}

/** Whether [from, to] overlaps any of the windows. */
export const overlaps = (from: number, to: number, windows: readonly { from: number; to: number }[]) =>
  windows.some((w) => from <= w.to && to >= w.from);
