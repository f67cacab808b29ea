// OpenKruise's `kruise.io/cloneset-volumeclaimtemplate-hash` (pkg/util/volumeclaimtemplate):
// each template reduced to a PersistentVolumeClaim of its name and spec, stable-sorted by name,
// marshalled by Go's encoding/json, and that []byte fed to k8s DeepHashObject, which writes
// spew's `%#v` printout of it into a 32-bit FNV-1a: `([]uint8)[123 34 ...]`, the type in
// parentheses, then the bytes in decimal separated by spaces (spew's formatter has no hex dump
// for byte slices; only its Dumper does). The annotation is the sum in decimal. Pure.
import { byCodePoint, encodeGo, list, struct } from '../kube/go-json.js';
import { PERSISTENT_VOLUME_CLAIM } from '../kube/go-pod-template-types.js';

export const VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION = 'kruise.io/cloneset-volumeclaimtemplate-hash';

export type ClaimTemplate = { metadata?: { name?: string }; spec?: unknown };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A resource quantity stored as a JSON number (a CRD keeps it so) is a Quantity to Go, written
 * back as a string: numbers in requests and limits become their text.
 */
function withQuantityText(spec: unknown): unknown {
  if (!isRecord(spec) || !isRecord(spec.resources)) return spec;
  const text = (list: unknown) => (isRecord(list) ? Object.fromEntries(Object.entries(list).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v])) : list);
  const { limits, requests } = spec.resources;
  return { ...spec, resources: { ...spec.resources, ...(limits !== undefined ? { limits: text(limits) } : {}), ...(requests !== undefined ? { requests: text(requests) } : {}) } };
}

/** json.Marshal of the []PersistentVolumeClaim OpenKruise hashes (`null` when there are none). */
export function volumeClaimTemplatesJson(templates: readonly ClaimTemplate[] | undefined): string {
  // Go appends to a nil slice, so no templates marshal as null, not [].
  if (!templates?.length) return 'null';
  const claims = templates
    .map((t) => ({ metadata: { name: t.metadata?.name ?? '' }, spec: withQuantityText(t.spec) }))
    .sort((a, b) => byCodePoint(a.metadata.name, b.metadata.name));
  return encodeGo(list(struct(PERSISTENT_VOLUME_CLAIM)), claims);
}

/** spew.ConfigState{Indent: " ", SortKeys, DisableMethods, SpewKeys}.Fprintf("%#v", []byte). */
export function spewByteSlice(bytes: Uint8Array): string {
  return `([]uint8)[${bytes.join(' ')}]`;
}

/** hash/fnv New32a over an ASCII string. */
export function fnv32a(ascii: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < ascii.length; i++) h = Math.imul(h ^ ascii.charCodeAt(i), 0x01000193) >>> 0;
  return h >>> 0;
}

/** The hash OpenKruise computes for these templates (getExpectHash), in decimal. */
export function volumeClaimTemplatesHash(templates: readonly ClaimTemplate[] | undefined): string {
  const json = new TextEncoder().encode(volumeClaimTemplatesJson(templates));
  return String(fnv32a(spewByteSlice(json)));
}

/** PatchVCTemplateHash: the annotation a CloneSet's new revision carries ("" without templates). */
export function volumeClaimTemplatesAnnotation(templates: readonly ClaimTemplate[] | undefined): string {
  return templates?.length ? volumeClaimTemplatesHash(templates) : '';
}

type Annotated = { metadata?: { annotations?: Record<string, string> } };

/**
 * CanVCTemplateInplaceUpdate: false only when both revisions carry the hash and it differs (a
 * revision without it, written before the annotation existed, never forces a recreate).
 */
export function vctAllowsInPlace(from: Annotated | undefined, to: Annotated | undefined): boolean {
  const a = from?.metadata?.annotations?.[VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION];
  const b = to?.metadata?.annotations?.[VOLUME_CLAIM_TEMPLATE_HASH_ANNOTATION];
  return a === undefined || b === undefined || a === b;
}
