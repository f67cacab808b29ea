// go-spew's `%#v` printout of a Go value decoded from JSON, as k8s DeepHashObject writes it
// (ConfigState{Indent: " ", SortKeys, DisableMethods, SpewKeys}): `(type)` before every value
// except slice elements, map keys and values, and what a pointer points to; struct fields as
// `Name:value` separated by spaces; `<nil>` for nil pointers, slices and maps; strings unquoted.
// Types come from a table that Go's reflect wrote (go-spew-pod-template-types.ts). Quantities
// print their internal form as apimachinery's ParseQuantity leaves it (fast path only); values
// this printer cannot reproduce raise SpewUnsupported. Pure.
import { GO_TYPES, type GoType } from './go-spew-pod-template-types.js';

export class SpewUnsupported extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

type Amount = { value: bigint; scale: number; s: string; format: string };

const DECIMAL: Record<string, number> = { '': 0, n: -9, u: -6, m: -3, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BINARY: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const INT64_MAX = (1n << 63n) - 1n;

/** ParseQuantity's fast path (apimachinery pkg/api/resource/quantity.go). */
export function parseQuantityAmount(input: string | number): Amount {
  const str = String(input).trim();
  if (str === '0') return { value: 0n, scale: 0, s: str, format: 'DecimalSI' };
  const m = /^([+-]?)0*(\d*)(?:\.(\d*))?([eEinumkKMGTP]*(?:[-+]?\d+)?)$/.exec(str);
  if (!m) throw new SpewUnsupported(`quantity ${str}`);
  const positive = m[1] !== '-';
  const num = m[2] || '0';
  const denom = m[3] ?? '';
  const suf = m[4]!;
  let exponent: number;
  let format: string;
  if (suf in DECIMAL) [exponent, format] = [DECIMAL[suf]!, 'DecimalSI'];
  else if (suf in BINARY) [exponent, format] = [BINARY[suf]!, 'BinarySI'];
  else if (/^[eE][-+]?\d+$/.test(suf)) [exponent, format] = [Number(suf.slice(1)), 'DecimalExponent'];
  else throw new SpewUnsupported(`quantity ${str}`);
  let precision: number;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = 1n << BigInt(exponent);
      precision = 15 - num.length - Math.trunc(Math.fround((exponent * 3) / 10)) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = 18 - (num.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= -9) {
      const shifted = num + denom;
      const value = BigInt(shifted);
      if (value > INT64_MAX) throw new SpewUnsupported(`quantity ${str}`);
      const product = value * mantissa;
      if (product <= INT64_MAX) {
        const result = positive ? product : -product;
        const canonical = format === 'BinarySI' ? exponent % 10 === 0 && (value & 7n) !== 0n : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return { value: result, scale, s: canonical ? str : '', format };
      }
    }
  }
  throw new SpewUnsupported(`quantity ${str} (inf.Dec)`);
}

function quantity(v: unknown): string {
  if (v === undefined || v === null) return '{i:(resource.int64Amount){value:(int64)0 scale:(resource.Scale)0} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string) Format:(resource.Format)}';
  if (typeof v !== 'string' && typeof v !== 'number') throw new SpewUnsupported('quantity');
  const a = parseQuantityAmount(v);
  return `{i:(resource.int64Amount){value:(int64)${a.value} scale:(resource.Scale)${a.scale}} d:(resource.infDecAmount){Dec:(*inf.Dec)<nil>} s:(string)${a.s} Format:(resource.Format)${a.format}}`;
}

function intOrString(v: unknown): string {
  if (v === undefined || v === null) return '{Type:(intstr.Type)0 IntVal:(int32)0 StrVal:(string)}';
  if (typeof v === 'number') return `{Type:(intstr.Type)0 IntVal:(int32)${v} StrVal:(string)}`;
  if (typeof v === 'string') return `{Type:(intstr.Type)1 IntVal:(int32)0 StrVal:(string)${v}}`;
  throw new SpewUnsupported('IntOrString');
}

const ZERO_TIME = '{Time:(time.Time){wall:(uint64)0 ext:(int64)0 loc:(*time.Location)<nil>}}';

/** The printout of `value` as Go type `typeName`; `showType` false where spew omits the type. */
export function spew(typeName: string, value: unknown, showType = true): string {
  const t: GoType | undefined = GO_TYPES[typeName];
  if (!t) throw new SpewUnsupported(`type ${typeName}`);
  if (t.kind === 'ptr') {
    const head = showType ? `(${typeName})` : '<*>';
    return value === undefined || value === null ? `${head}<nil>` : head + spew(t.elem!, value, false);
  }
  const head = showType ? `(${typeName})` : '';
  switch (typeName) {
    case 'resource.Quantity':
      return head + quantity(value);
    case 'intstr.IntOrString':
      return head + intOrString(value);
    case 'v1.Time':
    case 'v1.MicroTime':
      if (value !== undefined && value !== null) throw new SpewUnsupported('a set time');
      return head + ZERO_TIME;
  }
  switch (t.kind) {
    case 'struct': {
      if (value !== undefined && value !== null && !isRecord(value)) throw new SpewUnsupported(`${typeName}: not an object`);
      const obj = (value ?? {}) as Record<string, unknown>;
      // A field without a json name is inline (`json:",inline"`): it reads the same object.
      const fields = (t.fields ?? []).map(([go, json, type]) => `${go}:${spew(type, json === '' ? obj : json === '-' ? undefined : obj[json], true)}`);
      return `${head}{${fields.join(' ')}}`;
    }
    case 'slice':
      if (value === undefined || value === null) return `${head}<nil>`;
      if (!Array.isArray(value)) throw new SpewUnsupported(`${typeName}: not a list`);
      return `${head}[${value.map((e) => spew(t.elem!, e, false)).join(' ')}]`;
    case 'map': {
      if (value === undefined || value === null) return `${head}<nil>`;
      if (!isRecord(value)) throw new SpewUnsupported(`${typeName}: not an object`);
      const keys = Object.keys(value).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      return `${head}map[${keys.map((k) => `${spew(t.key!, k, false)}:${spew(t.elem!, value[k], false)}`).join(' ')}]`;
    }
    case 'string':
      if (value !== undefined && value !== null && typeof value !== 'string') throw new SpewUnsupported(`${typeName}: not a string`);
      return head + ((value as string | undefined) ?? '');
    case 'bool':
      return head + (value === true ? 'true' : 'false');
    case 'int':
    case 'int32':
    case 'int64':
    case 'uint':
    case 'uint64':
    case 'uint8':
      if (value !== undefined && value !== null && !Number.isInteger(value)) throw new SpewUnsupported(`${typeName}: not an integer`);
      return head + String(value ?? 0);
    default:
      throw new SpewUnsupported(`kind ${t.kind}`);
  }
}
