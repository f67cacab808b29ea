// One page of a LIST response, read as it arrives and parsed item by item. A whole page (500 pods,
// 2.5 MB of JSON) held as one string and one JSON.parse lives in the old generation until a full
// GC: the page's text and every item's garbage (managedFields: 40% of a pod's JSON) with it, 20
// pages in a row at 10,000 pods. Read item by item, only one item's text and garbage is alive at a
// time, and dies young. Repeated string values (timestamps, images, condition types, node names:
// 30% of a parsed pod) are shared through `strings`, one table per LIST.

export type ListPage<T> = { items: T[]; metadata: { continue?: string; resourceVersion: string } };

/** Consumes a response body chunk by chunk; `end()` is the result. */
export type BodyReader<R> = { write(chunk: string): void; end(): R };

/** Replaces each string value in `v` (not keys: JSON.parse already shares those) by its first equal. */
function shareStrings(v: unknown, strings: Map<string, string>): void {
  if (typeof v !== 'object' || v === null) return;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (typeof x === 'string') v[i] = strings.get(x) ?? (strings.set(x, x), x);
      else shareStrings(x, strings);
    }
    return;
  }
  const node = v as Record<string, unknown>;
  for (const k in node) {
    const x = node[k];
    if (typeof x === 'string') {
      const seen = strings.get(x);
      if (seen === undefined) strings.set(x, x);
      else node[k] = seen;
    } else shareStrings(x, strings);
  }
}

const QUOTE = 0x22;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Reads a LIST page (a JSON object whose `items` is an array of objects). `each` makes the stored
 * item from the parsed one, once per item, in order. Text outside `items` (kind, metadata) is kept
 * and parsed at the end.
 */
export function listPageReader<T>(strings: Map<string, string>, each: (item: T) => T): BodyReader<ListPage<T>> {
  const items: T[] = [];
  let envelope = '';
  let depth = 0;
  let inString = false;
  let escaped = false;
  /** 0: before `items`; 1: inside its array; 2: after it. */
  let stage = 0;
  /** The current item's kept text from earlier chunks. */
  let pieces: string[] = [];
  /** Inside an item: the last item-level string was the key `metadata`; its object is open. */
  let metadataNext = false;
  let inMetadata = false;
  /** Leaving out an item's metadata.managedFields (the comma before it, when there was one). */
  let skipping = false;
  let skipHadComma = false;

  const emit = (text: string) => {
    const item = each(JSON.parse(text) as T);
    shareStrings(item, strings);
    items.push(item);
  };

  function write(chunk: string): void {
    let i = 0;
    /** Where the item's kept text resumes in this chunk (-1: not in an item, or skipping). */
    let keepFrom = stage === 1 && depth > 1 && !skipping ? 0 : -1;
    /** Where the envelope's text in this chunk resumes. */
    let envelopeFrom = stage === 1 ? -1 : 0;
    const n = chunk.length;
    let nextBackslash = chunk.indexOf('\\');
    while (i < n) {
      if (inString) {
        // Jump to the next quote or backslash: strings are most of the text.
        if (escaped) {
          escaped = false;
          i++;
          continue;
        }
        const q = chunk.indexOf('"', i);
        if (nextBackslash >= 0 && nextBackslash < i) nextBackslash = chunk.indexOf('\\', i);
        const b = nextBackslash;
        if (b >= 0 && (q < 0 || b < q)) {
          i = b + 1;
          escaped = true;
          continue;
        }
        if (q < 0) {
          i = n;
          break;
        }
        i = q + 1;
        inString = false;
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === QUOTE) {
        if (stage === 1) {
          if (depth === 1) throw new SyntaxError('a LIST item that is not an object');
          if (depth === 2) metadataNext = chunk.startsWith('metadata":', i + 1);
          else if (depth === 3 && inMetadata && !skipping && i > 0 && chunk.startsWith('managedFields":', i + 1)) {
            // Not parsed at all: no reader needs it (see KubeHttp.list). Compact JSON only; any
            // other spelling is parsed and then dropped.
            const before = chunk.charCodeAt(i - 1);
            if (before === COMMA || before === OPEN_OBJECT) {
              skipHadComma = before === COMMA;
              pieces.push(chunk.slice(keepFrom, skipHadComma ? i - 1 : i));
              keepFrom = -1;
              skipping = true;
            }
          }
        }
        inString = true;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (stage === 1 && depth === 1) {
          if (c !== OPEN_OBJECT) throw new SyntaxError('a LIST item that is not an object');
          keepFrom = i;
        } else if (stage === 1 && depth === 2) inMetadata = metadataNext && c === OPEN_OBJECT;
        depth++;
        if (stage === 0 && depth === 2 && c === OPEN_ARRAY && /"items"\s*:\s*$/.test(envelope + chunk.slice(envelopeFrom, i))) {
          envelope += chunk.slice(envelopeFrom, i + 1);
          stage = 1;
          depth = 1; // depth counts from the array now: items are at depth 1 → 2
        }
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (skipping && depth === 3) {
          // managedFields was metadata's last field
          skipping = false;
          keepFrom = i;
        }
        depth--;
        if (stage === 1 && depth === 2) inMetadata = false;
        else if (stage === 1 && depth === 1) {
          const text = pieces.length ? pieces.join('') + chunk.slice(keepFrom, i + 1) : chunk.slice(keepFrom, i + 1);
          pieces = [];
          keepFrom = -1;
          emit(text);
        } else if (stage === 1 && depth === 0) {
          stage = 2;
          depth = 1;
          envelopeFrom = i;
        }
      } else if (c === COMMA && skipping && depth === 3) {
        skipping = false;
        keepFrom = skipHadComma ? i : i + 1;
      } else if (stage === 1 && depth === 1 && c !== COMMA && !isSpace(c)) throw new SyntaxError('a LIST item that is not an object');
      i++;
    }
    if (stage === 1) {
      if (keepFrom >= 0) pieces.push(chunk.slice(keepFrom));
    } else if (envelopeFrom >= 0) envelope += chunk.slice(envelopeFrom);
  }

  return {
    write,
    end() {
      if (stage === 1 || inString) throw new SyntaxError('unexpected end of a LIST page');
      const page = JSON.parse(envelope) as ListPage<T>;
      if (stage === 2) return { ...page, items };
      return { ...page, items: ((page.items ?? []) as T[]).map((it) => {
        const item = each(it);
        shareStrings(item, strings);
        return item;
      }) };
    },
  };
}
