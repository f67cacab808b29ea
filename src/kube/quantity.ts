// Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource): parsing, comparison and
// the canonical text Go writes when it re-serialises one ("0.5" → "500m", "1024Mi" → "1Gi").
// Exact arithmetic with BigInt: a quantity is mantissa × 10^scale.

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';
export type Quantity = { mantissa: bigint; scale: number; format: QuantityFormat; cached?: string };

export const QUANTITY_FORMAT_ERROR = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const DECIMAL_SUFFIX: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY_SUFFIX: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_BY_EXPONENT = new Map(Object.entries(DECIMAL_SUFFIX).map(([s, e]) => [e, s]));
const BINARY_BY_EXPONENT = new Map(Object.entries(BINARY_SUFFIX).map(([s, e]) => [e, s]));

const pow10 = (n: number) => 10n ** BigInt(n);

function splitQuantity(str: string): { negative: boolean; num: string; denom: string; suffix: string } | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?([eEinumkKMGTP]*[-+]?\d*)$/.exec(str);
  if (!m || (m[2] === '' && m[3] === undefined)) return undefined;
  const num = m[2]!.replace(/^0+/, '') || '0';
  return { negative: m[1] === '-', num, denom: m[3] ?? '', suffix: m[4]! };
}

function interpretSuffix(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
  if (suffix in DECIMAL_SUFFIX) return { base: 10, exponent: DECIMAL_SUFFIX[suffix]!, format: 'DecimalSI' };
  if (suffix in BINARY_SUFFIX) return { base: 2, exponent: BINARY_SUFFIX[suffix]!, format: 'BinarySI' };
  const exp = /^[eE]([-+]?\d+)$/.exec(suffix);
  if (exp) return { base: 10, exponent: Number(exp[1]), format: 'DecimalExponent' };
  return undefined;
}

/** resource.ParseQuantity, including its rounding up to nano precision; undefined if unparsable. */
export function parseQuantity(str: string): Quantity | undefined {
  if (str === '0') return { mantissa: 0n, scale: 0, format: 'DecimalSI', cached: str };
  const parts = splitQuantity(str);
  if (!parts) return undefined;
  const suffix = interpretSuffix(parts.suffix);
  if (!suffix) return undefined;
  const { num, denom, negative } = parts;
  const digits = BigInt(num + denom);
  let q: Quantity;
  if (suffix.base === 10) {
    q = { mantissa: digits, scale: suffix.exponent - denom.length, format: suffix.format };
    // Go keeps the text it parsed when it is already canonical (and int64-sized).
    const shifted = num + denom;
    const precision = 18 - (num.length + denom.length);
    if (precision >= 0 && q.scale >= -9 && q.scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0') q.cached = str;
  } else {
    q = { mantissa: digits * 2n ** BigInt(suffix.exponent), scale: -denom.length, format: 'BinarySI' };
    const precision = 15 - num.length - Math.trunc((suffix.exponent * 3) / 10) - 1;
    if (denom === '' && precision >= 0 && suffix.exponent % 10 === 0 && (digits & 7n) !== 0n) q.cached = str;
  }
  if (negative) q.mantissa = -q.mantissa;
  return roundUp(q, -9);
}

/** Rounds away from zero to `scale` (Quantity.RoundUp); keeps the parsed text when nothing changes. */
export function roundUp(q: Quantity, scale: number): Quantity {
  if (q.scale >= scale) return q;
  const div = pow10(scale - q.scale);
  const abs = q.mantissa < 0n ? -q.mantissa : q.mantissa;
  let m = abs / div;
  if (m * div !== abs) m += 1n;
  return { mantissa: q.mantissa < 0n ? -m : m, scale, format: q.format };
}

function removeFactors(value: bigint, base: bigint): [bigint, number] {
  let abs = value < 0n ? -value : value;
  let times = 0;
  while (abs >= base && abs % base === 0n) {
    abs /= base;
    times++;
  }
  return [value < 0n ? -abs : abs, times];
}

/** Quantity.String(): the canonical text. */
export function formatQuantity(q: Quantity): string {
  if (q.cached !== undefined) return q.cached;
  if (q.mantissa === 0n) return '0';
  let format = q.format;
  if (format === 'BinarySI') {
    const isInteger = q.scale >= 0 || q.mantissa % pow10(-q.scale) === 0n;
    const value = q.scale >= 0 ? q.mantissa * pow10(q.scale) : q.mantissa / pow10(-q.scale);
    if (!isInteger || (value > -1024n && value < 1024n)) format = 'DecimalSI';
    else {
      const [amount, times] = removeFactors(value, 1024n);
      const suffix = BINARY_BY_EXPONENT.get(times * 10);
      if (suffix !== undefined) return `${amount}${suffix}`;
      format = 'DecimalSI';
    }
  }
  let [amount, times] = removeFactors(q.mantissa, 10n);
  let exponent = q.scale + times;
  const rem = ((exponent % 3) + 3) % 3;
  amount *= pow10(rem);
  exponent -= rem;
  if (format === 'DecimalExponent') return exponent === 0 ? `${amount}` : `${amount}e${exponent}`;
  const suffix = DECIMAL_BY_EXPONENT.get(exponent);
  return suffix !== undefined ? `${amount}${suffix}` : `${amount}e${exponent}`;
}

/**
 * The text Go writes for a quantity read from `text`; with `milli`, after SetDefaults_ResourceList's
 * rounding up to milli precision (container limits and requests). Unparsable text is returned as is.
 */
export function canonicalQuantity(text: string, milli = false): string {
  const q = parseQuantity(text);
  if (!q) return text;
  return formatQuantity(milli ? roundUp(q, -3) : q);
}

/** Sign of a − b. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const scale = Math.min(a.scale, b.scale);
  const x = a.mantissa * pow10(a.scale - scale);
  const y = b.mantissa * pow10(b.scale - scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function isIntegerQuantity(q: Quantity): boolean {
  return q.scale >= 0 || q.mantissa % pow10(-q.scale) === 0n;
}
