// From a pod becoming Ready to the controller's next write, for a rollout with `window` pods
// unavailable at a time: the k-th pod to get Ready frees the slot the (window + k)-th pod's first
// step takes, so the gap between the two is how long the controller took to act on the Ready.
// Pure: per-pod marks (ms after the spec change) in, gaps out.

export function readyToNextWrite(podMarks: Record<string, Record<string, number>>, firstStep: string, ready: string, window: number): number[] {
  const starts = Object.values(podMarks).map((m) => m[firstStep]).filter((t): t is number => t !== undefined).sort((a, b) => a - b);
  const readies = Object.values(podMarks).map((m) => m[ready]).filter((t): t is number => t !== undefined).sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let k = 0; window + k < starts.length && k < readies.length; k++) gaps.push(starts[window + k]! - readies[k]!);
  return gaps;
}

export function percentile(xs: readonly number[], q: number): number | undefined {
  if (!xs.length) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
