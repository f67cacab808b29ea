// intstr.IntOrString as Kubernetes and OpenKruise scale it: a replica count or a percentage of a
// total, with their rounding. Pure.

export type IntOrString = number | string;

/** intstr.GetScaledValueFromIntOrPercent: an int as is, "N%" of total (rounded up or down); else an error. */
export function scaledValue(v: IntOrString, total: number, roundUp: boolean): number | { error: string } {
  if (typeof v === 'number') return Math.trunc(v);
  if (!v.endsWith('%')) return { error: `invalid value for IntOrString: invalid type: string is not a percentage` };
  const digits = v.slice(0, -1);
  if (!/^[+-]?\d+$/.test(digits)) return { error: `invalid value for IntOrString: invalid value ${JSON.stringify(v)}` };
  const scaled = (Number(digits) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/**
 * util.CalculatePartitionReplicas: how many of `total` pods stay on the old version. A percentage
 * rounds up, but one below 100% leaves at least one pod to update when there are several; an
 * unusable value counts as 0.
 */
export function partitionReplicas(partition: IntOrString | undefined, total: number): number {
  if (partition === undefined || partition === null) return 0;
  const v = scaledValue(partition, total, true);
  if (typeof v !== 'number') return 0;
  let p = v;
  if (total > 1 && p === total && typeof partition === 'string' && partition !== '100%') p = total - 1;
  return Math.max(Math.min(p, total), 0);
}

