// JSON with a single spelling per value: object keys sorted, no whitespace, strings escaped as Go's
// encoding/json escapes them. OpenKruise hashes `spec.resource` exactly as the API server sends
// it, and the API server writes custom resources with encoding/json from maps (sorted keys,
// compact), so for the JSON a ConfigMap or Secret holds this spelling gives the same bytes and
// copies OpenKruise made keep their hashcode (hash.test.ts reproduces the hashcode in OpenKruise's
// documentation). Pure and Web-only.

// Go escapes <, > and & (HTML safety) and U+2028/U+2029 besides what JSON requires.
const GO_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

function quote(s: string): string {
  // Control characters without a short form become \u00XX; lone surrogates become U+FFFD as Go
  // would have replaced the invalid UTF-8 they stand for.
  const body = s.replace(/["\\<>&\u0000-\u001f\u2028\u2029]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (c) => {
    const short = GO_ESCAPES[c];
    if (short) return short;
    if (c.length === 1 && c.charCodeAt(0) < 0x20) return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    return '\ufffd';
  });
  return `"${body}"`;
}

/** Canonical JSON of a JSON-compatible value; `undefined` members are left out, as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object': {
      if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`;
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        // Go sorts map keys bytewise (UTF-8); code-unit order agrees except around surrogates.
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${quote(k)}:${canonicalJson(v)}`).join(',')}}`;
    }
    default:
      return 'null';
  }
}
