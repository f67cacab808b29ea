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

/** Whether a stored revision holds exactly these data bytes (history.EqualRevision), as Go spells them. */
export function revisionHoldsData(revision: ControllerRevision, dataJson: string): boolean {
  return revision.data !== undefined && revisionDataJson(revision.data) === dataJson;
}

/** history.FindEqualRevisions: the revisions holding these data bytes, in the order given. */
export function findEqualRevisions(revisions: readonly ControllerRevision[], dataJson: string): ControllerRevision[] {
  return revisions.filter((r) => revisionHoldsData(r, dataJson));
}

/** The number a new revision takes: one past the newest (revisions sorted by compareRevisions), or 1. */
export function nextRevisionNumber(sorted: readonly ControllerRevision[]): number {
  const newest = sorted[sorted.length - 1];
  return newest ? newest.revision + 1 : 1;
}

export type RevisionName = {
  name: string;
  hash: string;
  /** The collision count that produced the name: raised once per name taken by different data. */
  collisionCount: number;
  /** A revision already under that name with the same data: nothing to create. */
  existing?: ControllerRevision;
};

/**
 * CreateControllerRevision's naming loop: `<prefix>-<hash>` for the data and the collision count,
 * the count raised while that name is held by a revision with different data. `taken` looks a
 * name up among all ControllerRevisions of the namespace (owned or not: names are per namespace).
 */
export function nameRevision(
  prefix: string,
  dataJson: string,
  collisionCount: number,
  taken: (name: string) => ControllerRevision | undefined,
): RevisionName {
  for (let count = collisionCount; ; count++) {
    const hash = hashControllerRevision(dataJson, count);
    const name = controllerRevisionName(prefix, hash);
    const holder = taken(name);
    if (!holder) return { name, hash, collisionCount: count };
    if (revisionHoldsData(holder, dataJson)) return { name, hash, collisionCount: count, existing: holder };
  }
}

/** What the history needs for the current spec (the shared part of getActiveRevisions). */
export type UpdateRevisionDecision =
  /** The newest revision already holds the data. */
  | { kind: 'current'; revision: ControllerRevision }
  /** An older revision holds it: a rollback, that revision takes the next number. */
  | { kind: 'renumber'; revision: ControllerRevision; to: number }
  /** No revision holds it: a new one, numbered `to`. */
  | { kind: 'create'; to: number };

/** Decides how the owned history (sorted by compareRevisions) comes to hold `dataJson`. */
export function decideUpdateRevision(sorted: readonly ControllerRevision[], dataJson: string): UpdateRevisionDecision {
  const equal = findEqualRevisions(sorted, dataJson);
  const lastEqual = equal[equal.length - 1];
  const newest = sorted[sorted.length - 1];
  if (lastEqual && lastEqual === newest) return { kind: 'current', revision: lastEqual };
  if (lastEqual) return { kind: 'renumber', revision: lastEqual, to: nextRevisionNumber(sorted) };
  return { kind: 'create', to: nextRevisionNumber(sorted) };
}

/**
 * The hash part of a revision name or of a `controller-revision-hash` label: its last `-`
 * segment. Workloads with short hashes label pods with just this.
 */
export function shortRevisionHash(value: string): string {
  const i = value.lastIndexOf('-');
  return i < 0 ? value : value.slice(i + 1);
}

/** Whether a pod's `controller-revision-hash` value (full `<owner>-<hash>` or short `<hash>`) names this revision. */
export function labelNamesRevision(labelValue: string | undefined, revisionName: string): boolean {
  if (labelValue === undefined) return false;
  return labelValue === revisionName || shortRevisionHash(labelValue) === shortRevisionHash(revisionName);
}

/**
 * A workload's truncateHistory: of the revisions (sorted oldest first) that are not live, the
 * oldest beyond `limit` are to be deleted; live ones never count against the limit.
 */
export function revisionsBeyondLimit(
  sorted: readonly ControllerRevision[],
  isLive: (revision: ControllerRevision) => boolean,
  limit: number,
): ControllerRevision[] {
  const history = sorted.filter((r) => !isLive(r));
  return history.slice(0, Math.max(0, history.length - Math.max(0, limit)));
}
