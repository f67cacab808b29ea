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


/**
 * OpenKruise's util.GetScaledValueFromIntOrPercent, which its workload webhooks use: unlike
 * Kubernetes' it refuses a missing value and parses the percentage as a float ("12.5%").
 */
export function kruiseScaledValue(v: IntOrString | undefined | null, total: number, roundUp: boolean): number | { error: string } {
  if (v === undefined || v === null) return { error: 'nil value for IntOrString' };
  if (typeof v === 'number') return Math.trunc(v);
  if (!v.endsWith('%')) return { error: 'invalid type: string is not a percentage' };
  const digits = v.slice(0, -1);
  // strconv.ParseFloat's decimal syntax (hex floats, "inf" and underscores left out).
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(digits)) return { error: `strconv.ParseFloat: parsing ${JSON.stringify(digits)}: invalid syntax` };
  const scaled = (Number(digits) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** Go's `%#v` of an intstr.IntOrString, as field.Invalid prints one (a nil pointer: null). */
export function goIntOrString(v: IntOrString | undefined | null): string {
  if (v === undefined || v === null) return 'null';
  return typeof v === 'string' ? `intstr.IntOrString{Type:1, IntVal:0, StrVal:${JSON.stringify(v)}}` : `intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`;
}
