// Go's encoding/json output for typed values (struct tables: SidecarSet containers in
// go-sidecar-containers.ts, pod templates in go-pod-template-types.ts), so that hashes and
// revisions come out byte-identical to OpenKruise's: struct fields in Go declaration order, `omitempty` dropping
// zero values (but never non-pointer structs such as `resources`, which is written as `{}`),
// pointers written even when they point at a zero value, map keys sorted, quantities in their
// canonical form, and Go's string escaping (`<`, `>`, `&`, U+2028/9 as \u escapes).
//
// Field orders come from k8s.io/api (generated) and apis/apps/v1alpha1/sidecarset_types.go. Fields the schema does not know (newer
// Kubernetes fields, typos) are written after the known ones with sorted keys; Go would drop them,
// but OpenKruise's own defaulting drops them from the stored object too, so no object it produces
// differs, while a change to such a field still changes our hash.
import { canonicalQuantity } from './quantity.js';

export type Kind =
  | 'string'
  | 'int'
  | 'bool'
  | 'quantity'
  | 'intOrString'
  | 'time'
  | 'raw'
  | { ptr: Kind }
  | { list: Kind }
  | { map: Kind }
  | { struct: StructDef };

/** [json name, kind, omitempty]. Inline (embedded) structs are spelled out in place. */
export type FieldDef = readonly [string, Kind, boolean];
export type StructDef = readonly FieldDef[];

export const S = 'string' as const;
export const I = 'int' as const;
export const B = 'bool' as const;
export const ptr = (k: Kind): Kind => ({ ptr: k });
export const list = (k: Kind): Kind => ({ list: k });
export const struct = (s: StructDef): Kind => ({ struct: s });

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Printable ASCII that Go writes as it is: no quote, backslash, <, > or &. */
const VERBATIM = /^[\x20\x21\x23-\x25\x27-\x3b\x3d\x3f-\x5b\x5d-\x7e]*$/;

/** Go's encodeState.string with HTML escaping on. */
export function goString(s: string): string {
  // Names, hashes and timestamps on the injection path: no need to walk them character by character.
  if (VERBATIM.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        out += s[i]! + s[i + 1]!;
        i++;
      } else out += '\\ufffd'; // invalid UTF-16 becomes U+FFFD, as invalid UTF-8 does in Go
      continue;
    }
    switch (c) {
      case 0x22: out += '\\"'; break;
      case 0x5c: out += '\\\\'; break;
      case 0x0a: out += '\\n'; break;
      case 0x0d: out += '\\r'; break;
      case 0x09: out += '\\t'; break;
      case 0x08: out += '\\b'; break;
      case 0x0c: out += '\\f'; break;
      default:
        if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) {
          out += `\\u${c.toString(16).padStart(4, '0')}`;
        } else out += s[i]!;
    }
  }
  return `${out}"`;
}

/** Go sorts map keys by their UTF-8 bytes, i.e. by code point. */
export function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

const sortedKeys = (o: Record<string, unknown>) => Object.keys(o).sort(byCodePoint);

/** A value of unknown shape, as Go writes an interface{} holding decoded JSON. */
export function goJSON(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goString(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goJSON).join(',')}]`;
  if (isObject(v)) return `{${sortedKeys(v).map((k) => `${goString(k)}:${goJSON(v[k])}`).join(',')}}`;
  return 'null';
}

function isEmpty(kind: Kind, v: unknown): boolean {
  // Quantity, IntOrString and metav1.Time are structs in Go: `omitempty` never drops them.
  if (v === undefined || v === null) return typeof kind === 'string' ? kind !== 'quantity' && kind !== 'intOrString' && kind !== 'time' : !('struct' in kind);
  if (typeof kind === 'string') {
    if (kind === 'string') return v === '';
    if (kind === 'int') return v === 0;
    if (kind === 'bool') return v === false;
    return false;
  }
  if ('list' in kind) return Array.isArray(v) && v.length === 0;
  if ('map' in kind) return isObject(v) && Object.keys(v).length === 0;
  return false;
}

/** A value as Go's json.Marshal writes it when its Go type is `kind`. */
export function encodeGo(kind: Kind, v: unknown): string {
  return encode(kind, v);
}

function encode(kind: Kind, v: unknown): string {
  if (typeof kind === 'string') {
    switch (kind) {
      case 'string':
        return typeof v === 'string' ? goString(v) : v == null ? '""' : goJSON(v);
      case 'int':
        return v == null ? '0' : goJSON(v);
      case 'bool':
        return v == null ? 'false' : goJSON(v);
      case 'quantity':
        return typeof v === 'string' ? goString(canonicalQuantity(v)) : v == null ? '"0"' : goJSON(v);
      case 'intOrString':
        return v == null ? '0' : goJSON(v);
      case 'time':
        return v == null ? 'null' : goJSON(v); // metav1.Time: the zero time is written as null
      case 'raw':
        return goJSON(v);
    }
  }
  if ('ptr' in kind) return v == null ? 'null' : encode(kind.ptr, v);
  if ('list' in kind) return v == null ? 'null' : Array.isArray(v) ? `[${v.map((e) => encode(kind.list, e)).join(',')}]` : goJSON(v);
  if ('map' in kind) {
    if (v == null) return 'null';
    if (!isObject(v)) return goJSON(v);
    return `{${sortedKeys(v).map((k) => `${goString(k)}:${encode(kind.map, v[k])}`).join(',')}}`;
  }
  return encodeStruct(kind.struct, v);
}

function encodeStruct(def: StructDef, v: unknown): string {
  if (v != null && !isObject(v)) return goJSON(v);
  const obj = (v ?? {}) as Record<string, unknown>;
  const parts: string[] = [];
  const known = new Set<string>();
  for (const [name, kind, omitEmpty] of def) {
    known.add(name);
    const value = obj[name];
    if (omitEmpty && isEmpty(kind, value)) continue;
    parts.push(`${goString(name)}:${encode(kind, value)}`);
  }
  for (const k of sortedKeys(obj)) {
    if (!known.has(k) && obj[k] !== null && obj[k] !== undefined) parts.push(`${goString(k)}:${goJSON(obj[k])}`);
  }
  return `{${parts.join(',')}}`;
}

