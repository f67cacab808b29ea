import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';

describe('canonicalJson', () => {
  it.each<[string, unknown, string]>([
    ['keys sorted at every level', { b: 1, a: { d: true, c: null } }, '{"a":{"c":null,"d":true},"b":1}'],
    ['arrays keep their order', [3, 1, 2], '[3,1,2]'],
    ['undefined members dropped', { a: undefined, b: 'x' }, '{"b":"x"}'],
    ['HTML characters escaped as Go does', { s: '<a href="x">&</a>' }, '{"s":"\\u003ca href=\\"x\\"\\u003e\\u0026\\u003c/a\\u003e"}'],
    ['short escapes', { s: '\n\r\t\b\f\\' }, '{"s":"\\n\\r\\t\\b\\f\\\\"}'],
    ['other control characters as \\u00XX', { s: '\u0001\u001f' }, '{"s":"\\u0001\\u001f"}'],
    ['line and paragraph separators escaped', { s: '\u2028\u2029' }, '{"s":"\\u2028\\u2029"}'],
    ['non-ASCII kept verbatim', { s: 'héllo ✓ 😀' }, '{"s":"héllo ✓ 😀"}'],
    ['lone surrogate replaced', { s: 'a\ud800b' }, '{"s":"a\ufffdb"}'],
    ['numbers', { i: 3, f: 1.5, neg: -2 }, '{"f":1.5,"i":3,"neg":-2}'],
  ])('%s', (_name, value, want) => {
    expect(canonicalJson(value)).toBe(want);
  });
});
