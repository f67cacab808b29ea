// The one place mutations become RFC 6902 JSON Patch: handlers change a copy, and the framework
// diffs the original against it. Web APIs only (TextEncoder, btoa): this runs in Workers.
// The default import is the one form that resolves the same in Node (CommonJS main) and in
// bundlers (ES module entry); the package's named exports are invisible to Node's ESM loader.
import jsonpatch from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';

export type PatchOperation = Operation;

/** The operations that turn `original` into `mutated`; [] when they are equal. */
export function jsonPatch(original: object, mutated: object): PatchOperation[] {
  return jsonpatch.compare(original, mutated);
}

/** base64 of the patch's UTF-8 JSON, as AdmissionResponse.patch carries it. */
export function encodePatch(ops: PatchOperation[]): string {
  return base64Utf8(JSON.stringify(ops));
}

const ASCII = /^[\x00-\x7f]*$/;
/** Bytes per String.fromCharCode call: well under engines' argument-count limits. */
const CHUNK = 0x8000;

function base64Utf8(text: string): string {
  // btoa takes Latin-1 "binary strings": ASCII is already one, anything else goes via UTF-8 bytes.
  if (ASCII.test(text)) return btoa(text);
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}
