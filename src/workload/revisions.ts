// ControllerRevision history as Kubernetes' controller/history package keeps it, which OpenKruise's
// workloads and SidecarSets share: the revision's `data` bytes as Go spells them, the name
// `<prefix>-<hash>` with the hash FNV-1 (32 bit) of those bytes and the collision count,
// safe-encoded, and the order revisions are listed in. Pure, Web APIs only.
import { goJSON } from '../kube/go-json.js';
import { timeOf } from './pods.js';

export const CONTROLLER_REVISION_HASH_LABEL = 'controller.kubernetes.io/hash';

export type OwnerReference = { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean; blockOwnerDeletion?: boolean };

export type ControllerRevision = {
  apiVersion?: string;
  kind?: string;
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    creationTimestamp?: string | null;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    ownerReferences?: OwnerReference[];
  };
  data?: unknown;
  revision: number;
};

const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** rand.SafeEncodeString: each character → SAFE_ALPHABET[code % 27] (no vowels, no look-alikes). */
export function safeEncodeString(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) out += SAFE_ALPHABET[s.charCodeAt(i) % SAFE_ALPHABET.length];
  return out;
}

/** The bytes OpenKruise stores as `data` (and hashes): Go's encoding of a map, keys sorted. */
export function revisionDataJson(data: unknown): string {
  return goJSON(typeof data === 'string' ? (JSON.parse(data) as unknown) : data);
}

/** FNV-1 (not 1a), 32 bit, as Go's hash/fnv New32. */
export function fnv1_32(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  for (const b of bytes) h = (Math.imul(h, 0x01000193) ^ b) >>> 0;
  return h >>> 0;
}

/** history.HashControllerRevision: FNV-1 of the data bytes then the collision count in decimal. */
export function hashControllerRevision(dataJson: string, collisionCount: number): string {
  const bytes = new TextEncoder().encode(dataJson + String(collisionCount));
  return safeEncodeString(String(fnv1_32(bytes)));
}

/** history.ControllerRevisionName: `<prefix>-<hash>`, the prefix cut to 223 characters. */
export function controllerRevisionName(prefix: string, hash: string): string {
  return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}

/** history.SortControllerRevisions: by .revision, then creation time, then name. */
export function compareRevisions(a: ControllerRevision, b: ControllerRevision): number {
  if (a.revision !== b.revision) return a.revision - b.revision;
  const ta = timeOf(a.metadata.creationTimestamp);
  const tb = timeOf(b.metadata.creationTimestamp);
  if (ta !== tb) return ta - tb;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}
