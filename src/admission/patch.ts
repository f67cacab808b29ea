// The one place mutations become RFC 6902 JSON Patch: handlers change a copy, and the framework
// diffs the original against it. Web APIs only (TextEncoder, btoa): this runs in Workers.
//
// Written here rather than taken from fast-json-patch (which the tests use to apply patches): its
// compare diffs arrays position by position, so a sidecar inserted before the app container
// rewrites every container after it (tens of KB per pod), and it deep-copies every value it emits.
// Here an array that only gained items (anywhere) gets an `add` per new item, one that only lost
// items a `remove` per item gone, one of the same length is diffed element by element, and any
// other change replaces the array once; values are referenced, not copied (the patch is
// serialised at once).

export type PatchOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string };


const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** RFC 6901: "~" → "~0", "/" → "~1". */
function pointerSegment(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (!isObject(a) || !isObject(b)) return false;
  const ka = Object.keys(a).filter((k) => a[k] !== undefined);
  const kb = Object.keys(b).filter((k) => b[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
}

/**
 * Where each item of `short` sits in `long` if `short` is `long` with some items taken out (in
 * order, each equal): the first match for each, which is as good as any (the others are all
 * inserted or removed either way). Undefined if it is not.
 */
function embedding(short: readonly unknown[], long: readonly unknown[]): boolean[] | undefined {
  const kept = new Array<boolean>(long.length).fill(false);
  let i = 0;
  for (let j = 0; j < long.length && i < short.length; j++) {
    if (long.length - j < short.length - i) return undefined;
    if (deepEqual(short[i], long[j])) {
      kept[j] = true;
      i++;
    }
  }
  return i === short.length ? kept : undefined;
}

function diffArray(a: readonly unknown[], b: readonly unknown[], path: string, ops: PatchOperation[]): void {
  if (a.length === b.length) {
    for (let i = 0; i < a.length; i++) diffValue(a[i], b[i], `${path}/${i}`, ops);
    return;
  }
  // Only insertions (sidecars before and after the app containers): an add at each new item's
  // final index, ascending, so each lands where the ones before it already are.
  const inserted = b.length > a.length ? embedding(a, b) : undefined;
  if (inserted) {
    for (let j = 0; j < b.length; j++) if (!inserted[j]) ops.push({ op: 'add', path: `${path}/${j}`, value: b[j] });
    return;
  }
  // Only removals: a remove at each old index, descending, so none shifts another.
  const kept = a.length > b.length ? embedding(b, a) : undefined;
  if (kept) {
    for (let i = a.length - 1; i >= 0; i--) if (!kept[i]) ops.push({ op: 'remove', path: `${path}/${i}` });
    return;
  }
  ops.push({ op: 'replace', path, value: b });
}

function diffValue(a: unknown, b: unknown, path: string, ops: PatchOperation[]): void {
  if (a === b) return;
  if (isObject(a) && isObject(b)) {
    for (const k of Object.keys(a)) {
      if (a[k] === undefined) continue;
      if (b[k] === undefined) ops.push({ op: 'remove', path: `${path}/${pointerSegment(k)}` });
      else diffValue(a[k], b[k], `${path}/${pointerSegment(k)}`, ops);
    }
    for (const k of Object.keys(b)) {
      if (b[k] !== undefined && a[k] === undefined) ops.push({ op: 'add', path: `${path}/${pointerSegment(k)}`, value: b[k] });
    }
  } else if (Array.isArray(a) && Array.isArray(b)) {
    diffArray(a, b, path, ops);
  } else if (!deepEqual(a, b)) {
    ops.push({ op: 'replace', path, value: b });
  }
}

/** The operations that turn `original` into `mutated`; [] when they are equal. */
export function jsonPatch(original: object, mutated: object): PatchOperation[] {
  const ops: PatchOperation[] = [];
  diffValue(original, mutated, '', ops);
  return ops;
}

/** base64 of the patch's UTF-8 JSON, as AdmissionResponse.patch carries it. */
export function encodePatch(ops: PatchOperation[]): string {
  return base64Utf8(JSON.stringify(ops));
}

/** Bytes per String.fromCharCode call: well under engines' argument-count limits. */
const CHUNK = 0x8000;
const utf8 = new TextEncoder();

function base64Utf8(text: string): string {
  // btoa takes Latin-1 "binary strings": ASCII text (as many bytes as characters) already is one,
  // anything else goes via its UTF-8 bytes. Encoding is faster than testing the text for ASCII.
  const bytes = utf8.encode(text);
  if (bytes.length === text.length) return btoa(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}
