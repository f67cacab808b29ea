// The arithmetic of k8s.io/apimachinery's resource.Quantity that OpenKruise's resources
// calculator uses (Add, Neg, MilliValue, SetMilli, NewMilliQuantity), on src/kube/quantity.ts's
// exact representation. Pure.
import type { Quantity } from '../kube/quantity.js';

const pow10 = (n: number) => 10n ** BigInt(n);

/** Quantity.Add: exact; the receiver keeps its format unless it is zero, then it takes the other's. */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const scale = Math.min(a.scale, b.scale);
  const mantissa = a.mantissa * pow10(a.scale - scale) + b.mantissa * pow10(b.scale - scale);
  return { mantissa, scale, format: a.mantissa === 0n ? b.format : a.format };
}

export function negateQuantity(q: Quantity): Quantity {
  return { mantissa: -q.mantissa, scale: q.scale, format: q.format };
}

/** Quantity.MilliValue: the value in thousandths, rounded up. */
export function milliValue(q: Quantity): bigint {
  const shift = q.scale + 3;
  if (shift >= 0) return q.mantissa * pow10(shift);
  const div = pow10(-shift);
  const quotient = q.mantissa / div;
  return q.mantissa > 0n && quotient * div !== q.mantissa ? quotient + 1n : quotient;
}

/** resource.NewMilliQuantity / Quantity.SetMilli: `milli` thousandths in `format`. */
export function milliQuantity(milli: bigint, format: Quantity['format'] = 'DecimalSI'): Quantity {
  return { mantissa: milli, scale: -3, format };
}

const INT64_MIN = -(2n ** 63n);

/** Go's int64(f) on amd64: truncated; NaN, ±Inf and out-of-range values become the minimum int64. */
export function truncToBigInt(f: number): bigint {
  if (!Number.isFinite(f) || Math.abs(f) >= 2 ** 63) return INT64_MIN;
  return BigInt(Math.trunc(f));
}

export function quantitySign(q: Quantity): number {
  return q.mantissa > 0n ? 1 : q.mantissa < 0n ? -1 : 0;
}
