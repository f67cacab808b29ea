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
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Where the string whose text starts at `from` ends: just past its closing quote, or -1 when it
 * goes on past the chunk (-2: and the chunk's last character escapes the next one).
 */
function stringEnd(chunk: string, from: number): number {
  let i = from;
  for (;;) {
    const q = chunk.indexOf('"', i);
    const end = q < 0 ? chunk.length : q;
    let k = end - 1;
    while (k >= from && chunk.charCodeAt(k) === BACKSLASH) k--;
    const odd = (end - 1 - k) % 2 === 1;
    if (q < 0) return odd ? -2 : -1;
    if (!odd) return q + 1;
    i = q + 1;
  }
}

/**
 * Reads a LIST page (a JSON object whose `items` is an array of objects). `each` makes the stored
 * item from the parsed one, once per item, in order. Text outside `items` (kind, metadata) is kept
 * and parsed at the end.
 */
export function listPageReader<T>(strings: Map<string, string>, each: (item: T) => T, opts: { managedFields?: 'keep' } = {}): BodyReader<ListPage<T>> {
  const reader = new PageReader<T>(strings, each, opts.managedFields === 'keep');
  return { write: (chunk) => reader.write(chunk), end: () => reader.end() };
}

class PageReader<T> {
  private readonly items: T[] = [];
  private envelope = '';
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** 0: before `items`; 1: inside its array; 2: after it. */
  private stage = 0;
  /** The current item's kept text from earlier chunks. */
  private pieces: string[] = [];
  /** Inside an item: the last item-level string was the key `metadata`; its object is open. */
  private metadataNext = false;
  private inMetadata = false;
  /** Leaving out an item's metadata.managedFields (the comma before it, when there was one). */
  private skipping = false;
  private skipHadComma = false;

  constructor(
    private readonly strings: Map<string, string>,
    private readonly each: (item: T) => T,
    private readonly keepManagedFields = false,
  ) {}

  private emit(text: string): void {
    const item = this.each(JSON.parse(text) as T);
    shareStrings(item, this.strings);
    this.items.push(item);
  }

  write(chunk: string): void {
    // The state in locals while scanning (fields are slower in the loop), stored back at the end.
    let { depth, stage, skipping, metadataNext, inMetadata } = this;
    const n = chunk.length;
    let i = 0;
    if (this.inString) {
      const e = stringEnd(chunk, this.escaped ? Math.min(1, n) : 0);
      this.inString = e < 0;
      this.escaped = e === -2;
      i = e < 0 ? n : e;
    }
    /** Where the item's kept text resumes in this chunk (-1: not in an item, or skipping). */
    let keepFrom = stage === 1 && depth > 1 && !skipping ? 0 : -1;
    /** Where the envelope's text in this chunk resumes. */
    let envelopeFrom = stage === 1 ? -1 : 0;
    for (; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (c === QUOTE) {
        if (stage === 1) {
          if (depth === 1) throw new SyntaxError('a LIST item that is not an object');
          if (depth === 2) metadataNext = chunk.startsWith('metadata":', i + 1);
          else if (depth === 3 && inMetadata && !skipping && !this.keepManagedFields && i > 0 && chunk.startsWith('managedFields":', i + 1)) {
            // Not parsed at all: no reader needs it (see KubeHttp.list). Compact JSON only; any
            // other spelling is parsed and then dropped.
            const before = chunk.charCodeAt(i - 1);
            if (before === COMMA || before === OPEN_OBJECT) {
              this.skipHadComma = before === COMMA;
              this.pieces.push(chunk.slice(keepFrom, this.skipHadComma ? i - 1 : i));
              keepFrom = -1;
              skipping = true;
            }
          }
        }
        const e = stringEnd(chunk, i + 1);
        if (e < 0) {
          this.inString = true;
          this.escaped = e === -2;
          break;
        }
        i = e - 1;
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (stage === 1 && depth === 1) {
          if (c !== OPEN_OBJECT) throw new SyntaxError('a LIST item that is not an object');
          keepFrom = i;
        } else if (stage === 1 && depth === 2) inMetadata = metadataNext && c === OPEN_OBJECT;
        depth++;
        if (stage === 0 && depth === 2 && c === OPEN_ARRAY && /"items"\s*:\s*$/.test(this.envelope + chunk.slice(envelopeFrom, i))) {
          this.envelope += chunk.slice(envelopeFrom, i + 1);
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
          const text = this.pieces.length ? this.pieces.join('') + chunk.slice(keepFrom, i + 1) : chunk.slice(keepFrom, i + 1);
          this.pieces = [];
          keepFrom = -1;
          this.emit(text);
        } else if (stage === 1 && depth === 0) {
          stage = 2;
          depth = 1;
          envelopeFrom = i;
        }
      } else if (c === COMMA && skipping && depth === 3) {
        skipping = false;
        keepFrom = this.skipHadComma ? i : i + 1;
      } else if (stage === 1 && depth === 1 && c !== COMMA && !isSpace(c)) throw new SyntaxError('a LIST item that is not an object');
    }
    if (stage === 1) {
      if (keepFrom >= 0) this.pieces.push(chunk.slice(keepFrom));
    } else if (envelopeFrom >= 0) this.envelope += chunk.slice(envelopeFrom);
    this.depth = depth;
    this.stage = stage;
    this.skipping = skipping;
    this.metadataNext = metadataNext;
    this.inMetadata = inMetadata;
  }

  end(): ListPage<T> {
    if (this.stage === 1 || this.inString) throw new SyntaxError('unexpected end of a LIST page');
    const page = JSON.parse(this.envelope) as ListPage<T>;
    if (this.stage === 2) return { ...page, items: this.items };
    return { ...page, items: ((page.items ?? []) as T[]).map((it) => {
      const item = this.each(it);
      shareStrings(item, this.strings);
      return item;
    }) };
  }
}
